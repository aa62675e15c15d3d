package io.bindfirst.it;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertTrue;
import static org.testng.Assert.expectThrows;

import org.testng.annotations.AfterClass;
import org.testng.annotations.BeforeClass;
import org.testng.annotations.Test;

import com.unboundid.ldap.sdk.Attribute;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.ResultCode;

import io.bindfirst.server.testsupport.HashTools;

/**
 * A migration from OpenLDAP: the root user adds entries whose {@code userPassword} was hashed by
 * OpenLDAP's slappasswd ({@code {CRYPT}} SHA-512-crypt and {@code {SMD5}}) or by htpasswd (bcrypt, as OpenDJ's
 * {@code {BCRYPT}}), and their users bind with the password. Skipped without the tools, unless
 * {@code ldap.tools.required} is true.
 */
public class MigratedPasswordsTest {
    private static final String PASSWORD = "m1grated fr\u00f6m OpenLDAP";

    private TestServer server;
    private LDAPConnection root;

    @BeforeClass
    public void start() throws Exception {
        server = TestServer.start(1);
        root = server.bindAs(TestServer.ROOT_DN, TestServer.ROOT_PASSWORD);
    }

    @AfterClass(alwaysRun = true)
    public void stop() {
        if (root != null) {
            root.close();
        }
        server.close();
    }

    private void addUser(String uid, String storedPassword) throws LDAPException {
        root.add("uid=" + uid + "," + TestServer.PEOPLE,
                new Attribute("objectClass", "top", "person", "organizationalPerson", "inetOrgPerson"),
                new Attribute("uid", uid), new Attribute("cn", "Migrated " + uid), new Attribute("sn", uid),
                new Attribute("userPassword", storedPassword));
    }

    @Test
    public void sha512CryptFromSlappasswd() throws Exception {
        String slappasswd = HashTools.require("slappasswd", "slapd");
        String stored = HashTools.run(slappasswd, "-h", "{CRYPT}", "-c", "$6$rounds=5000$%.16s", "-s", PASSWORD);
        assertTrue(stored.startsWith("{CRYPT}$6$rounds=5000$"), stored);
        checkBinds("crypt6", stored);
    }

    @Test
    public void smd5FromSlappasswd() throws Exception {
        String slappasswd = HashTools.require("slappasswd", "slapd");
        String stored = HashTools.run(slappasswd, "-h", "{SMD5}", "-s", PASSWORD);
        assertTrue(stored.startsWith("{SMD5}"), stored);
        checkBinds("smd5", stored);
    }

    /** bcrypt at cost 10 is above the slow lane's default threshold: the check runs there. */
    @Test
    public void bcryptFromHtpasswdOnTheSlowLane() throws Exception {
        String htpasswd = HashTools.require("htpasswd", "apache2-utils");
        String line = HashTools.run(htpasswd, "-nbB", "-C", "10", "user", PASSWORD);
        String stored = "{BCRYPT}" + line.substring(line.indexOf(':') + 1);
        assertTrue(stored.startsWith("{BCRYPT}$2y$10$"), stored);
        checkBinds("bcrypt", stored);
    }

    private void checkBinds(String uid, String stored) throws Exception {
        addUser(uid, stored);
        // Stored as it came: the root user's pre-hashed value is not hashed again.
        assertEquals(root.getEntry("uid=" + uid + "," + TestServer.PEOPLE, "userPassword")
                .getAttributeValue("userPassword"), stored);
        String dn = "uid=" + uid + "," + TestServer.PEOPLE;
        try (LDAPConnection c = server.bindAs(dn, PASSWORD)) {
            assertTrue(c.isConnected());
        }
        LDAPException wrong = expectThrows(LDAPException.class, () -> server.bindAs(dn, PASSWORD + "!").close());
        assertEquals(wrong.getResultCode(), ResultCode.INVALID_CREDENTIALS);
        assertEquals(wrong.getResultCode().intValue(), 49);
    }
}
