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

import com.unboundid.ldap.sdk.BindResult;
import com.unboundid.ldap.sdk.Control;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.LDAPResult;
import com.unboundid.ldap.sdk.Modification;
import com.unboundid.ldap.sdk.ModificationType;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.SimpleBindRequest;
import com.unboundid.ldap.sdk.experimental.DraftBeheraLDAPPasswordPolicy10ErrorType;
import com.unboundid.ldap.sdk.experimental.DraftBeheraLDAPPasswordPolicy10RequestControl;
import com.unboundid.ldap.sdk.experimental.DraftBeheraLDAPPasswordPolicy10ResponseControl;
import com.unboundid.ldap.sdk.experimental.DraftBeheraLDAPPasswordPolicy10WarningType;
import com.unboundid.ldap.sdk.extensions.PasswordModifyExtendedRequest;

import io.bindfirst.it.support.LdapTools;
import io.bindfirst.it.support.TestServer;
import io.bindfirst.server.pwd.PasswordPolicies;
import io.bindfirst.server.pwd.PasswordPolicy;

/**
 * Password expiry (draft-behera, OpenDJ's settings) end to end: {@code pwdChangedTime} kept by every write
 * that changes a password, the warning before expiry, an expired password refused as a wrong one, grace
 * logins recorded and ended, and a new password starting over. Short ages, so each test sleeps a few seconds.
 */
public class PasswordExpiryTest {
    private static final DN GRACE = PasswordPolicies.PARENT.child("cn", "Grace");
    private static final Duration MAX_AGE = Duration.ofSeconds(6);
    private static final Duration WARNING = Duration.ofSeconds(3);

    private TestServer server;
    private LDAPConnection root;

