package io.bindfirst.it.write;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertFalse;
import static org.testng.Assert.assertNotNull;
import static org.testng.Assert.assertNull;
import static org.testng.Assert.assertTrue;

import org.testng.annotations.AfterClass;
import org.testng.annotations.BeforeClass;
import org.testng.annotations.Test;

import com.unboundid.ldap.sdk.Attribute;
import com.unboundid.ldap.sdk.DeleteRequest;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.Modification;
import com.unboundid.ldap.sdk.ModificationType;
import com.unboundid.ldap.sdk.ModifyDNRequest;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.SearchScope;
import com.unboundid.ldap.sdk.controls.SubtreeDeleteRequestControl;

import io.bindfirst.it.support.TestServer;

/** Add, modify, delete and modify DN on the real server, with the access rules and schema checks. */
public class WriteOperationsTest {
    private TestServer server;
    private LDAPConnection root;

    @BeforeClass
    public void start() throws Exception {
        server = TestServer.start(50);
        root = server.bindAs(TestServer.ROOT_DN, TestServer.ROOT_PASSWORD);
    }

    @AfterClass(alwaysRun = true)
    public void stop() {
        root.close();
        server.close();
    }

    private static String dn(String uid) {
        return "uid=" + uid + "," + TestServer.PEOPLE;
    }

    private void addUser(String uid, String password) throws LDAPException {
        root.add(dn(uid),
                new Attribute("objectClass", "top", "person", "organizationalPerson", "inetOrgPerson"),
                new Attribute("uid", uid), new Attribute("cn", "Test " + uid), new Attribute("sn", uid),
                new Attribute("userPassword", password));
    }

    private static ResultCode code(ThrowingRunnable r) {
        try {
            r.run();
            return ResultCode.SUCCESS;
        } catch (LDAPException e) {
            return e.getResultCode();
        }
    }

    private interface ThrowingRunnable {
        void run() throws LDAPException;
    }

    @Test
    public void addHashesTheClearPasswordAndTheUserCanBind() throws Exception {
        addUser("add.1", "s3cret-1");
        String stored = root.getEntry(dn("add.1"), "userPassword").getAttributeValue("userPassword");
        assertTrue(stored.startsWith("{SSHA512}"), stored);
        try (LDAPConnection c = server.bindAs(dn("add.1"), "s3cret-1")) {
            assertTrue(c.isConnected());
        }
        var e = root.getEntry(dn("add.1"), "+");
        assertNotNull(e.getAttributeValue("entryUUID"));
        assertNotNull(e.getAttributeValue("createTimestamp"));
        assertEquals(e.getAttributeValue("creatorsName"), "cn=Directory Manager,cn=Root DNs,cn=config");
    }

    @Test
    public void addErrors() throws Exception {
        addUser("add.dup", "pw-dup-1");
        assertEquals(code(() -> addUser("add.dup", "pw")), ResultCode.ENTRY_ALREADY_EXISTS);
        assertEquals(code(() -> root.add("uid=x,ou=Nowhere,dc=example,dc=com",
                new Attribute("objectClass", "top", "account"), new Attribute("uid", "x"))), ResultCode.NO_SUCH_OBJECT);
        // inetOrgPerson without sn: the schema refuses it.
        assertEquals(code(() -> root.add(dn("add.nosn"),
                new Attribute("objectClass", "top", "person", "organizationalPerson", "inetOrgPerson"),
                new Attribute("uid", "add.nosn"), new Attribute("cn", "x"))), ResultCode.OBJECT_CLASS_VIOLATION);
        assertEquals(code(() -> root.add(dn("add.badoc"), new Attribute("objectClass", "top", "noSuchClass"),
                new Attribute("uid", "add.badoc"))), ResultCode.OBJECT_CLASS_VIOLATION);
        assertEquals(code(() -> root.add(dn("add.undef"), new Attribute("objectClass", "top", "account"),
                new Attribute("uid", "add.undef"), new Attribute("noSuchAttribute", "x"))),
                ResultCode.UNDEFINED_ATTRIBUTE_TYPE);
        assertEquals(code(() -> root.add("o=elsewhere", new Attribute("objectClass", "top", "organization"),
                new Attribute("o", "elsewhere"))), ResultCode.NO_SUCH_OBJECT);
    }

