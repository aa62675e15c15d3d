package io.bindfirst.it.password;

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

import io.bindfirst.it.bind.AuthenticatedUsersTest;
import io.bindfirst.it.support.TestServer;
import io.bindfirst.server.testsupport.HashTools;

/**
 * A migration: the root user adds entries whose {@code userPassword} was hashed by another server's tools
 * (OpenLDAP's slappasswd: {@code {CRYPT}} SHA-512-crypt and {@code {SMD5}}; htpasswd: bcrypt, as OpenDJ's
 * {@code {BCRYPT}}; OpenLDAP's pw-pbkdf2 format; the argon2 reference tool), the value is stored as given, and
 * its user binds with the password while a wrong one gets invalidCredentials. The tool-made cases are skipped
 * without the tools, unless {@code ldap.tools.required} is true.
 */
public class MigratedPasswordsTest {
    private static final String PASSWORD = "m1grated fr\u00f6m OpenLDAP";
    /** OpenLDAP's pw-pbkdf2 format, password "password": published in 389 Directory Server's pwdchan tests. */
    private static final String PBKDF2_SHA256 =
            "{PBKDF2-SHA256}10000$henZGfPWw79Cs8ORDeVNrQ$1dTJy73v6n3bnTmTZFghxHXHLsAzKaAy8SksDfZBPIw";
    /** Made with the reference tool: {@code echo -n secret | argon2 somesalt -id -t 2 -m 12 -p 1 -e}. */
    private static final String ARGON2 =
            "{ARGON2}$argon2id$v=19$m=4096,t=2,p=1$c29tZXNhbHQ$TLXwQYTTzWKDFfWHDyPKbh8ksZXGxatok7fsfJt7L+o";

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
        checkBinds("crypt6", stored, PASSWORD);
    }

    @Test
    public void smd5FromSlappasswd() throws Exception {
        String slappasswd = HashTools.require("slappasswd", "slapd");
        String stored = HashTools.run(slappasswd, "-h", "{SMD5}", "-s", PASSWORD);
        assertTrue(stored.startsWith("{SMD5}"), stored);
        checkBinds("smd5", stored, PASSWORD);
    }

    /** bcrypt at cost 10 is above the slow lane's default threshold: the check runs there. */
    @Test
    public void bcryptFromHtpasswdOnTheSlowLane() throws Exception {
        String htpasswd = HashTools.require("htpasswd", "apache2-utils");
        String line = HashTools.run(htpasswd, "-nbB", "-C", "10", "user", PASSWORD);
        String stored = "{BCRYPT}" + line.substring(line.indexOf(':') + 1);
        assertTrue(stored.startsWith("{BCRYPT}$2y$10$"), stored);
        checkBinds("bcrypt", stored, PASSWORD);
    }

    @Test
    public void openLdapPbkdf2Sha256() throws Exception {
        checkBinds("pbkdf2", PBKDF2_SHA256, "password");
    }

    @Test
    public void argon2idFromTheReferenceTool() throws Exception {
        checkBinds("argon2", ARGON2, "secret");
    }

    private void checkBinds(String uid, String stored, String password) throws Exception {
        addUser(uid, stored);
        // Stored as it came: the root user's pre-hashed value is not hashed again.
        assertEquals(root.getEntry("uid=" + uid + "," + TestServer.PEOPLE, "userPassword")
                .getAttributeValue("userPassword"), stored);
        String dn = "uid=" + uid + "," + TestServer.PEOPLE;
        try (LDAPConnection c = server.bindAs(dn, password)) {
            assertEquals(AuthenticatedUsersTest.whoAmI(c), "dn:" + dn);
        }
        LDAPException wrong = expectThrows(LDAPException.class, () -> server.bindAs(dn, password + "!").close());
        assertEquals(wrong.getResultCode(), ResultCode.INVALID_CREDENTIALS);
        assertEquals(wrong.getResultCode().intValue(), 49);
    }
}