    @BeforeClass
    public void start() throws Exception {
        PasswordPolicies policies = new PasswordPolicies(
                PasswordPolicy.withoutLockout(PasswordPolicies.DEFAULT_DN)
                        .withExpiry(new PasswordPolicy.Expiry(MAX_AGE, WARNING, 0)),
                List.of(PasswordPolicy.withoutLockout(GRACE)
                        .withExpiry(new PasswordPolicy.Expiry(Duration.ofSeconds(2), Duration.ZERO, 2))));
        server = TestServer.start(20, c -> c.withPasswordPolicies(policies));
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
    public void everyWriteThatChangesAPasswordStampsIt() throws Exception {
        String dn = TestServer.user(1);
        assertNull(changedTime(dn), "the sample data was loaded without it");
        root.modify(dn, new Modification(ModificationType.REPLACE, "userPassword", "password"));
        String first = changedTime(dn);
        assertNotNull(first);
        root.modify(dn, new Modification(ModificationType.REPLACE, "description", "not a password"));
        assertEquals(changedTime(dn), first, "a write that leaves the password alone leaves the time alone");
        Thread.sleep(20);
        changePassword(dn);
        assertTrue(changedTime(dn).compareTo(first) > 0, "Password Modify stamps it too");
        root.modify(dn, new Modification(ModificationType.DELETE, "userPassword"));
        assertNull(changedTime(dn), "removed with the password");
        LDAPException e = expectThrows(LDAPException.class, () -> root.modify(dn,
                new Modification(ModificationType.REPLACE, "pwdChangedTime", "20200101000000Z")));
        assertEquals(e.getResultCode(), ResultCode.CONSTRAINT_VIOLATION, "the server keeps it: " + e.getMessage());
    }

    @Test
    public void aWarningBeforeExpiryThenRefusalAsAWrongPassword() throws Exception {
        String dn = TestServer.user(2);
        long changed = System.nanoTime();
        root.modify(dn, new Modification(ModificationType.REPLACE, "userPassword", "password"));
        assertNull(policyControl(bindWithControl(dn, "password")), "a fresh password: nothing to say");
        sleepUntil(changed, MAX_AGE.minus(WARNING).plusMillis(500));
        DraftBeheraLDAPPasswordPolicy10ResponseControl warning = policyControl(bindWithControl(dn, "password"));
        assertNotNull(warning, "within the warning interval");
        assertEquals(warning.getWarningType(), DraftBeheraLDAPPasswordPolicy10WarningType.TIME_BEFORE_EXPIRATION);
        assertTrue(warning.getWarningValue() > 0 && warning.getWarningValue() <= WARNING.toSeconds(),
                "seconds left: " + warning.getWarningValue());
        sleepUntil(changed, MAX_AGE.plusMillis(300));
        LDAPException expired = expectThrows(LDAPException.class, () -> bindWithControl(dn, "password"));
        assertEquals(expired.getResultCode(), ResultCode.INVALID_CREDENTIALS);
        DraftBeheraLDAPPasswordPolicy10ResponseControl error = policyControl(expired.toLDAPResult());
        assertNotNull(error);
        assertEquals(error.getErrorType(), DraftBeheraLDAPPasswordPolicy10ErrorType.PASSWORD_EXPIRED);
        LDAPException wrong = expectThrows(LDAPException.class, () -> server.bindAs(dn, "wrong"));
        LDAPException plain = expectThrows(LDAPException.class, () -> server.bindAs(dn, "password"));
        assertEquals(plain.getResultCode(), wrong.getResultCode());
        assertEquals(plain.getDiagnosticMessage(), wrong.getDiagnosticMessage(), "the same answer as a wrong one");
        changePassword(dn);
        server.bindAs(dn, "password").close(); // a new password starts over
    }

    @Test
    public void graceLoginsAreCountedInTheEntryAndEndWithANewPassword() throws Exception {
        String dn = TestServer.user(3);
        root.modify(dn, new Modification(ModificationType.REPLACE, "ds-pwp-password-policy-dn", GRACE.toString()));
        long changed = System.nanoTime();
        root.modify(dn, new Modification(ModificationType.REPLACE, "userPassword", "password"));
        sleepUntil(changed, Duration.ofMillis(2_300));
        for (int remaining = 1; remaining >= 0; remaining--) {
            DraftBeheraLDAPPasswordPolicy10ResponseControl c = policyControl(bindWithControl(dn, "password"));
            assertNotNull(c, "a grace login says how many are left");
            assertEquals(c.getWarningType(), DraftBeheraLDAPPasswordPolicy10WarningType.GRACE_LOGINS_REMAINING);
            assertEquals(c.getWarningValue(), remaining);
        }
        assertEquals(root.getEntry(dn, "pwdGraceUseTime").getAttributeValues("pwdGraceUseTime").length, 2);
        LDAPException e = expectThrows(LDAPException.class, () -> bindWithControl(dn, "password"));
        assertEquals(policyControl(e.toLDAPResult()).getErrorType(),
                DraftBeheraLDAPPasswordPolicy10ErrorType.PASSWORD_EXPIRED);
        server.restart();
        root.close();
        root = server.bindAs(TestServer.ROOT_DN, TestServer.ROOT_PASSWORD);
        expectThrows(LDAPException.class, () -> server.bindAs(dn, "password")); // the count survived
        changePassword(dn);
        assertNull(root.getEntry(dn, "pwdGraceUseTime").getAttributeValue("pwdGraceUseTime"));
        server.bindAs(dn, "password").close();
    }

    @Test
    public void ldapwhoamiShowsTheExpiredPassword() throws Exception {
        LdapTools.require("ldapwhoami");
        String dn = TestServer.user(4);
        long changed = System.nanoTime();
        root.modify(dn, new Modification(ModificationType.REPLACE, "userPassword", "password"));
        sleepUntil(changed, MAX_AGE.plusMillis(300));
        LdapTools.Run r = LdapTools.run("ldapwhoami", "-x", "-H", "ldap://127.0.0.1:" + server.port(), "-D", dn,
                "-w", "password", "-e", "ppolicy");
        assertEquals(r.exit(), 49, r.output());
        assertTrue(r.output().contains("Password expired"), r.output());
    }

    private BindResult bindWithControl(String dn, String password) throws LDAPException {
        try (LDAPConnection c = server.connect()) {
            return c.bind(new SimpleBindRequest(dn, password,
                    new Control[] {new DraftBeheraLDAPPasswordPolicy10RequestControl()}));
        }
    }

    private static DraftBeheraLDAPPasswordPolicy10ResponseControl policyControl(LDAPResult r) throws LDAPException {
        return DraftBeheraLDAPPasswordPolicy10ResponseControl.get(r);
    }

    /** Root sets the password to "password" again with Password Modify (RFC 3062): a new salt, a new value. */
    private void changePassword(String dn) throws LDAPException {
        LDAPResult r = root.processExtendedOperation(new PasswordModifyExtendedRequest(dn, null, "password"));
        assertEquals(r.getResultCode(), ResultCode.SUCCESS, r.getDiagnosticMessage());
    }

    private String changedTime(String dn) throws LDAPException {
        return root.getEntry(dn, "pwdChangedTime").getAttributeValue("pwdChangedTime");
    }

    private static void sleepUntil(long startNanos, Duration after) throws InterruptedException {
        long left = after.toNanos() - (System.nanoTime() - startNanos);
        if (left > 0) {
            Thread.sleep(left / 1_000_000, (int) (left % 1_000_000));
        }
    }
}
