package io.bindfirst.it;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.expectThrows;

import org.testng.annotations.AfterClass;
import org.testng.annotations.BeforeClass;
import org.testng.annotations.Test;

import com.unboundid.ldap.sdk.Attribute;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.ResultCode;

/**
 * Entries a migration brings with hashes written by other servers: a root user adds them with their
 * {@code userPassword} already hashed, and binds check the presented password against those hashes.
 */
public class MigratedPasswordHashesTest {
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
        addUser("migrated.pbkdf2", PBKDF2_SHA256);
        addUser("migrated.argon2", ARGON2);
    }

    @AfterClass(alwaysRun = true)
    public void stop() {
        if (root != null) {
            root.close();
        }
        if (server != null) {
            server.close();
        }
    }

    private void addUser(String uid, String hashedPassword) throws LDAPException {
        root.add(dn(uid), new Attribute("objectClass", "top", "person", "organizationalPerson", "inetOrgPerson"),
                new Attribute("uid", uid), new Attribute("cn", uid), new Attribute("sn", uid),
                new Attribute("userPassword", hashedPassword));
    }

    private static String dn(String uid) {
        return "uid=" + uid + "," + TestServer.PEOPLE;
    }

    private void assertBinds(String uid, String password) throws LDAPException {
        try (LDAPConnection c = server.bindAs(dn(uid), password)) {
            assertEquals(AuthenticatedUsersTest.whoAmI(c), "dn:" + dn(uid));
        }
    }

    private void assertRefused(String uid, String password) throws LDAPException {
        LDAPException e;
        try (LDAPConnection c = server.connect()) {
            e = expectThrows(LDAPException.class, () -> c.bind(dn(uid), password));
        }
        assertEquals(e.getResultCode(), ResultCode.INVALID_CREDENTIALS);
        assertEquals(e.getResultCode().intValue(), 49);
    }

    @Test
    public void anOpenLdapPbkdf2HashChecksTheRightPasswordOnly() throws Exception {
        assertBinds("migrated.pbkdf2", "password");
        assertRefused("migrated.pbkdf2", "Password");
    }

    @Test
    public void anArgon2HashChecksTheRightPasswordOnly() throws Exception {
        assertBinds("migrated.argon2", "secret");
        assertRefused("migrated.argon2", "secret!");
    }

    @Test
    public void theHashIsStoredAsGivenNotHashedAgain() throws Exception {
        assertEquals(root.getEntry(dn("migrated.argon2"), "userPassword").getAttributeValue("userPassword"), ARGON2);
    }
}
