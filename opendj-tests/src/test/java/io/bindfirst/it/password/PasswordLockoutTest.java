package io.bindfirst.it.password;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertNotNull;
import static org.testng.Assert.assertNull;
import static org.testng.Assert.assertTrue;
import static org.testng.Assert.expectThrows;

import java.time.Duration;
import java.util.List;

import org.forgerock.opendj.ldap.DN;
import org.testng.annotations.AfterClass;
import org.testng.annotations.BeforeClass;
import org.testng.annotations.Test;

import com.unboundid.ldap.sdk.Control;
import com.unboundid.ldap.sdk.DisconnectType;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.Modification;
import com.unboundid.ldap.sdk.ModificationType;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.SimpleBindRequest;
import com.unboundid.ldap.sdk.experimental.DraftBeheraLDAPPasswordPolicy10ErrorType;
import com.unboundid.ldap.sdk.experimental.DraftBeheraLDAPPasswordPolicy10RequestControl;
import com.unboundid.ldap.sdk.experimental.DraftBeheraLDAPPasswordPolicy10ResponseControl;
import com.unboundid.ldap.sdk.extensions.PasswordModifyExtendedRequest;
import com.unboundid.ldap.sdk.extensions.PasswordModifyExtendedResult;

import io.bindfirst.it.support.LdapTools;
import io.bindfirst.it.support.TestServer;
import io.bindfirst.server.pwd.PasswordPolicies;
import io.bindfirst.server.pwd.PasswordPolicy;
import io.bindfirst.server.testsupport.Poll;

/**
 * Lockout after failed binds (draft-behera, OpenDJ's settings) end to end, on the JE backend: the count, the
 * lock that closes the account's connections and survives a restart, its end by duration or by an
 * administrator, the Password Policy control, and the one write a storm of wrong passwords makes.
 */
public class PasswordLockoutTest {
    private static final Duration SETTLE = Duration.ofSeconds(5);
    private static final DN SHORT_LOCK = PasswordPolicies.PARENT.child("cn", "Short Lock");
    private static final DN EXPIRING = PasswordPolicies.PARENT.child("cn", "Expiring Failures");

    private TestServer server;
    private LDAPConnection root;

