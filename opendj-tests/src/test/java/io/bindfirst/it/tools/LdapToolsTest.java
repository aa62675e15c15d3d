package io.bindfirst.it.tools;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertFalse;
import static org.testng.Assert.assertTrue;

import java.util.ArrayList;
import java.util.List;

import org.testng.annotations.AfterClass;
import org.testng.annotations.BeforeClass;
import org.testng.annotations.Test;

import io.bindfirst.it.support.LdapTools;
import io.bindfirst.it.support.TestServer;

/**
 * OpenLDAP's own client tools (Debian's ldap-utils) against the server, unchanged. Skipped when the
 * tools are missing, except where {@code -Dldap.tools.required=true} (CI) makes that a failure.
 */
public class LdapToolsTest {
    private TestServer server;
    private String url;

    @BeforeClass
    public void start() throws Exception {
        LdapTools.require("ldapwhoami", "ldapsearch");
        server = TestServer.start(100);
        url = "ldap://127.0.0.1:" + server.port();
    }

    @AfterClass(alwaysRun = true)
    public void stop() {
        if (server != null) {
            server.close();
        }
    }

    private static LdapTools.Run run(String... command) throws Exception {
        return LdapTools.run(command);
    }

    @Test
    public void ldapwhoamiPrintsTheDn() throws Exception {
        LdapTools.Run r = run("ldapwhoami", "-x", "-H", url, "-D", TestServer.user(1), "-w", "password");
        assertEquals(r.exit(), 0, r.output());
        assertEquals(r.output().trim(), "dn:" + TestServer.user(1));
    }

    @Test
    public void wrongPasswordAndUnknownDnAreInvalidCredentials() throws Exception {
        LdapTools.Run wrong = run("ldapwhoami", "-x", "-H", url, "-D", TestServer.user(1), "-w", "nope");
        LdapTools.Run unknown = run("ldapwhoami", "-x", "-H", url, "-D", "uid=ghost,ou=People,dc=example,dc=com",
                "-w", "password");
        assertEquals(wrong.exit(), 49, wrong.output());
        assertEquals(unknown.exit(), 49, unknown.output());
        assertTrue(wrong.output().contains("Invalid credentials (49)"), wrong.output());
        assertEquals(unknown.output(), wrong.output());
    }

    @Test
    public void emptyPasswordIsUnwillingToPerform() throws Exception {
        LdapTools.Run r = run("ldapwhoami", "-x", "-H", url, "-D", TestServer.user(1), "-w", "");
        assertEquals(r.exit(), 53, r.output());
        assertTrue(r.output().contains("Server is unwilling to perform (53)"), r.output());
    }

    @Test
    public void anonymousWhoami() throws Exception {
        LdapTools.Run r = run("ldapwhoami", "-x", "-H", url);
        assertEquals(r.exit(), 0, r.output());
        assertEquals(r.output().trim(), "anonymous");
    }

    @Test
    public void ldapsearchShowsTheSampleGroupsThroughIsMemberOf() throws Exception {
        String groups = "ou=Groups,dc=example,dc=com";
        LdapTools.Run read = run("ldapsearch", "-x", "-LLL", "-H", url, "-b", TestServer.user(1), "-s", "base",
                "(objectClass=*)", "isMemberOf");
        assertEquals(read.exit(), 0, read.output());
        assertTrue(read.output().contains("isMemberOf: cn=Administrators," + groups), read.output());
        assertTrue(read.output().contains("isMemberOf: cn=Developers," + groups), read.output());
        assertTrue(read.output().contains("isMemberOf: cn=Staff," + groups), read.output()); // nested
        // cn=Staff nests both groups: its members are the 100 users (in Developers) and the two groups.
        LdapTools.Run filtered = run("ldapsearch", "-x", "-LLL", "-H", url, "-b", "dc=example,dc=com",
                "(isMemberOf=cn=Staff," + groups + ")", "1.1");
        assertEquals(filtered.exit(), 0, filtered.output());
        assertEquals(count(filtered.output(), "dn: "), 102, filtered.output());
        assertTrue(filtered.output().contains("dn: cn=Developers," + groups), filtered.output());
        LdapTools.Run admins = run("ldapsearch", "-x", "-LLL", "-H", url, "-b", "dc=example,dc=com",
                "(&(objectClass=inetOrgPerson)(isMemberOf=cn=Administrators," + groups + "))", "uid");
        assertEquals(admins.exit(), 0, admins.output());
        assertEquals(count(admins.output(), "dn: "), 2, admins.output());
        assertTrue(admins.output().contains("uid: user.0") && admins.output().contains("uid: user.1"),
                admins.output());
    }

    @Test
    public void ldapsearchFindsTheUserWithoutPassword() throws Exception {
        LdapTools.Run r = run("ldapsearch", "-x", "-LLL", "-H", url, "-b", "dc=example,dc=com", "(uid=user.42)");
        assertEquals(r.exit(), 0, r.output());
        assertTrue(r.output().startsWith("dn: " + TestServer.user(42)), r.output());
        assertTrue(r.output().contains("mail: user.42@example.com"), r.output());
        assertFalse(r.output().toLowerCase().contains("userpassword"), r.output());
        assertEquals(count(r.output(), "\ndn: ") + (r.output().startsWith("dn: ") ? 1 : 0), 1, r.output());
    }

    @Test
    public void ldapsearchRootDse() throws Exception {
        LdapTools.Run r = run("ldapsearch", "-x", "-LLL", "-H", url, "-s", "base", "-b", "", "+");
        assertEquals(r.exit(), 0, r.output());
        for (String want : List.of("namingContexts: dc=example,dc=com", "supportedLDAPVersion: 3",
                "supportedExtension: 1.3.6.1.4.1.4203.1.11.3", "supportedControl:", "vendorName:",
                "vendorVersion:", "subschemaSubentry: cn=schema")) {
            assertTrue(r.output().contains(want), want + " missing from:\n" + r.output());
        }
    }

    @Test
    public void ldapsearchSizeLimitAndSchema() throws Exception {
        LdapTools.Run limited = run("ldapsearch", "-x", "-LLL", "-H", url, "-b", TestServer.PEOPLE, "-z", "3",
                "(objectClass=person)", "1.1");
        assertEquals(limited.exit(), 4, limited.output());
        assertEquals(count(limited.output(), "dn: "), 3, limited.output());
        assertTrue(limited.output().contains("Size limit exceeded (4)"), limited.output());

        LdapTools.Run schema =
                run("ldapsearch", "-x", "-LLL", "-H", url, "-s", "base", "-b", "cn=schema", "objectClasses");
        assertEquals(schema.exit(), 0, schema.output());
        assertTrue(schema.output().contains("NAME 'inetOrgPerson'"), "inetOrgPerson missing");
    }

    @Test
    public void ldapsearchBoundAsRootSeesThePassword() throws Exception {
        List<String> cmd = new ArrayList<>(List.of("ldapsearch", "-x", "-LLL", "-H", url, "-D",
                TestServer.ROOT_DN, "-w", TestServer.ROOT_PASSWORD, "-b", TestServer.user(5), "-s", "base",
                "userPassword"));
        LdapTools.Run r = run(cmd.toArray(String[]::new));
        assertEquals(r.exit(), 0, r.output());
        assertTrue(r.output().contains("userPassword:: "), r.output());
    }

    private static int count(String s, String needle) {
        int n = 0;
        for (int i = s.indexOf(needle); i >= 0; i = s.indexOf(needle, i + 1)) {
            n++;
        }
        return n;
    }
}
