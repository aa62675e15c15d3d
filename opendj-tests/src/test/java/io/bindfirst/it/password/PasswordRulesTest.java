package io.bindfirst.it.password;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertFalse;
import static org.testng.Assert.assertTrue;

import java.time.Duration;
import java.util.List;

import org.forgerock.opendj.ldap.DN;
import org.testng.annotations.AfterClass;
import org.testng.annotations.BeforeClass;
import org.testng.annotations.Test;

import com.unboundid.ldap.sdk.Attribute;
import com.unboundid.ldap.sdk.BindResult;
import com.unboundid.ldap.sdk.Control;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.LDAPResult;
import com.unboundid.ldap.sdk.Modification;
import com.unboundid.ldap.sdk.ModificationType;
import com.unboundid.ldap.sdk.ModifyRequest;
import com.unboundid.ldap.sdk.LDAPSearchException;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.SearchRequest;
import com.unboundid.ldap.sdk.SearchScope;
import com.unboundid.ldap.sdk.SimpleBindRequest;
import com.unboundid.ldap.sdk.experimental.DraftBeheraLDAPPasswordPolicy10ErrorType;
import com.unboundid.ldap.sdk.experimental.DraftBeheraLDAPPasswordPolicy10RequestControl;
import com.unboundid.ldap.sdk.experimental.DraftBeheraLDAPPasswordPolicy10ResponseControl;
import com.unboundid.ldap.sdk.extensions.PasswordModifyExtendedRequest;

import io.bindfirst.it.support.LdapTools;
import io.bindfirst.it.support.TestServer;
import io.bindfirst.server.pwd.PasswordPolicies;
import io.bindfirst.server.pwd.PasswordPolicy;
import io.bindfirst.server.pwd.PasswordValidator;

/**
 * The rules a new password must follow, end to end: the history (draft-behera, OpenDJ's
 * {@code ds-cfg-password-history-count}): a new password may not repeat the current one or the last N, whether
 * set by modify or Password Modify, by the user or by root, and the history holds hashes, the newest N; and the
 * policy's validators (length, character sets), for add, modify and Password Modify.
 */
public class PasswordRulesTest {
    private static final DN STRICT = PasswordPolicies.PARENT.child("cn", "Strict");
    private static final DN SLOW_CHANGES = PasswordPolicies.PARENT.child("cn", "Slow Changes");
    private static final DN FORCE_CHANGE = PasswordPolicies.PARENT.child("cn", "Force Change");
    /** draft-behera's form: time#syntax OID (octet string)#length#the stored (hashed) value. */
    private static final String HISTORY_VALUE =
            "\\d{14}(\\.\\d+)?Z#1\\.3\\.6\\.1\\.4\\.1\\.1466\\.115\\.121\\.1\\.40#\\d+#\\{SSHA512}.+";
    private TestServer server;
    private LDAPConnection root;