    @BeforeClass
    public void start() throws Exception {
        PasswordPolicies policies = new PasswordPolicies(
                new PasswordPolicy(PasswordPolicies.DEFAULT_DN, 3, Duration.ZERO, Duration.ZERO),
                List.of(new PasswordPolicy(SHORT_LOCK, 2, Duration.ofSeconds(1), Duration.ZERO),
                        new PasswordPolicy(EXPIRING, 2, Duration.ZERO, Duration.ofSeconds(1))));
        server = TestServer.start(40, c -> c.withPasswordPolicies(policies));
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

    @Test
    public void theThirdWrongPasswordLocksUntilAnAdministratorUnlocks() throws Exception {
        String dn = TestServer.user(1);
        failBinds(dn, 2);
        server.bindAs(dn, "password").close(); // a success forgets the two failures
        failBinds(dn, 2);
        server.bindAs(dn, "password").close();
        failBinds(dn, 3);
        LDAPException locked = expectThrows(LDAPException.class, () -> server.bindAs(dn, "password"));
        assertEquals(locked.getResultCode(), ResultCode.INVALID_CREDENTIALS);
        LDAPException wrong = expectThrows(LDAPException.class, () -> server.bindAs(dn, "wrong"));
        assertEquals(locked.getDiagnosticMessage(), wrong.getDiagnosticMessage(),
                "a locked account answers as a wrong password does: a right guess is not revealed");
        assertNotNull(lockedTime(dn), "the lock is in the entry");
        root.modify(dn, new Modification(ModificationType.DELETE, "pwdAccountLockedTime"));
        server.bindAs(dn, "password").close();
        failBinds(dn, 2);
        server.bindAs(dn, "password").close(); // counting started again from zero at the lock
    }

    @Test
    public void thePasswordPolicyControlSaysAccountLockedOnlyWhenItIs() throws Exception {
        String dn = TestServer.user(2);
        LDAPException wrong = bindWithPolicyControl(dn, "wrong");
        assertNull(DraftBeheraLDAPPasswordPolicy10ResponseControl.get(wrong.toLDAPResult()),
                "a wrong password of an account that is not locked says nothing more");
        failBinds(dn, 2);
        LDAPException locked = bindWithPolicyControl(dn, "password");
        assertEquals(locked.getResultCode(), ResultCode.INVALID_CREDENTIALS);
        DraftBeheraLDAPPasswordPolicy10ResponseControl c =
                DraftBeheraLDAPPasswordPolicy10ResponseControl.get(locked.toLDAPResult());
        assertNotNull(c, "accountLocked in the response control");
        assertEquals(c.getErrorType(), DraftBeheraLDAPPasswordPolicy10ErrorType.ACCOUNT_LOCKED);
    }

    @Test
    public void theLockClosesTheAccountsConnections() throws Exception {
        String dn = TestServer.user(3);
        try (LDAPConnection bound = server.bindAs(dn, "password")) {
            failBinds(dn, 3);
            Poll.until("the server to close the locked account's connection", SETTLE, () -> !bound.isConnected());
            assertEquals(bound.getDisconnectType(), DisconnectType.SERVER_CLOSED_WITH_NOTICE);
            assertTrue(bound.getDisconnectMessage().contains("has been locked"), bound.getDisconnectMessage());
        }
    }

    /** Failed binds count in memory: only the lock is written, once, however many wrong passwords follow. */
    @Test
    public void aStormOfWrongPasswordsWritesOnceAndSuccessfulBindsWriteNothing() throws Exception {
        String dn = TestServer.user(4);
        long lockouts = monitorCount("ds-mon-lockouts");
        long before = server.server().context().writeEpoch().current();
        try (LDAPConnection c = server.connect()) {
            for (int i = 0; i < 300; i++) {
                LDAPException e = expectThrows(LDAPException.class, () -> c.bind(dn, "wrong"));
                assertEquals(e.getResultCode(), ResultCode.INVALID_CREDENTIALS);
            }
        }
        assertEquals(server.server().context().writeEpoch().current() - before, 1, "one write: the lock");
        assertEquals(monitorCount("ds-mon-lockouts") - lockouts, 1, "cn=monitor counts the lock");
        String user5 = TestServer.user(5);
        long quiet = server.server().context().writeEpoch().current();
        try (LDAPConnection c = server.connect()) {
            for (int i = 0; i < 300; i++) {
                c.bind(user5, "password");
                if (i % 50 == 0) {
                    expectThrows(LDAPException.class, () -> c.bind(user5, "wrong"));
                }
            }
        }
        assertEquals(server.server().context().writeEpoch().current(), quiet,
                "successful binds, and failures short of the count, write nothing");
    }

    @Test
    public void aLockWithADurationEndsByItself() throws Exception {
        String dn = TestServer.user(6);
        usePolicy(dn, SHORT_LOCK);
        failBinds(dn, 2);
        expectThrows(LDAPException.class, () -> server.bindAs(dn, "password"));
        Thread.sleep(1_100);
        server.bindAs(dn, "password").close();
    }

    @Test
    public void failuresOlderThanTheExpiryIntervalDoNotCount() throws Exception {
        String dn = TestServer.user(7);
        usePolicy(dn, EXPIRING);
        failBinds(dn, 1);
        Thread.sleep(1_100);
        failBinds(dn, 1);
        server.bindAs(dn, "password").close(); // not locked: the first failure had expired
        failBinds(dn, 2);
        expectThrows(LDAPException.class, () -> server.bindAs(dn, "password"));
    }

    @Test
    public void anAccountNamingAPolicyThatIsNotConfiguredCannotBind() throws Exception {
        String dn = TestServer.user(8);
        usePolicy(dn, PasswordPolicies.PARENT.child("cn", "Nowhere"));
        LDAPException e = expectThrows(LDAPException.class, () -> server.bindAs(dn, "password"));
        assertEquals(e.getResultCode(), ResultCode.INVALID_CREDENTIALS);
        root.modify(dn, new Modification(ModificationType.DELETE, "ds-pwp-password-policy-dn"));
        server.bindAs(dn, "password").close();
    }

    /** Forgotten before the write is acknowledged: the next wrong password right after it counts as the first. */
    @Test
    public void aNewPasswordForgetsTheFailures() throws Exception {
        String dn = TestServer.user(9);
        for (int round = 0; round < 20; round++) {
            failBinds(dn, 2);
            root.modify(dn, new Modification(ModificationType.REPLACE, "userPassword", "password"));
            failBinds(dn, 2);
            PasswordModifyExtendedResult r = (PasswordModifyExtendedResult) root.processExtendedOperation(
                    new PasswordModifyExtendedRequest(dn, null, "password"));
            assertEquals(r.getResultCode(), ResultCode.SUCCESS);
        }
        server.bindAs(dn, "password").close();
    }

    @Test(dependsOnMethods = "theThirdWrongPasswordLocksUntilAnAdministratorUnlocks")
    public void theLockSurvivesARestartAndTheCountsDoNot() throws Exception {
        String locked = TestServer.user(10);
        String counted = TestServer.user(11);
        failBinds(locked, 3);
        failBinds(counted, 2);
        root.close();
        server.restart();
        root = server.bindAs(TestServer.ROOT_DN, TestServer.ROOT_PASSWORD);
        expectThrows(LDAPException.class, () -> server.bindAs(locked, "password"));
        failBinds(counted, 2);
        server.bindAs(counted, "password").close();
    }

    @Test
    public void ldapwhoamiShowsTheLockWithThePasswordPolicyControl() throws Exception {
        LdapTools.require("ldapwhoami");
        String dn = TestServer.user(12);
        failBinds(dn, 3);
        LdapTools.Run r = LdapTools.run("ldapwhoami", "-x", "-H", "ldap://127.0.0.1:" + server.port(), "-D", dn,
                "-w", "password", "-e", "ppolicy");
        assertEquals(r.exit(), 49, r.output());
        assertTrue(r.output().contains("Account locked"), r.output());
    }

    private void failBinds(String dn, int n) throws Exception {
        try (LDAPConnection c = server.connect()) {
            for (int i = 0; i < n; i++) {
                LDAPException e = expectThrows(LDAPException.class, () -> c.bind(dn, "wrong"));
                assertEquals(e.getResultCode(), ResultCode.INVALID_CREDENTIALS);
            }
        }
    }

    private LDAPException bindWithPolicyControl(String dn, String password) throws Exception {
        try (LDAPConnection c = server.connect()) {
            return expectThrows(LDAPException.class, () -> c.bind(new SimpleBindRequest(dn, password,
                    new Control[] {new DraftBeheraLDAPPasswordPolicy10RequestControl()})));
        }
    }

    private void usePolicy(String dn, DN policy) throws LDAPException {
        root.modify(dn, new Modification(ModificationType.REPLACE, "ds-pwp-password-policy-dn", policy.toString()));
    }

    private long monitorCount(String attribute) throws LDAPException {
        return root.getEntry("cn=Password Policy,cn=monitor", attribute).getAttributeValueAsLong(attribute);
    }

        private String lockedTime(String dn) throws LDAPException {
        return root.getEntry(dn, "pwdAccountLockedTime").getAttributeValue("pwdAccountLockedTime");
    }
}
