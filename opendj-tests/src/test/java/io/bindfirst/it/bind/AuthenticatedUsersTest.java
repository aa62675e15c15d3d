package io.bindfirst.it.bind;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertFalse;
import static org.testng.Assert.assertTrue;
import static org.testng.Assert.expectThrows;

import java.time.Duration;
import java.util.Objects;

import org.forgerock.opendj.ldap.DN;
import org.testng.annotations.AfterClass;
import org.testng.annotations.BeforeClass;
import org.testng.annotations.Test;

import com.unboundid.ldap.sdk.Attribute;
import com.unboundid.ldap.sdk.DisconnectType;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.LDAPSearchException;
import com.unboundid.ldap.sdk.Modification;
import com.unboundid.ldap.sdk.ModificationType;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.SearchScope;
import com.unboundid.ldap.sdk.extensions.PasswordModifyExtendedRequest;
import com.unboundid.ldap.sdk.extensions.PasswordModifyExtendedResult;
import com.unboundid.ldap.sdk.extensions.WhoAmIExtendedRequest;
import com.unboundid.ldap.sdk.extensions.WhoAmIExtendedResult;

import io.bindfirst.it.support.TestServer;
import io.bindfirst.server.auth.AuthenticatedUsers;
import io.bindfirst.server.auth.BoundConnection;
import io.bindfirst.server.testsupport.Poll;

/**
 * The directory changes under live authenticated connections, and every connection's identity stays
 * true: a modify, delete or rename of an entry reaches every connection bound as it, end to end.
 */
public class AuthenticatedUsersTest {
    /** Post-response runs just after the response is sent: allow it this long, never more. */
    private static final Duration SETTLE = Duration.ofSeconds(1);
    private TestServer server;
    private LDAPConnection root;

    @BeforeClass
    public void start() throws Exception {
        server = TestServer.start(100);
        root = server.bindAs(TestServer.ROOT_DN, TestServer.ROOT_PASSWORD);
    }

    @AfterClass(alwaysRun = true)
    public void stop() {
        root.close();
        server.close();
    }

    private AuthenticatedUsers<BoundConnection> registry() {
        return server.server().context().authenticatedUsers();
    }

    public static String whoAmI(LDAPConnection c) throws LDAPException {
        return ((WhoAmIExtendedResult) c.processExtendedOperation(new WhoAmIExtendedRequest())).getAuthorizationID();
    }

    private static void addUser(LDAPConnection root, String dn, String uid, String password) throws LDAPException {
        root.add(dn, new Attribute("objectClass", "top", "person", "organizationalPerson", "inetOrgPerson"),
                new Attribute("uid", uid), new Attribute("cn", uid), new Attribute("sn", uid),
                new Attribute("userPassword", password));
    }

    private static void awaitDisconnect(LDAPConnection c) throws Exception {
        Poll.until("the server to close the connection", SETTLE, () -> !c.isConnected());
    }

    /** The demonstration: A bound as user.7; B renames it, then deletes it. */
    @Test
    public void renameThenDeleteUnderALiveConnection() throws Exception {
        String user7 = TestServer.user(7);
        String user7b = "uid=user.7b," + TestServer.PEOPLE;
        try (LDAPConnection a = server.bindAs(user7, "password")) {
            assertEquals(whoAmI(a), "dn:" + user7);
            root.modifyDN(user7, "uid=user.7b", true);
            // Right after the rename's answer: the registry's listener re-keyed it before the answer.
            assertEquals(whoAmI(a), "dn:" + user7b);
            assertEquals(registry().registrations(DN.valueOf(user7)), 0);
            assertEquals(registry().connectionsOf(DN.valueOf(user7b)).size(), 1);

            root.delete(user7b);
            awaitDisconnect(a);
            assertFalse(a.isConnected(), "still connected after the delete");
            assertEquals(a.getDisconnectType(), DisconnectType.SERVER_CLOSED_WITH_NOTICE);
            assertEquals(registry().registrations(DN.valueOf(user7b)), 0);
        }
    }