    @Test
    public void onlyRootWrites() throws Exception {
        addUser("acl.1", "pw-acl-1");
        try (LDAPConnection anon = server.connect(); LDAPConnection user = server.bindAs(dn("acl.1"), "pw-acl-1")) {
            for (LDAPConnection c : new LDAPConnection[] {anon, user}) {
                assertEquals(code(() -> c.add(dn("acl.new"), new Attribute("objectClass", "top", "account"),
                        new Attribute("uid", "acl.new"))), ResultCode.INSUFFICIENT_ACCESS_RIGHTS);
                assertEquals(code(() -> c.delete(TestServer.user(1))), ResultCode.INSUFFICIENT_ACCESS_RIGHTS);
                assertEquals(code(() -> c.modify(TestServer.user(1), new Modification(ModificationType.REPLACE,
                        "sn", "x"))), ResultCode.INSUFFICIENT_ACCESS_RIGHTS);
                assertEquals(code(() -> c.modifyDN(TestServer.user(1), "uid=user.1x", true)),
                        ResultCode.INSUFFICIENT_ACCESS_RIGHTS);
            }
            // A user may not change other attributes of their own entry, only the password.
            assertEquals(code(() -> user.modify(dn("acl.1"), new Modification(ModificationType.REPLACE, "sn", "x"))),
                    ResultCode.INSUFFICIENT_ACCESS_RIGHTS);
            user.modify(dn("acl.1"), new Modification(ModificationType.REPLACE, "userPassword", "pw-acl-2"));
            // Nor store a pre-encoded hash.
            assertEquals(code(() -> user.modify(dn("acl.1"), new Modification(ModificationType.REPLACE,
                    "userPassword", "{SSHA}AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"))), ResultCode.CONSTRAINT_VIOLATION);
        }
        try (LDAPConnection user = server.bindAs(dn("acl.1"), "pw-acl-2")) {
            assertTrue(user.isConnected());
        }
        assertEquals(code(() -> server.bindAs(dn("acl.1"), "pw-acl-1").close()), ResultCode.INVALID_CREDENTIALS);
    }

    @Test
    public void rootMayStorePreHashedPasswords() throws Exception {
        // A migration: user.3's stored {SSHA} hash of "password" copied as it is.
        addUser("hash.1", "placeholder");
        String hashed = root.getEntry(TestServer.user(3), "userPassword").getAttributeValue("userPassword");
        root.modify(dn("hash.1"), new Modification(ModificationType.REPLACE, "userPassword", hashed));
        assertEquals(root.getEntry(dn("hash.1"), "userPassword").getAttributeValue("userPassword"), hashed);
        try (LDAPConnection c = server.bindAs(dn("hash.1"), "password")) {
            assertTrue(c.isConnected());
        }
    }

