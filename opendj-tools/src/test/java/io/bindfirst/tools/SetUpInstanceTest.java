package io.bindfirst.tools;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertFalse;
import static org.testng.Assert.assertTrue;
import static org.testng.Assert.expectThrows;

import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;

import org.forgerock.opendj.ldap.Connection;
import org.forgerock.opendj.ldap.LDAPConnectionFactory;
import org.forgerock.opendj.ldap.LdapException;
import org.forgerock.opendj.ldap.ResultCode;
import org.forgerock.opendj.ldap.SearchScope;
import org.forgerock.opendj.ldap.requests.Requests;
import org.forgerock.opendj.ldap.responses.SearchResultEntry;
import org.testng.annotations.AfterClass;
import org.testng.annotations.BeforeClass;
import org.testng.annotations.Test;

/**
 * bin/setup makes an instance with its own base DN, root user and sample users; a server started on it serves
 * them; bin/status reports on that running server with and without the root user's password.
 */
public class SetUpInstanceTest {
    private static final String BASE = "o=Acme Widgets";
    private static final String ROOT_DN = "cn=Admin,o=ops";
    private static final String ROOT_PASSWORD = "Not-the-demo-1";

    private Instance instance;
    private ServerChild server;
    private int ldapPort;

    @BeforeClass
    public void setUpAndStart() throws Exception {
        instance = Instance.create();
        int[] ports = ServerChild.freePorts(3);
        ldapPort = ports[0];
        instance.write("root.pw", ROOT_PASSWORD);
        ToolRun setup = ToolRun.run(new Setup(), instance.args("--baseDN", BASE, "--rootUserDN", ROOT_DN,
                "--rootUserPasswordFile", instance.file("root.pw").toString(), "--sampleData", "5",
                "--ldapPort", Integer.toString(ports[0]), "--ldapsPort", Integer.toString(ports[1]),
                "--httpPort", Integer.toString(ports[2])));
        assertEquals(setup.exitCode(), Tools.OK, setup.said());
        server = ServerChild.start(instance.root());
    }

    @AfterClass(alwaysRun = true)
    public void stop() throws Exception {
        if (server != null) {
            server.close();
        }
        if (instance != null) {
            instance.close();
        }
    }

    @Test
    public void theRootPasswordIsStoredHashed() throws Exception {
        String config = Files.readString(instance.file("config/config.ldif"));
        assertFalse(config.contains(ROOT_PASSWORD), "the clear password is in config.ldif");
        assertTrue(config.contains("ds-cfg-alternate-bind-dn: " + ROOT_DN), config);
    }

    @Test
    public void theServerTakesTheNewRootUserAndServesTheBaseDn() throws Exception {
        try (LDAPConnectionFactory f = new LDAPConnectionFactory("127.0.0.1", ldapPort);
             Connection c = f.getConnection()) {
            c.bind(ROOT_DN, ROOT_PASSWORD.toCharArray());
            List<SearchResultEntry> entries = new ArrayList<>();
            c.search(Requests.newSearchRequest(BASE, SearchScope.WHOLE_SUBTREE, "(objectClass=*)", "1.1"),
                    entries);
            List<String> dns = entries.stream().map(e -> e.getName().toString()).sorted().toList();
            // the base, ou=People, 5 users, ou=Services and its account, ou=Groups and 3 groups
            assertEquals(dns.size(), 13, dns.toString());
            assertTrue(dns.contains("uid=user.4,ou=People," + BASE), dns.toString());
            assertEquals(c.readEntry("", "namingContexts").parseAttribute("namingContexts").asString(), BASE);
        }
        try (LDAPConnectionFactory f = new LDAPConnectionFactory("127.0.0.1", ldapPort);
             Connection c = f.getConnection()) {
            LdapException e = expectThrows(LdapException.class,
                    () -> c.bind("cn=Directory Manager", "password".toCharArray()));
            assertEquals(e.getResult().getResultCode(), ResultCode.INVALID_CREDENTIALS);
        }
    }

    @Test
    public void statusWithoutCredentialsShowsWhatNeedsNone() {
        ToolRun status = ToolRun.run(new Status(), instance.args());
        assertEquals(status.exitCode(), Tools.OK, status.said());
        assertTrue(status.out().contains("running (pid " + server.pid() + ")"), status.said());
        assertTrue(status.out().contains("ldap://127.0.0.1:" + ldapPort + " (answers)"), status.said());
        assertTrue(status.out().contains("Naming contexts: " + BASE), status.said());
        assertTrue(status.out().contains("give a root user's password"), status.said());
        assertFalse(status.out().contains("Operations:"), status.said());
    }

    @Test
    public void statusWithCredentialsReadsTheMonitor() {
        ToolRun status = ToolRun.run(new Status(), instance.args("-D", ROOT_DN, "-j",
                instance.file("root.pw").toString()));
        assertEquals(status.exitCode(), Tools.OK, status.said());
        assertTrue(status.out().matches("(?s).*Connections: \\d+ open.*"), status.said());
        assertTrue(status.out().matches("(?s).*Operations:  \\d+ completed since the start: binds \\d+.*"),
                status.said());
        assertTrue(status.out().contains("Entry counts: not published"), status.said());
    }

    @Test
    public void statusWithAWrongPasswordFails() {
        ToolRun status = ToolRun.run(new Status(), instance.args("-D", ROOT_DN, "-w", "wrong-password"));
        assertEquals(status.exitCode(), Tools.FAILED, status.said());
        assertTrue(status.err().contains("the bind as " + ROOT_DN + " failed"), status.said());
    }

    @Test
    public void statusFollowsThePortsTheServerWasStartedWith() throws Exception {
        try (Instance other = Instance.create()) {
            int[] ports = ServerChild.freePorts(4);
            ToolRun setup = ToolRun.run(new Setup(), other.args("-w", ROOT_PASSWORD, "--ldapPort",
                    Integer.toString(ports[0]), "--ldapsPort", Integer.toString(ports[1]), "--httpPort", "0"));
            assertEquals(setup.exitCode(), Tools.OK, setup.said());
            try (ServerChild moved = ServerChild.start(other.root(), "--port", Integer.toString(ports[2]),
                    "--ldaps-port", Integer.toString(ports[3]))) {
                ToolRun status = ToolRun.run(new Status(), other.args("-w", ROOT_PASSWORD));
                assertEquals(status.exitCode(), Tools.OK, status.said());
                assertTrue(status.out().contains("ldap://127.0.0.1:" + ports[2] + " (answers)"), status.said());
                assertTrue(status.out().contains("ldaps://127.0.0.1:" + ports[3] + " (answers)"), status.said());
                assertTrue(status.out().contains("HTTP        disabled"), status.said());
            }
        }
    }

    @Test
    public void setupRefusesTheInstanceItSetUp() throws Exception {
        String before = Files.readString(instance.file("config/config.ldif"));
        ToolRun again = ToolRun.run(new Setup(), instance.args("-w", "Another-pass-2"));
        assertEquals(again.exitCode(), Tools.FAILED, again.said());
        assertTrue(again.err().contains("set up already"), again.said());
        assertEquals(Files.readString(instance.file("config/config.ldif")), before);
    }
}