    @Test
    public void deletingAnAncestorDisconnectsEveryoneBelowIt() throws Exception {
        root.add("ou=Team,dc=example,dc=com", new Attribute("objectClass", "top", "organizationalUnit"),
                new Attribute("ou", "Team"));
        addUser(root, "uid=t1,ou=Team,dc=example,dc=com", "t1", "pw-t1-x");
        addUser(root, "uid=t2,ou=Team,dc=example,dc=com", "t2", "pw-t2-x");
        try (LDAPConnection t1 = server.bindAs("uid=t1,ou=Team,dc=example,dc=com", "pw-t1-x");
             LDAPConnection t2 = server.bindAs("uid=t2,ou=Team,dc=example,dc=com", "pw-t2-x");
             LDAPConnection bystander = server.bindAs(TestServer.user(8), "password")) {
            com.unboundid.ldap.sdk.DeleteRequest del =
                    new com.unboundid.ldap.sdk.DeleteRequest("ou=Team,dc=example,dc=com");
            del.addControl(new com.unboundid.ldap.sdk.controls.SubtreeDeleteRequestControl());
            root.delete(del);
            awaitDisconnect(t1);
            awaitDisconnect(t2);
            assertFalse(t1.isConnected());
            assertFalse(t2.isConnected());
            assertEquals(whoAmI(bystander), "dn:" + TestServer.user(8));
        }
    }

    @Test
    public void renamingAnAncestorReKeysEveryoneBelowIt() throws Exception {
        root.add("ou=Dept,dc=example,dc=com", new Attribute("objectClass", "top", "organizationalUnit"),
                new Attribute("ou", "Dept"));
        addUser(root, "uid=d1,ou=Dept,dc=example,dc=com", "d1", "pw-d1-x");
        try (LDAPConnection d1 = server.bindAs("uid=d1,ou=Dept,dc=example,dc=com", "pw-d1-x")) {
            root.modifyDN("ou=Dept,dc=example,dc=com", "ou=Division", true);
            String want = "dn:uid=d1,ou=Division,dc=example,dc=com";
            assertEquals(whoAmI(d1), want, "re-keyed before the rename's answer");
            // And the connection is now known under the new DN: deleting it disconnects.
            root.delete("uid=d1,ou=Division,dc=example,dc=com");
            awaitDisconnect(d1);
            assertFalse(d1.isConnected());
        }
    }

    @Test
    public void disablingTheAccountDisconnectsAndRefusesBinds() throws Exception {
        String dn = TestServer.user(9);
        try (LDAPConnection c = server.bindAs(dn, "password")) {
            root.modify(dn, new Modification(ModificationType.REPLACE, "ds-pwp-account-disabled", "TRUE"));
            awaitDisconnect(c);
            assertFalse(c.isConnected());
            assertEquals(c.getDisconnectType(), DisconnectType.SERVER_CLOSED_WITH_NOTICE);
        }
        LDAPException e = expectThrows(LDAPException.class, () -> server.bindAs(dn, "password"));
        assertEquals(e.getResultCode(), ResultCode.INVALID_CREDENTIALS);
        root.modify(dn, new Modification(ModificationType.DELETE, "ds-pwp-account-disabled"));
        server.bindAs(dn, "password").close();
    }

    /**
     * draft-behera's administrative lock: set, it closes the account's connections and its binds fail as a
     * wrong password does (a locked account does not reveal a right guess), also for a bind the bind cache
     * would have answered; deleted, the account binds again.
     */
    @Test
    public void lockingTheAccountDisconnectsAndRefusesBindsUntilUnlocked() throws Exception {
        String dn = TestServer.user(11);
        server.bindAs(dn, "password").close(); // its bind attributes are in the bind cache now
        try (LDAPConnection c = server.bindAs(dn, "password")) {
            root.modify(dn, new Modification(ModificationType.REPLACE, "pwdAccountLockedTime", "000001010000Z"));
            awaitDisconnect(c);
            assertEquals(c.getDisconnectType(), DisconnectType.SERVER_CLOSED_WITH_NOTICE);
            assertTrue(c.getDisconnectMessage().contains("has been locked"), c.getDisconnectMessage());
        }
        LDAPException e = expectThrows(LDAPException.class, () -> server.bindAs(dn, "password"));
        assertEquals(e.getResultCode(), ResultCode.INVALID_CREDENTIALS);
        LDAPException wrong = expectThrows(LDAPException.class, () -> server.bindAs(dn, "wrong"));
        assertEquals(wrong.getResultCode(), e.getResultCode());
        assertEquals(wrong.getDiagnosticMessage(), e.getDiagnosticMessage(), "the same answer as a wrong password");
        root.modify(dn, new Modification(ModificationType.DELETE, "pwdAccountLockedTime"));
        server.bindAs(dn, "password").close();
    }