    @BeforeClass
    public void start() throws Exception {
        PasswordPolicies policies = new PasswordPolicies(
                PasswordPolicy.withoutLockout(PasswordPolicies.DEFAULT_DN).withHistoryCount(2), List.of(
                        PasswordPolicy.withoutLockout(STRICT).withValidators(List.of(
                                new PasswordValidator.Length(STRICT, 10, 0),
                                new PasswordValidator.CharacterSets(STRICT, List.of(
                                        new PasswordValidator.CharacterSets.CharacterSet(1, "0123456789")),
                                        true, 0))),
                        PasswordPolicy.withoutLockout(SLOW_CHANGES).withExpiry(new PasswordPolicy.Expiry(
                                Duration.ZERO, Duration.ZERO, 0, Duration.ofSeconds(2))),
                        PasswordPolicy.withoutLockout(FORCE_CHANGE).withForceChangeOnReset(true)));
        server = TestServer.start(10, c -> c.withPasswordPolicies(policies));
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
    public void aNewPasswordMayNotRepeatTheCurrentOneOrTheLastTwo() throws Exception {
        String dn = TestServer.user(1);
        for (String p : new String[] {"first-pw", "second-pw", "third-pw"}) {
            root.modify(dn, new Modification(ModificationType.REPLACE, "userPassword", p));
        }
        try (LDAPConnection self = server.bindAs(dn, "third-pw")) {
            for (String reused : new String[] {"third-pw", "second-pw", "first-pw"}) {
                LDAPResult r = self.processExtendedOperation(new PasswordModifyExtendedRequest(null, null, reused,
                        new Control[] {new DraftBeheraLDAPPasswordPolicy10RequestControl()}));
                assertEquals(r.getResultCode(), ResultCode.CONSTRAINT_VIOLATION, reused);
                assertEquals(policyError(r), DraftBeheraLDAPPasswordPolicy10ErrorType.PASSWORD_IN_HISTORY);
                assertTrue(r.getDiagnosticMessage().contains("ds-cfg-password-history-count"),
                        r.getDiagnosticMessage());
                assertFalse(r.getDiagnosticMessage().contains(reused), "the message never holds the password");
            }
            LDAPResult changed = self.processExtendedOperation(new PasswordModifyExtendedRequest(null, null,
                    "fourth-pw", new Control[] {new DraftBeheraLDAPPasswordPolicy10RequestControl()}));
            assertEquals(changed.getResultCode(), ResultCode.SUCCESS);
            DraftBeheraLDAPPasswordPolicy10ResponseControl state =
                    DraftBeheraLDAPPasswordPolicy10ResponseControl.get(changed);
            assertTrue(state != null && state.getErrorType() == null && state.getWarningType() == null,
                    "an empty response control on success: " + state);
        }
        // Now the history is third and second: first was pushed out, and may come back.
        LDAPException e = org.testng.Assert.expectThrows(LDAPException.class,
                () -> root.modify(dn, new Modification(ModificationType.REPLACE, "userPassword", "second-pw")));
        assertEquals(e.getResultCode(), ResultCode.CONSTRAINT_VIOLATION, "root's changes are checked too");
        root.modify(dn, new Modification(ModificationType.REPLACE, "userPassword", "first-pw"));
        server.bindAs(dn, "first-pw").close();
        String[] history = root.getEntry(dn, "pwdHistory").getAttributeValues("pwdHistory");
        assertEquals(history.length, 2, String.join(", ", history));
        for (String h : history) {
            assertTrue(h.matches(HISTORY_VALUE), h);
            assertFalse(h.contains("-pw"), "hashes, never the clear passwords: " + h);
        }
    }

    @Test
    public void theValidatorsOfTheAccountsPolicyRuleAddModifyAndPasswordModify() throws Exception {
        String dn = TestServer.user(3);
        root.modify(dn, new Modification(ModificationType.REPLACE, "ds-pwp-password-policy-dn", STRICT.toString()));
        LDAPException shortOne = org.testng.Assert.expectThrows(LDAPException.class,
                () -> root.modify(new ModifyRequest(dn,
                        new Modification[] {new Modification(ModificationType.REPLACE, "userPassword", "short1")},
                        new Control[] {new DraftBeheraLDAPPasswordPolicy10RequestControl()})));
        assertEquals(shortOne.getResultCode(), ResultCode.CONSTRAINT_VIOLATION);
        assertEquals(policyError(shortOne.toLDAPResult()),
                DraftBeheraLDAPPasswordPolicy10ErrorType.PASSWORD_TOO_SHORT);
        assertTrue(shortOne.getDiagnosticMessage().contains("at least 10 characters"), shortOne.getMessage());
        LDAPResult noDigit = root.processExtendedOperation(new PasswordModifyExtendedRequest(dn, null,
                "long-enough-but-no-digit", new Control[] {new DraftBeheraLDAPPasswordPolicy10RequestControl(true)}));
        assertEquals(noDigit.getResultCode(), ResultCode.CONSTRAINT_VIOLATION, "the control may be critical");
        assertEquals(policyError(noDigit), DraftBeheraLDAPPasswordPolicy10ErrorType.INSUFFICIENT_PASSWORD_QUALITY);
        root.modify(dn, new Modification(ModificationType.REPLACE, "userPassword", "long-enough-1"));
        server.bindAs(dn, "long-enough-1").close();
        LDAPException add = org.testng.Assert.expectThrows(LDAPException.class, () -> root.add(
                "uid=strict.new," + TestServer.PEOPLE, new Attribute("objectClass", "top", "person",
                        "organizationalPerson", "inetOrgPerson"), new Attribute("uid", "strict.new"),
                new Attribute("cn", "s"), new Attribute("sn", "s"),
                new Attribute("ds-pwp-password-policy-dn", STRICT.toString()), new Attribute("userPassword", "x1")));
        assertEquals(add.getResultCode(), ResultCode.CONSTRAINT_VIOLATION);
        // The default policy has no validators: a short password is fine there.
        root.modify(TestServer.user(4), new Modification(ModificationType.REPLACE, "userPassword", "s1"));
    }

    /** The minimum age holds back the user's own changes, not an administrator's reset. */
    @Test
    public void aUserMayNotChangeTheirPasswordAgainBeforeTheMinimumAge() throws Exception {
        String dn = TestServer.user(5);
        root.modify(dn, new Modification(ModificationType.REPLACE, "ds-pwp-password-policy-dn",
                SLOW_CHANGES.toString()));
        root.modify(dn, new Modification(ModificationType.REPLACE, "userPassword", "min-age-1"));
        try (LDAPConnection self = server.bindAs(dn, "min-age-1")) {
            LDAPResult early = self.processExtendedOperation(new PasswordModifyExtendedRequest(null, null,
                    "min-age-2", new Control[] {new DraftBeheraLDAPPasswordPolicy10RequestControl()}));
            assertEquals(early.getResultCode(), ResultCode.CONSTRAINT_VIOLATION);
            assertEquals(policyError(early), DraftBeheraLDAPPasswordPolicy10ErrorType.PASSWORD_TOO_YOUNG);
            assertTrue(early.getDiagnosticMessage().contains("ds-cfg-min-password-age"), early.getDiagnosticMessage());
            assertEquals(root.processExtendedOperation(new PasswordModifyExtendedRequest(dn, null, "min-age-3"))
                    .getResultCode(), ResultCode.SUCCESS, "root's reset is not held back");
            Thread.sleep(2_200); // the minimum age counts from root's reset, which stamped a new change time
            assertEquals(self.processExtendedOperation(new PasswordModifyExtendedRequest(null, "min-age-3",
                    "min-age-4")).getResultCode(), ResultCode.SUCCESS);
        }
    }

    /** draft-behera's pwdReset: after an administrator's reset the user may only change the password. */
    @Test
    public void afterAnAdministratorsResetTheUserMustChangeThePasswordFirst() throws Exception {
        String dn = TestServer.user(6);
        root.modify(dn, new Modification(ModificationType.REPLACE, "ds-pwp-password-policy-dn",
                FORCE_CHANGE.toString()));
        assertEquals(root.processExtendedOperation(new PasswordModifyExtendedRequest(dn, null, "reset-by-root"))
                .getResultCode(), ResultCode.SUCCESS);
        assertEquals(root.getEntry(dn, "pwdReset").getAttributeValue("pwdReset"), "TRUE");
        try (LDAPConnection self = server.connect()) {
            BindResult bound = self.bind(new SimpleBindRequest(dn, "reset-by-root",
                    new Control[] {new DraftBeheraLDAPPasswordPolicy10RequestControl()}));
            assertEquals(DraftBeheraLDAPPasswordPolicy10ResponseControl.get(bound).getErrorType(),
                    DraftBeheraLDAPPasswordPolicy10ErrorType.CHANGE_AFTER_RESET);
            SearchRequest search = new SearchRequest(TestServer.PEOPLE, SearchScope.ONE, "(uid=user.1)");
            search.addControl(new DraftBeheraLDAPPasswordPolicy10RequestControl());
            LDAPSearchException refused = org.testng.Assert.expectThrows(LDAPSearchException.class,
                    () -> self.search(search));
            assertEquals(refused.getResultCode(), ResultCode.INSUFFICIENT_ACCESS_RIGHTS);
            assertEquals(policyError(refused.toLDAPResult()),
                    DraftBeheraLDAPPasswordPolicy10ErrorType.CHANGE_AFTER_RESET);
            assertTrue(refused.getDiagnosticMessage().contains("Password Modify"), refused.getDiagnosticMessage());
            assertEquals(self.processExtendedOperation(new PasswordModifyExtendedRequest(null, "reset-by-root",
                    "chosen-by-user")).getResultCode(), ResultCode.SUCCESS);
            // At once, on the same connection: the change freed it before its response.
            assertEquals(self.search(TestServer.PEOPLE, SearchScope.ONE, "(uid=user.1)").getEntryCount(), 1);
        }
        assertEquals(root.getEntry(dn, "pwdReset").getAttributeValue("pwdReset"), null);
        server.bindAs(dn, "chosen-by-user").close();
    }

    @Test
    public void ldappasswdIsRefusedWithConstraintViolation() throws Exception {
        LdapTools.require("ldappasswd");
        String dn = TestServer.user(2);
        root.modify(dn, new Modification(ModificationType.REPLACE, "userPassword", "tool-pw-1"));
        LdapTools.Run r = LdapTools.run("ldappasswd", "-x", "-H", "ldap://127.0.0.1:" + server.port(), "-D", dn,
                "-w", "tool-pw-1", "-s", "tool-pw-1");
        assertEquals(r.exit(), 1, r.output()); // ldappasswd's exit status for a refused change
        assertTrue(r.output().contains("Constraint violation (19)"), r.output());
        assertTrue(r.output().contains("ds-cfg-password-history-count"), r.output());
    }

    /** The error of the Password Policy response control on {@code r}; fails if there is no control. */
    private static DraftBeheraLDAPPasswordPolicy10ErrorType policyError(LDAPResult r) throws LDAPException {
        DraftBeheraLDAPPasswordPolicy10ResponseControl c = DraftBeheraLDAPPasswordPolicy10ResponseControl.get(r);
        assertTrue(c != null, "a Password Policy response control on " + r);
        return c.getErrorType();
    }
}
