package io.bindfirst.it.tools;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertFalse;
import static org.testng.Assert.assertNotNull;
import static org.testng.Assert.assertNull;
import static org.testng.Assert.assertTrue;

import org.testng.annotations.AfterClass;
import org.testng.annotations.BeforeClass;
import org.testng.annotations.Test;

import com.unboundid.ldap.sdk.LDAPConnection;

import io.bindfirst.it.support.LdapTools;
import io.bindfirst.it.support.TestServer;

/** The write side of OpenLDAP's tools, unchanged: ldapmodify, ldapmodrdn, ldapdelete, ldappasswd, ldapcompare. */
public class LdapToolsWriteTest {
    private TestServer server;
    private String url;

    @BeforeClass
    public void start() throws Exception {
        LdapTools.require("ldapmodify", "ldapmodrdn", "ldapdelete", "ldappasswd", "ldapcompare", "ldapwhoami");
        server = TestServer.start(20);
        url = "ldap://127.0.0.1:" + server.port();
    }

    @AfterClass(alwaysRun = true)
    public void stop() {
        if (server != null) {
            server.close();
        }
    }

    private LdapTools.Run asRoot(String stdin, String tool, String... args) throws Exception {
        String[] cmd = new String[args.length + 8];
        cmd[0] = tool;
        cmd[1] = "-x";
        cmd[2] = "-H";
        cmd[3] = url;
        cmd[4] = "-D";
        cmd[5] = TestServer.ROOT_DN;
        cmd[6] = "-w";
        cmd[7] = TestServer.ROOT_PASSWORD;
        System.arraycopy(args, 0, cmd, 8, args.length);
        return LdapTools.runWithInput(stdin, cmd);
    }

    @Test
    public void addModifyRenamePasswdCompareDelete() throws Exception {
        String dn = "uid=tool.1,ou=People,dc=example,dc=com";
        LdapTools.Run add = asRoot("dn: " + dn + "\nobjectClass: top\nobjectClass: person\n"
                + "objectClass: organizationalPerson\nobjectClass: inetOrgPerson\nuid: tool.1\ncn: Tool One\n"
                + "sn: One\nuserPassword: tool-pw-1\n", "ldapmodify", "-a");
        assertEquals(add.exit(), 0, add.output());

        LdapTools.Run modify = asRoot("dn: " + dn + "\nchangetype: modify\nreplace: sn\nsn: Uno\n-\n"
                + "add: mail\nmail: tool.1@example.com\n", "ldapmodify");
        assertEquals(modify.exit(), 0, modify.output());

        LdapTools.Run compare = asRoot(null, "ldapcompare", dn, "sn:Uno");
        assertEquals(compare.exit(), 6, compare.output()); // compareTrue
        assertTrue(compare.output().contains("TRUE"), compare.output());
        LdapTools.Run compareFalse = asRoot(null, "ldapcompare", dn, "sn:Dos");
        assertEquals(compareFalse.exit(), 5, compareFalse.output()); // compareFalse

        LdapTools.Run whoami = LdapTools.run("ldapwhoami", "-x", "-H", url, "-D", dn, "-w", "tool-pw-1");
        assertEquals(whoami.output().trim(), "dn:" + dn);

        // The user changes their own password with ldappasswd, giving the old one.
        LdapTools.Run passwd = LdapTools.run("ldappasswd", "-x", "-H", url, "-D", dn, "-w", "tool-pw-1",
                "-a", "tool-pw-1", "-s", "tool-pw-2");
        assertEquals(passwd.exit(), 0, passwd.output());
        assertEquals(LdapTools.run("ldapwhoami", "-x", "-H", url, "-D", dn, "-w", "tool-pw-1").exit(), 49);
        assertEquals(LdapTools.run("ldapwhoami", "-x", "-H", url, "-D", dn, "-w", "tool-pw-2").exit(), 0);
        // Root resets it and gets a generated one.
        LdapTools.Run reset = asRoot(null, "ldappasswd", dn);
        assertEquals(reset.exit(), 0, reset.output());
        assertTrue(reset.output().contains("New password: "), reset.output());
        String generated = reset.output().substring(reset.output().indexOf("New password: ") + 14).trim();
        assertEquals(LdapTools.run("ldapwhoami", "-x", "-H", url, "-D", dn, "-w", generated).exit(), 0);

        LdapTools.Run modrdn = asRoot(null, "ldapmodrdn", "-r", dn, "uid=tool.2");
        assertEquals(modrdn.exit(), 0, modrdn.output());
        String renamed = "uid=tool.2,ou=People,dc=example,dc=com";

        try (LDAPConnection root = server.bindAs(TestServer.ROOT_DN, TestServer.ROOT_PASSWORD)) {
            assertNull(root.getEntry(dn));
            assertNotNull(root.getEntry(renamed));
            assertEquals(root.getEntry(renamed).getAttributeValue("sn"), "Uno");
        }
        LdapTools.Run delete = asRoot(null, "ldapdelete", renamed);
        assertEquals(delete.exit(), 0, delete.output());
        LdapTools.Run again = asRoot(null, "ldapdelete", renamed);
        assertEquals(again.exit(), 32, again.output()); // noSuchObject
    }

    @Test
    public void anonymousWritesAreRefusedWithInsufficientAccess() throws Exception {
        LdapTools.Run r = LdapTools.run("ldapdelete", "-x", "-H", url, TestServer.user(3));
        assertEquals(r.exit(), 50, r.output());
        assertTrue(r.output().contains("Insufficient access (50)"), r.output());
        assertFalse(r.output().contains("Exception"), r.output());
    }
}