    @Test
    public void modifyKinds() throws Exception {
        addUser("mod.1", "pw-mod-1");
        root.modify(dn("mod.1"),
                new Modification(ModificationType.ADD, "mail", "Mod.One@Example.com"),
                new Modification(ModificationType.REPLACE, "sn", "Renamed"),
                new Modification(ModificationType.ADD, "description", "a", "b"));
        var e = root.getEntry(dn("mod.1"));
        assertEquals(e.getAttributeValue("sn"), "Renamed");
        assertEquals(e.getAttributeValues("description").length, 2);
        assertNotNull(root.getEntry(dn("mod.1"), "modifyTimestamp").getAttributeValue("modifyTimestamp"));
        assertEquals(root.getEntry(dn("mod.1"), "modifiersName").getAttributeValue("modifiersName"),
                "cn=Directory Manager,cn=Root DNs,cn=config");
        // The index follows: the new mail value is found, case-insensitively.
        assertEquals(root.search(TestServer.PEOPLE, SearchScope.ONE, "(mail=mod.one@example.COM)").getEntryCount(), 1);
        root.modify(dn("mod.1"), new Modification(ModificationType.DELETE, "mail", "MOD.ONE@EXAMPLE.COM"));
        assertNull(root.getEntry(dn("mod.1")).getAttribute("mail"));
        assertEquals(root.search(TestServer.PEOPLE, SearchScope.ONE, "(mail=mod.one@example.com)").getEntryCount(), 0);
        // Errors, and all-or-nothing: the first change of a failing request is not applied.
        assertEquals(code(() -> root.modify(dn("mod.1"), new Modification(ModificationType.ADD, "description", "A"))),
                ResultCode.ATTRIBUTE_OR_VALUE_EXISTS);
        assertEquals(code(() -> root.modify(dn("mod.1"),
                new Modification(ModificationType.REPLACE, "sn", "Changed"),
                new Modification(ModificationType.DELETE, "telephoneNumber"))), ResultCode.NO_SUCH_ATTRIBUTE);
        assertEquals(root.getEntry(dn("mod.1")).getAttributeValue("sn"), "Renamed");
        assertEquals(code(() -> root.modify(dn("mod.1"), new Modification(ModificationType.DELETE, "uid"))),
                ResultCode.NOT_ALLOWED_ON_RDN);
        assertEquals(code(() -> root.modify(dn("mod.1"), new Modification(ModificationType.DELETE, "sn"))),
                ResultCode.OBJECT_CLASS_VIOLATION);
        assertEquals(code(() -> root.modify(dn("nobody"), new Modification(ModificationType.REPLACE, "sn", "x"))),
                ResultCode.NO_SUCH_OBJECT);
        assertEquals(code(() -> root.modify("cn=config", new Modification(ModificationType.REPLACE,
                "ds-cfg-size-limit", "5"))), ResultCode.UNWILLING_TO_PERFORM);
    }

    @Test
    public void incrementAndPasswordDeleteByClearValue() throws Exception {
        addUser("inc.1", "pw-inc-1");
        root.modify(dn("inc.1"), new Modification(ModificationType.ADD, "employeeNumber", "41"));
        // employeeNumber is a Directory String: increment needs an integer attribute.
        root.modify(dn("inc.1"),
                new Modification(ModificationType.ADD, "objectClass", "posixAccount"),
                new Modification(ModificationType.ADD, "uidNumber", "41"),
                new Modification(ModificationType.ADD, "gidNumber", "100"),
                new Modification(ModificationType.ADD, "homeDirectory", "/home/inc.1"));
        root.modify(dn("inc.1"), new Modification(ModificationType.INCREMENT, "uidNumber", "1"));
        assertEquals(root.getEntry(dn("inc.1")).getAttributeValue("uidNumber"), "42");
        // Deleting a password by its clear value removes the stored hash.
        root.modify(dn("inc.1"), new Modification(ModificationType.DELETE, "userPassword", "pw-inc-1"));
        assertNull(root.getEntry(dn("inc.1"), "userPassword").getAttribute("userPassword"));
    }

    @Test
    public void deleteLeafNonLeafAndSubtree() throws Exception {
        root.add("ou=Branch,dc=example,dc=com", new Attribute("objectClass", "top", "organizationalUnit"),
                new Attribute("ou", "Branch"));
        for (int i = 0; i < 5; i++) {
            root.add("uid=b" + i + ",ou=Branch,dc=example,dc=com",
                    new Attribute("objectClass", "top", "account"), new Attribute("uid", "b" + i));
        }
        assertEquals(code(() -> root.delete("ou=Branch,dc=example,dc=com")), ResultCode.NOT_ALLOWED_ON_NONLEAF);
        root.delete("uid=b0,ou=Branch,dc=example,dc=com");
        assertNull(root.getEntry("uid=b0,ou=Branch,dc=example,dc=com"));
        DeleteRequest subtree = new DeleteRequest("ou=Branch,dc=example,dc=com");
        subtree.addControl(new SubtreeDeleteRequestControl(true));
        root.delete(subtree);
        assertNull(root.getEntry("ou=Branch,dc=example,dc=com"));
        assertNull(root.getEntry("uid=b3,ou=Branch,dc=example,dc=com"));
        assertEquals(code(() -> root.delete("ou=Branch,dc=example,dc=com")), ResultCode.NO_SUCH_OBJECT);
    }

