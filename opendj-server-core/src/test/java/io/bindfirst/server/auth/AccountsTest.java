package io.bindfirst.server.auth;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertFalse;
import static org.testng.Assert.assertNotNull;
import static org.testng.Assert.assertNull;
import static org.testng.Assert.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import org.forgerock.opendj.ldap.Attribute;
import org.forgerock.opendj.ldap.AttributeDescription;
import org.forgerock.opendj.ldap.DN;
import org.forgerock.opendj.ldap.Entry;
import org.forgerock.opendj.ldap.GeneralizedTime;
import org.forgerock.opendj.ldap.LinkedAttribute;
import org.forgerock.opendj.ldap.LinkedHashMapEntry;
import org.forgerock.opendj.ldap.schema.Schema;
import org.forgerock.opendj.ldif.LDIFEntryReader;
import org.testng.annotations.BeforeClass;
import org.testng.annotations.Test;

import io.bindfirst.server.commit.CommitPath;
import io.bindfirst.server.pwd.PasswordAttribute;
import io.bindfirst.server.pwd.PasswordPolicies;
import io.bindfirst.server.pwd.PasswordPolicy;
import io.bindfirst.server.pwd.PasswordSchemes;
import io.bindfirst.server.testsupport.ServerSchema;

/** {@link Accounts} on the server schema with a clock the test moves: lock expiry, password age, stamps. */
public class AccountsTest {
    private static final DN SHORT = PasswordPolicies.PARENT.child("cn", "Short");
    private static final long T0 = GeneralizedTime.valueOf("20261124040000Z").getTimeInMillis();

    private final AtomicLong now = new AtomicLong(T0);
    private Schema schema;
    private Accounts accounts;

    @BeforeClass
    public void setUp() throws Exception {
        schema = ServerSchema.load();
        PasswordPolicies policies = new PasswordPolicies(
                new PasswordPolicy(PasswordPolicies.DEFAULT_DN, 3, Duration.ofMinutes(10), Duration.ZERO)
                        .withExpiry(new PasswordPolicy.Expiry(Duration.ofDays(90), Duration.ofDays(5), 0)),
                List.of(PasswordPolicy.withoutLockout(SHORT)
                        .withExpiry(new PasswordPolicy.Expiry(Duration.ofHours(1), Duration.ZERO, 2))));
        accounts = new Accounts(schema, policies,
                new PasswordAttribute(schema, new PasswordSchemes("SSHA512", false)), now::get,
                new CommitPath());
    }

    /** An entry read with the server schema, as the backend gives them (its attributes are the schema's types). */
    private Entry user(String... lines) {
        String[] all = new String[lines.length + 2];
        all[0] = "dn: uid=u,ou=People,dc=example,dc=com";
        all[1] = "userPassword: {SSHA}x";
        System.arraycopy(lines, 0, all, 2, lines.length);
        try (LDIFEntryReader reader = new LDIFEntryReader(all)) {
            reader.setSchema(schema);
            return reader.readEntry();
        } catch (java.io.IOException e) {
            throw new AssertionError(e);
        }
    }

    private Attribute attribute(Entry e, String name) {
        return e.getAttribute(AttributeDescription.valueOf(name, schema));
    }

    @Test
    public void aLockEndsAfterThePolicysDurationButNotTheDraftsUntilReset() {
        now.set(T0);
        Entry locked = user("pwdAccountLockedTime: 20261124040000Z");
        assertEquals(accounts.whyRefused(locked), "locked");
        now.set(T0 + Duration.ofMinutes(10).toMillis() - 1);
        assertTrue(accounts.isLocked(locked));
        now.set(T0 + Duration.ofMinutes(10).toMillis());
        assertNull(accounts.whyRefused(locked));
        assertEquals(accounts.whyRefused(user("pwdAccountLockedTime: 000001010000Z")), "locked");
        assertEquals(accounts.whyRefused(user("ds-pwp-account-disabled: TRUE")), "disabled");
        assertEquals(accounts.whyRefused(user("ds-pwp-password-policy-dn: cn=Nowhere,cn=Password Policies,cn=config")),
                "without a password policy");
    }

