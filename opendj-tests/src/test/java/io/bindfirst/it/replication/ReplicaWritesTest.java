package io.bindfirst.it.replication;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertNotNull;
import static org.testng.Assert.assertNull;
import static org.testng.Assert.assertTrue;
import static org.testng.Assert.expectThrows;

import java.util.List;
import java.util.Map;

import org.testng.annotations.AfterClass;
import org.testng.annotations.BeforeClass;
import org.testng.annotations.Test;

import com.unboundid.ldap.sdk.AddRequest;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.LDAPResult;
import com.unboundid.ldap.sdk.Modification;
import com.unboundid.ldap.sdk.ModificationType;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.controls.PostReadRequestControl;
import com.unboundid.ldap.sdk.controls.PostReadResponseControl;
import com.unboundid.ldap.sdk.extensions.PasswordModifyExtendedRequest;

import io.bindfirst.it.support.ReplicaGroup;
import io.bindfirst.it.support.TestServer;

/**
 * A client's writes sent to a replica, with three server processes in one group on loopback: n0 the master, n1
 * forwarding writes to it, n2 answering referrals. A forwarded write is made by the master as the client (its
 * access rights, its name in modifiersName), answered with the master's result and controls, and read back on the
 * replica at once; a referral names the master's LDAP URL.
 */
public class ReplicaWritesTest {
    private static final List<String> JVM = List.of("-Xmx192m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1");
    private static final int USERS = 100;
    private static final long WAIT_MILLIS = 60_000;
    private static final int FORWARDING = 1;
    private static final int REFERRING = 2;
    private static final String POLICY = "cn=Default Password Policy,cn=Password Policies,cn=config";

    private ReplicaGroup group;

    @BeforeClass
    public void startGroup() throws Exception {
        // Three failed binds lock an account; a successful one records the time, to the second.
        group = ReplicaGroup.start("writes-group", 3, USERS, JVM, Map.of(REFERRING, "referral"), text -> text
                .set(POLICY, "ds-cfg-lockout-failure-count", "3")
                .add(POLICY, "ds-cfg-last-login-time-attribute", "ds-pwp-last-login-time")
                .add(POLICY, "ds-cfg-last-login-time-format", "yyyyMMddHHmmss"));
        ReplicaGroup.await(WAIT_MILLIS, () -> "replica".equals(group.role(FORWARDING))
                && "replica".equals(group.role(REFERRING)));
    }

    @AfterClass(alwaysRun = true)
    public void stopGroup() {
        if (group != null) {
            group.close();
        }
    }

    @Test
    public void aUsersWriteOnAReplicaIsMadeByTheMasterAsThatUser() throws Exception {
        String user = "uid=user.5," + TestServer.PEOPLE;
        try (LDAPConnection c = new LDAPConnection("127.0.0.1", group.node(FORWARDING).port())) {
            c.bind(user, TestServer.USER_PASSWORD);
            c.modify(user, new Modification(ModificationType.REPLACE, "userPassword", "forwarded-secret-5"));
            LDAPException refused = expectThrows(LDAPException.class, () -> c.modify(user,
                    new Modification(ModificationType.REPLACE, "description", "not mine to write")));
            assertEquals(refused.getResultCode(), ResultCode.INSUFFICIENT_ACCESS_RIGHTS,
                    "the master decides as the user: the shipped rules let users change their password only");
        }
        // Read back on the same replica at once: the forwarded success waited for this node to have the change.
        assertEquals(group.attribute(FORWARDING, user, "modifiersName"), user, "made as the user, not as root");
        try (LDAPConnection again = new LDAPConnection("127.0.0.1", group.node(FORWARDING).port())) {
            again.bind(user, "forwarded-secret-5");
        }
        assertNull(group.attribute(0, user, "description"));
    }

    @Test
    public void aRootWriteOnAReplicaIsAnsweredWithTheMastersControlsAndReadBackThere() throws Exception {
        String dn = "ou=forwarded,dc=example,dc=com";
        try (LDAPConnection c = group.root(FORWARDING)) {
            AddRequest add = new AddRequest(dn, new com.unboundid.ldap.sdk.Attribute("objectClass", "top",
                    "organizationalUnit"), new com.unboundid.ldap.sdk.Attribute("ou", "forwarded"));
            add.addControl(new PostReadRequestControl("entryUUID", "creatorsName"));
            LDAPResult added = c.add(add);
            PostReadResponseControl post = PostReadResponseControl.get(added);
            assertNotNull(post, "the master's Post-Read response reaches the client");
            assertEquals(post.getEntry().getAttributeValue("creatorsName"),
                    "cn=Directory Manager,cn=Root DNs,cn=config", "made as the root user who sent it");
            assertEquals(c.getEntry(dn, "entryUUID").getAttributeValue("entryUUID"),
                    post.getEntry().getAttributeValue("entryUUID"), "read back on the replica at once");
            LDAPException schema = expectThrows(LDAPException.class, () -> c.add("dn: cn=no class," + dn,
                    "objectClass: top", "cn: no class"));
            assertEquals(schema.getResultCode(), ResultCode.OBJECT_CLASS_VIOLATION, schema.getDiagnosticMessage());
            LDAPException missing = expectThrows(LDAPException.class, () -> c.delete("ou=absent," + dn));
            assertEquals(missing.getResultCode(), ResultCode.NO_SUCH_OBJECT);
            assertEquals(missing.getMatchedDN(), dn, "the master's matched DN reaches the client");
            c.delete(dn);
            assertNull(c.getEntry(dn), "the delete is seen on the replica at once");
        }
    }