    @Test
    public void aModifiedLimitReachesBoundConnectionsWithoutRebinding() throws Exception {
        String dn = TestServer.user(10);
        try (LDAPConnection c = server.bindAs(dn, "password")) {
            assertEquals(c.search(TestServer.PEOPLE, SearchScope.ONE, "(uid=user.1*)", "1.1").getEntryCount(), 11);
            root.modify(dn, new Modification(ModificationType.REPLACE, "ds-rlim-size-limit", "3"));
            LDAPSearchException limited = Poll.until("a search of the bound connection stopped by its new limit",
                    SETTLE, () -> {
                        try {
                            c.search(TestServer.PEOPLE, SearchScope.ONE, "(uid=user.1*)", "1.1");
                            return null;
                        } catch (LDAPSearchException e) {
                            return e;
                        }
                    }, Objects::nonNull);
            assertEquals(limited.getResultCode(), ResultCode.SIZE_LIMIT_EXCEEDED);
            assertEquals(limited.getEntryCount(), 3);
            assertEquals(whoAmI(c), "dn:" + dn);
        } finally {
            root.modify(dn, new Modification(ModificationType.DELETE, "ds-rlim-size-limit"));
        }
    }

    @Test
    public void passwordModifySelfWithOldRootResetAndGenerated() throws Exception {
        String dn = "uid=pm.1," + TestServer.PEOPLE;
        addUser(root, dn, "pm.1", "pm-old-1");
        try (LDAPConnection self = server.bindAs(dn, "pm-old-1")) {
            PasswordModifyExtendedResult wrong = (PasswordModifyExtendedResult) self.processExtendedOperation(
                    new PasswordModifyExtendedRequest(null, "not-the-old", "pm-new-2"));
            assertEquals(wrong.getResultCode(), ResultCode.INVALID_CREDENTIALS);
            PasswordModifyExtendedResult ok = (PasswordModifyExtendedResult) self.processExtendedOperation(
                    new PasswordModifyExtendedRequest(null, "pm-old-1", "pm-new-2"));
            assertEquals(ok.getResultCode(), ResultCode.SUCCESS);
            // Someone else's password: refused for a user.
            PasswordModifyExtendedResult other = (PasswordModifyExtendedResult) self.processExtendedOperation(
                    new PasswordModifyExtendedRequest(TestServer.user(11), null, "hijack-1"));
            assertEquals(other.getResultCode(), ResultCode.INSUFFICIENT_ACCESS_RIGHTS);
        }
        server.bindAs(dn, "pm-new-2").close();
        assertTrue(root.getEntry(dn, "userPassword").getAttributeValue("userPassword").startsWith("{SSHA512}"));
        // Root resets without the old password; with none given, one is generated and returned.
        PasswordModifyExtendedResult gen = (PasswordModifyExtendedResult) root.processExtendedOperation(
                new PasswordModifyExtendedRequest("dn:" + dn, (String) null, (String) null));
        assertEquals(gen.getResultCode(), ResultCode.SUCCESS);
        String generated = gen.getGeneratedPassword();
        assertTrue(generated != null && generated.length() >= 12, "generated: " + generated);
        server.bindAs(dn, generated).close();
        // Anonymous, naming nobody: nothing to change.
        try (LDAPConnection anon = server.connect()) {
            PasswordModifyExtendedResult r = (PasswordModifyExtendedResult) anon.processExtendedOperation(
                    new PasswordModifyExtendedRequest(null, null, "x-1234567"));
            assertEquals(r.getResultCode(), ResultCode.UNWILLING_TO_PERFORM);
        }
    }

    @Test
    public void registryIsEmptyOnceEveryConnectionHasClosed() throws Exception {
        LDAPConnection[] cs = new LDAPConnection[20];
        for (int i = 0; i < cs.length; i++) {
            cs[i] = server.bindAs(TestServer.user(20 + i % 5), "password");
        }
        for (LDAPConnection c : cs) {
            c.close();
        }
        // Only the class's root connection stays registered.
        Poll.until("only the root connection registered", Duration.ofSeconds(5), () -> registry().size(), n -> n == 1);
        assertEquals(registry().connectionsOf(DN.valueOf("cn=Directory Manager,cn=Root DNs,cn=config")).size(), 1);
    }
}