    @Test
    public void aPasswordWarnsThenExpires() {
        Entry e = user("pwdChangedTime: 20261124040000Z");
        now.set(T0 + Duration.ofDays(84).toMillis());
        assertEquals(accounts.passwordAge(e), Accounts.PasswordAge.CURRENT);
        now.set(T0 + Duration.ofDays(89).toMillis());
        Accounts.PasswordAge warned = accounts.passwordAge(e);
        assertFalse(warned.expired());
        assertEquals(warned.secondsToExpiry(), Duration.ofDays(1).toSeconds());
        now.set(T0 + Duration.ofDays(90).toMillis());
        Accounts.PasswordAge expired = accounts.passwordAge(e);
        assertTrue(expired.expired());
        assertEquals(expired.graceLoginsLeft(), 0);
        assertEquals(accounts.passwordAge(user()), Accounts.PasswordAge.CURRENT, "never stamped: never expires");
    }

    @Test
    public void graceLoginsLeftCountTheRecordedUses() {
        now.set(T0 + Duration.ofHours(2).toMillis());
        String policy = "ds-pwp-password-policy-dn: " + SHORT;
        assertEquals(accounts.passwordAge(user(policy, "pwdChangedTime: 20261124040000Z")).graceLoginsLeft(), 2);
        assertEquals(accounts.passwordAge(user(policy, "pwdChangedTime: 20261124040000Z",
                "pwdGraceUseTime: 20261124050000Z")).graceLoginsLeft(), 1);
        assertEquals(accounts.passwordAge(user(policy, "pwdChangedTime: 20261124040000Z",
                "pwdGraceUseTime: 20261124050000Z", "pwdGraceUseTime: 20261124050001Z")).graceLoginsLeft(), 0);
    }

    /**
     * The history keeps the newest values by time, not by text: a change at a whole second ({@code ...01Z}) is older
     * than one half a second later ({@code ...01.5Z}), though it sorts after it as text.
     */
    @Test
    public void theHistoryKeepsTheNewestByTimeNotByText() {
        Accounts withHistory = new Accounts(schema, new PasswordPolicies(
                PasswordPolicy.withoutLockout(PasswordPolicies.DEFAULT_DN).withHistoryCount(2), List.of()),
                new PasswordAttribute(schema, new PasswordSchemes("SSHA512", false)), now::get,
                new CommitPath());
        AttributeDescription pw = AttributeDescription.valueOf("userPassword", schema);
        Entry entry = user();
        String[] next = {"{SSHA}y", "{SSHA}z", "{SSHA}w"};
        long[] at = {T0 + 1_000, T0 + 1_500, T0 + 1_600}; // 040001Z, 040001.5Z, 040001.6Z
        for (int i = 0; i < next.length; i++) {
            now.set(at[i]);
            Entry after = LinkedHashMapEntry.deepCopyOfEntry(entry);
            after.replaceAttribute(new LinkedAttribute(pw, next[i]));
            withHistory.passwordChanges().stamp(entry, after, false);
            entry = after;
        }
        List<String> kept = new java.util.ArrayList<>();
        for (org.forgerock.opendj.ldap.ByteString v : attribute(entry, "pwdHistory")) {
            kept.add(v.toString().substring(v.toString().lastIndexOf('#') + 1));
        }
        assertEquals(new java.util.TreeSet<>(kept), new java.util.TreeSet<>(List.of("{SSHA}y", "{SSHA}z")),
                "x, replaced first (at the whole second), is the one to go");
    }

    @Test
    public void aNewPasswordIsStampedAndClearsGraceLogins() {
        now.set(T0);
        Entry before = user("pwdChangedTime: 20200101000000Z", "pwdGraceUseTime: 20200601000000Z");
        Entry same = LinkedHashMapEntry.deepCopyOfEntry(before);
        accounts.passwordChanges().stamp(before, same, false);
        assertEquals(attribute(same, "pwdChangedTime").firstValueAsString(), "20200101000000Z");
        Entry changed = LinkedHashMapEntry.deepCopyOfEntry(before);
        changed.replaceAttribute(new LinkedAttribute(AttributeDescription.valueOf("userPassword", schema), "{SSHA}y"));
        accounts.passwordChanges().stamp(before, changed, false);
        assertEquals(GeneralizedTime.valueOf(attribute(changed, "pwdChangedTime").firstValueAsString())
                .getTimeInMillis(), T0);
        assertNull(attribute(changed, "pwdGraceUseTime"));
        Entry removed = LinkedHashMapEntry.deepCopyOfEntry(before);
        removed.removeAttribute(AttributeDescription.valueOf("userPassword", schema));
        accounts.passwordChanges().stamp(before, removed, false);
        assertNull(attribute(removed, "pwdChangedTime"));
        Entry added = user();
        accounts.passwordChanges().stamp(null, added, false);
        assertNotNull(attribute(added, "pwdChangedTime"));
    }
}