    @Test
    public void aPasswordModifyOnAReplicaChangesThePasswordOnEveryNode() throws Exception {
        String user = "uid=user.6," + TestServer.PEOPLE;
        try (LDAPConnection c = new LDAPConnection("127.0.0.1", group.node(FORWARDING).port())) {
            c.bind(user, TestServer.USER_PASSWORD);
            LDAPResult r = c.processExtendedOperation(new PasswordModifyExtendedRequest(null,
                    TestServer.USER_PASSWORD, "modified-secret-6"));
            assertEquals(r.getResultCode(), ResultCode.SUCCESS, r.getDiagnosticMessage());
        }
        try (LDAPConnection again = new LDAPConnection("127.0.0.1", group.node(FORWARDING).port())) {
            again.bind(user, "modified-secret-6");
        }
        ReplicaGroup.await(WAIT_MILLIS, () -> {
            try (LDAPConnection other = new LDAPConnection("127.0.0.1", group.node(REFERRING).port())) {
                other.bind(user, "modified-secret-6");
                return true;
            } catch (LDAPException e) {
                return false;
            }
        });
    }

    @Test
    public void aReplicaSetToReferAnswersWithTheMastersUrl() throws Exception {
        try (LDAPConnection c = group.root(REFERRING)) {
            LDAPException e = expectThrows(LDAPException.class, () -> c.modify("uid=user.8," + TestServer.PEOPLE,
                    new Modification(ModificationType.REPLACE, "description", "referred")));
            assertEquals(e.getResultCode(), ResultCode.REFERRAL, e.getDiagnosticMessage());
            assertEquals(List.of(e.getReferralURLs()), List.of("ldap://127.0.0.1:" + group.node(0).port()));
            assertTrue(e.getDiagnosticMessage().contains("replica"), e.getDiagnosticMessage());
        }
        assertNull(group.attribute(0, "uid=user.8," + TestServer.PEOPLE, "description"), "nothing was written");
    }

    @Test
    public void failedBindsOnAReplicaLockTheAccountOnEveryNodeBeforeTheLastIsAnswered() throws Exception {
        String user = "uid=user.9," + TestServer.PEOPLE;
        try (LDAPConnection c = new LDAPConnection("127.0.0.1", group.node(FORWARDING).port())) {
            for (int i = 0; i < 3; i++) {
                LDAPException e = expectThrows(LDAPException.class, () -> c.bind(user, "wrong"));
                assertEquals(e.getResultCode(), ResultCode.INVALID_CREDENTIALS);
            }
        }
        // Durable on the master before the third failure was answered; the replica has it too.
        assertNotNull(group.attribute(0, user, "pwdAccountLockedTime"), "the master has the lock");
        assertNotNull(group.attribute(FORWARDING, user, "pwdAccountLockedTime"), "the replica has the lock");
        for (int node = 0; node < 3; node++) {
            int n = node;
            ReplicaGroup.await(WAIT_MILLIS, () -> group.attribute(n, user, "pwdAccountLockedTime") != null);
            try (LDAPConnection c = new LDAPConnection("127.0.0.1", group.node(node).port())) {
                LDAPException e = expectThrows(LDAPException.class, () -> c.bind(user, TestServer.USER_PASSWORD));
                assertEquals(e.getResultCode(), ResultCode.INVALID_CREDENTIALS, "locked on node n" + node);
            }
        }
    }

    @Test
    public void aBindOnAReplicaRecordsTheLastLoginOnTheMaster() throws Exception {
        String user = "uid=user.10," + TestServer.PEOPLE;
        assertNull(group.attribute(0, user, "ds-pwp-last-login-time"));
        String modifiedBy = group.attribute(0, user, "modifiersName");
        try (LDAPConnection c = new LDAPConnection("127.0.0.1", group.node(FORWARDING).port())) {
            c.bind(user, TestServer.USER_PASSWORD);
        }
        ReplicaGroup.await(WAIT_MILLIS, () -> group.attribute(0, user, "ds-pwp-last-login-time") != null);
        assertEquals(group.attribute(0, user, "modifiersName"), modifiedBy,
                "the server's own record: written with Relax Rules, which stamps nothing");
    }
}