    @Test
    public void renameAndMove() throws Exception {
        addUser("mv.1", "pw-mv-1");
        root.modifyDN(dn("mv.1"), "uid=mv.2", true);
        var renamed = root.getEntry(dn("mv.2"));
        assertNotNull(renamed);
        assertEquals(renamed.getAttributeValues("uid").length, 1);
        assertEquals(renamed.getAttributeValue("uid"), "mv.2");
        assertNull(root.getEntry(dn("mv.1")));
        // deleteOldRDN false keeps the old value.
        root.modifyDN(dn("mv.2"), "uid=mv.3", false);
        assertEquals(root.getEntry(dn("mv.3")).getAttributeValues("uid").length, 2);
        // Move a subtree under a new superior.
        root.add("ou=Old,dc=example,dc=com", new Attribute("objectClass", "top", "organizationalUnit"),
                new Attribute("ou", "Old"));
        root.add("ou=New,dc=example,dc=com", new Attribute("objectClass", "top", "organizationalUnit"),
                new Attribute("ou", "New"));
        root.add("uid=k,ou=Old,dc=example,dc=com", new Attribute("objectClass", "top", "account"),
                new Attribute("uid", "k"));
        root.modifyDN(new ModifyDNRequest("ou=Old,dc=example,dc=com", "ou=Moved", true, "ou=New,dc=example,dc=com"));
        assertNotNull(root.getEntry("uid=k,ou=Moved,ou=New,dc=example,dc=com"));
        assertNull(root.getEntry("uid=k,ou=Old,dc=example,dc=com"));
        assertEquals(root.search("uid=k,ou=Moved,ou=New,dc=example,dc=com", SearchScope.BASE, "(uid=k)", "entryDN")
                .getSearchEntries().get(0).getAttributeValue("entryDN"), "uid=k,ou=Moved,ou=New,dc=example,dc=com");
        // Errors.
        assertEquals(code(() -> root.modifyDN(dn("mv.3"), "uid=user.1", true)), ResultCode.ENTRY_ALREADY_EXISTS);
        assertEquals(code(() -> root.modifyDN(new ModifyDNRequest(dn("mv.3"), "uid=z", true,
                "ou=Missing,dc=example,dc=com"))), ResultCode.NO_SUCH_OBJECT);
        assertEquals(code(() -> root.modifyDN("dc=example,dc=com", "dc=other", true)), ResultCode.UNWILLING_TO_PERFORM);
        assertFalse(root.getEntry(dn("mv.3")) == null);
    }

    @Test
    public void writesSurviveRestart() throws Exception {
        try (TestServer s = TestServer.start(5);
             LDAPConnection r = s.bindAs(TestServer.ROOT_DN, TestServer.ROOT_PASSWORD)) {
            r.add("uid=persist,ou=People,dc=example,dc=com", new Attribute("objectClass", "top", "account"),
                    new Attribute("uid", "persist"));
            r.modify(TestServer.user(1), new Modification(ModificationType.REPLACE, "sn", "Changed"));
            r.modifyDN(TestServer.user(2), "uid=user.2b", true);
            r.delete(TestServer.user(3));
            r.close();
            s.restart();
            try (LDAPConnection again = s.bindAs(TestServer.ROOT_DN, TestServer.ROOT_PASSWORD)) {
                assertNotNull(again.getEntry("uid=persist,ou=People,dc=example,dc=com"));
                assertEquals(again.getEntry(TestServer.user(1)).getAttributeValue("sn"), "Changed");
                assertNotNull(again.getEntry("uid=user.2b,ou=People,dc=example,dc=com"));
                assertNull(again.getEntry(TestServer.user(2)));
                assertNull(again.getEntry(TestServer.user(3)));
            }
        }
    }
}
