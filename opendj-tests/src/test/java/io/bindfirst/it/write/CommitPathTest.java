package io.bindfirst.it.write;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertFalse;
import static org.testng.Assert.assertNull;
import static org.testng.Assert.assertTrue;
import static org.testng.Assert.expectThrows;

import java.time.Duration;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

import org.forgerock.opendj.ldap.ByteString;
import org.forgerock.opendj.ldap.DN;
import org.testng.annotations.AfterClass;
import org.testng.annotations.BeforeClass;
import org.testng.annotations.BeforeMethod;
import org.testng.annotations.Test;

import com.unboundid.ldap.sdk.Attribute;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.Modification;
import com.unboundid.ldap.sdk.ModificationType;
import com.unboundid.ldap.sdk.ResultCode;

import io.bindfirst.it.bind.AuthenticatedUsersTest;
import io.bindfirst.it.support.TestServer;
import io.bindfirst.server.core.ServerContext;
import io.bindfirst.server.commit.AfterAnswer;
import io.bindfirst.server.commit.Change;
import io.bindfirst.server.commit.ChangeListener;
import io.bindfirst.server.pwd.PasswordPolicies;
import io.bindfirst.server.pwd.PasswordPolicy;
import io.bindfirst.server.pwd.Pbkdf2HmacSha256Scheme;
import io.bindfirst.server.testsupport.Poll;

/**
 * Every kind of committed change takes the one commit path, and each listener the server registers has made its
 * state true before the client that made the change reads its answer: a client's add, modify, rename and delete,
 * the lock a failed bind writes, a grace login, referential integrity's update of a group, and a bind's deferred
 * bookkeeping (which the listeners that guard binds pass over). A recorder registered after the server's own
 * listeners shows what the path was handed; the state of the access rules, the group index, the write epoch, the
 * failure counts, the verified credentials and the registry shows that each of them saw it. Nothing here waits
 * for a listener: what runs before the answer is checked right after it.
 */
public class CommitPathTest {
    private static final DN GRACE = PasswordPolicies.PARENT.child("cn", "Grace");
    private static final String PEOPLE = TestServer.PEOPLE;
    private static final String GROUPS = "ou=Groups,dc=example,dc=com";
    private static final int ITERATIONS = 1_000;

    /** The changes the path handed on, in order; the last listener, so it sees what every other one saw. */
    private static final class Recorder implements ChangeListener {
        private final List<Change> changes = new ArrayList<>();

        @Override
        public synchronized void committed(Change change, AfterAnswer afterAnswer) {
            changes.add(change);
        }

        /** The changes since the last call but bookkeeping, which a bind queues and which may come at any time. */
        synchronized List<Change> taken() {
            return takenAll().stream().filter(c -> !c.bookkeeping()).toList();
        }

        synchronized List<Change> takenAll() {
            List<Change> out = List.copyOf(changes);
            changes.clear();
            return out;
        }
    }

    private final Recorder recorder = new Recorder();
    private TestServer server;
    private LDAPConnection root;

    @BeforeClass
    public void start() throws Exception {
        DateTimeFormatter day = DateTimeFormatter.ofPattern("yyyyMMdd", Locale.ROOT).withZone(ZoneOffset.UTC);
        PasswordPolicies policies = new PasswordPolicies(
                new PasswordPolicy(PasswordPolicies.DEFAULT_DN, 2, Duration.ZERO, Duration.ZERO)
                        .withOnBind(new PasswordPolicy.OnBind("ds-pwp-last-login-time", day, Set.of(), 0)),
                List.of(PasswordPolicy.withoutLockout(GRACE)
                        .withExpiry(new PasswordPolicy.Expiry(Duration.ofSeconds(1), Duration.ZERO, 3))));
        server = TestServer.start(10, c -> c.withPasswordPolicies(policies), List.of(recorder));
        root = server.bindAs(TestServer.ROOT_DN, TestServer.ROOT_PASSWORD);
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

    @BeforeMethod
    public void quiet() throws Exception {
        // The deferred last-login writes of earlier binds may still be on their way.
        Poll.until("the deferred writes done", Duration.ofSeconds(10),
                () -> ctx().accounts().afterBind().writes().waiting() == 0);
        recorder.takenAll();
    }

    private ServerContext ctx() {
        return server.server().context();
    }

    private long epoch() {
        return ctx().writeEpoch().current();
    }

    private int registered(String dn) {
        return ctx().authenticatedUsers().registrations(DN.valueOf(dn));
    }

    private static void assertChange(Change c, Change.Kind kind, String before, String after, boolean fromClient) {
        assertEquals(c.kind(), kind, c.toString());
        assertEquals(c.dnBefore(), before == null ? null : DN.valueOf(before), "before");
        assertEquals(c.dnAfter(), after == null ? null : DN.valueOf(after), "after");
        assertEquals(c.origin() != Change.NO_CONNECTION, fromClient, "origin " + c.origin());
        assertFalse(c.bookkeeping());
    }

    private static List<Attribute> person(String uid, String... more) {
        List<Attribute> a = new ArrayList<>(List.of(
                new Attribute("objectClass", "top", "person", "organizationalPerson", "inetOrgPerson"),
                new Attribute("uid", uid), new Attribute("cn", uid), new Attribute("sn", uid),
                new Attribute("userPassword", "secret-" + uid), new Attribute("description", "visible")));
        for (int i = 0; i < more.length; i += 2) {
            a.add(new Attribute(more[i], more[i + 1]));
        }
        return a;
    }

    private String anonymousDescription(String dn) throws LDAPException {
        try (LDAPConnection anonymous = server.connect()) {
            var e = anonymous.getEntry(dn, "description");
            return e == null ? null : e.getAttributeValue("description");
        }
    }

    @Test
    public void aClientsAddModifyRenameAndDeleteAreSeenByEveryListenerBeforeTheirAnswers() throws Exception {
        String dn = "uid=cp.one," + PEOPLE;
        String group = "cn=cp.group," + GROUPS;
        String hiding = "(targetattr=\"description\")(version 3.0; acl \"hide\"; deny (read,search,compare) "
                + "userdn=\"ldap:///anyone\";)";

        long e0 = epoch();
        root.add(dn, person("cp.one", "aci", hiding));
        assertChange(recorder.taken().get(0), Change.Kind.ADD, null, dn, true);
        assertEquals(epoch(), e0 + 1, "the write epoch");
        assertNull(anonymousDescription(dn), "the entry's own rule is in force as soon as the add is answered");

        root.add(group, List.of(new Attribute("objectClass", "top", "groupOfNames"), new Attribute("cn", "cp.group"),
                new Attribute("member", dn)));
        recorder.taken();
        assertEquals(root.getEntry(dn, "isMemberOf").getAttributeValue("isMemberOf"), group, "the group index");

        try (LDAPConnection bound = server.bindAs(dn, "secret-cp.one")) {
            assertEquals(registered(dn), 1);
            expectThrows(LDAPException.class, () -> server.bindAs(dn, "wrong").close());
            assertEquals(ctx().accounts().accountsWithFailures(), 1);

            root.modify(dn, new Modification(ModificationType.DELETE, "aci"),
                    new Modification(ModificationType.REPLACE, "userPassword", "new-secret"));
            assertChange(recorder.taken().get(0), Change.Kind.MODIFY, dn, dn, true);
            assertEquals(anonymousDescription(dn), "visible", "the rule is gone as soon as the modify is answered");
            assertEquals(ctx().accounts().accountsWithFailures(), 0, "a new password forgets the failure");
            assertEquals(registered(dn), 1, "a modify that leaves the account usable keeps it bound");

            String renamed = "uid=cp.renamed," + PEOPLE;
            root.modifyDN(dn, "uid=cp.renamed", true);
            List<Change> rename = recorder.taken();
            assertChange(rename.get(0), Change.Kind.MODIFY_DN, dn, renamed, true);
            assertEquals(registered(dn), 0, "re-keyed before the answer");
            assertEquals(registered(renamed), 1);
            assertEquals(AuthenticatedUsersTest.whoAmI(bound), "dn:" + renamed);
            // Referential integrity's update of the group, committed before the rename's answer, no client's own.
            assertChange(rename.get(1), Change.Kind.MODIFY, group, group, false);
            assertEquals(root.getEntry(group, "member").getAttributeValue("member"), renamed);
            assertEquals(root.getEntry(renamed, "isMemberOf").getAttributeValue("isMemberOf"), group);

            long e1 = epoch();
            root.delete(renamed);
            List<Change> delete = recorder.taken();
            assertChange(delete.get(0), Change.Kind.DELETE, renamed, null, true);
            assertChange(delete.get(1), Change.Kind.MODIFY, group, group, false);
            assertEquals(epoch(), e1 + 2, "the delete and the group's update");
            assertEquals(registered(renamed), 0, "deregistered before the answer");
            assertNull(root.getEntry(group, "member").getAttributeValue("member"));
            Poll.until("the notice of disconnection", Duration.ofSeconds(10), () -> !bound.isConnected());
        } finally {
            root.delete(group);
        }
    }

    @Test
    public void aUserWhoDeletesTheirOwnEntryReadsTheResultBeforeTheNotice() throws Exception {
        String dn = "uid=cp.self," + PEOPLE;
        root.add(dn, person("cp.self", "aci", "(version 3.0; acl \"self delete\"; allow (delete) "
                + "userdn=\"ldap:///self\";)"));
        try (LDAPConnection self = server.bindAs(dn, "secret-cp.self")) {
            recorder.taken();
            assertEquals(self.delete(dn).getResultCode(), ResultCode.SUCCESS, "the result, not the notice, first");
            assertChange(recorder.taken().get(0), Change.Kind.DELETE, dn, null, true);
            assertEquals(registered(dn), 0);
            Poll.until("then the notice of disconnection", Duration.ofSeconds(10), () -> !self.isConnected());
        }
    }

    @Test
    public void theLockAFailedBindWritesClosesTheAccountsConnectionsBeforeItsAnswer() throws Exception {
        String dn = TestServer.user(3);
        try (LDAPConnection bound = server.bindAs(dn, TestServer.USER_PASSWORD)) {
            expectThrows(LDAPException.class, () -> server.bindAs(dn, "wrong").close());
            assertTrue(recorder.taken().isEmpty(), "one failure writes nothing");
            long e0 = epoch();
            expectThrows(LDAPException.class, () -> server.bindAs(dn, "wrong").close());
            List<Change> lock = recorder.taken();
            assertEquals(lock.size(), 1, lock.toString());
            assertChange(lock.get(0), Change.Kind.MODIFY, dn, dn, true);
            assertTrue(lock.get(0).after().containsAttribute("pwdAccountLockedTime"));
            assertEquals(epoch(), e0 + 1);
            assertEquals(registered(dn), 0, "the locked account's connection is gone before the bind's answer");
            Poll.until("the notice of disconnection", Duration.ofSeconds(10), () -> !bound.isConnected());
        } finally {
            root.modify(dn, new Modification(ModificationType.DELETE, "pwdAccountLockedTime"));
        }
    }

    @Test
    public void aGraceLoginIsCommittedAsAWrite() throws Exception {
        String dn = TestServer.user(4);
        root.modify(dn, new Modification(ModificationType.REPLACE, "ds-pwp-password-policy-dn", GRACE.toString()),
                new Modification(ModificationType.REPLACE, "userPassword", "password"));
        Thread.sleep(1_300); // past the one-second maximum age
        quiet();
        long e0 = epoch();
        server.bindAs(dn, TestServer.USER_PASSWORD).close();
        List<Change> grace = recorder.taken();
        assertChange(grace.get(0), Change.Kind.MODIFY, dn, dn, true);
        assertTrue(grace.get(0).after().containsAttribute("pwdGraceUseTime"));
        assertTrue(epoch() > e0);
    }

    @Test
    public void aBindsDeferredBookkeepingTakesThePathAndIsPassedOverByTheBindGuards() throws Exception {
        String dn = TestServer.user(5);
        long e0 = epoch();
        long writtenBefore = ctx().accounts().afterBind().writes().written();
        server.bindAs(dn, TestServer.USER_PASSWORD).close();
        // Counted after the write is committed on the path (waiting() drops to 0 as the write starts).
        Poll.until("the write", Duration.ofSeconds(10),
                () -> ctx().accounts().afterBind().writes().written() > writtenBefore);
        Change c = recorder.takenAll().stream().filter(x -> x.dnAfter().equals(DN.valueOf(dn))).findFirst()
                .orElseThrow(() -> new AssertionError("the last-login write was not committed on the path"));
        assertTrue(c.bookkeeping());
        assertEquals(c.origin(), Change.NO_CONNECTION);
        assertTrue(c.after().containsAttribute("ds-pwp-last-login-time"));
        assertEquals(epoch(), e0, "bookkeeping does not make racing binds read their entries again");
    }

    @Test
    public void aPasswordChangeDropsTheVerifiedCredentialOfTheOldValue() throws Exception {
        String dn = "uid=cp.costly," + PEOPLE;
        String hash = "{PBKDF2-HMAC-SHA256}"
                + new Pbkdf2HmacSha256Scheme(ITERATIONS).encodeValue(ByteString.valueOfUtf8("costly"));
        List<Attribute> attrs = new ArrayList<>(person("cp.costly"));
        attrs.removeIf(a -> a.getName().equals("userPassword"));
        attrs.add(new Attribute("userPassword", hash));
        root.add(dn, attrs);
        var verified = ctx().passwordAttribute().verifiedCredentials();
        long held = verified.size();
        server.bindAs(dn, "costly").close();
        assertEquals(verified.size(), held + 1, "the costly check recorded");
        root.modify(dn, new Modification(ModificationType.REPLACE, "userPassword", "other"));
        assertEquals(verified.size(), held, "dropped before the modify's answer");
        root.delete(dn);
    }
}
