package io.bindfirst.server.auth;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.LongSupplier;

import org.forgerock.opendj.ldap.Attribute;
import org.forgerock.opendj.ldap.AttributeDescription;
import org.forgerock.opendj.ldap.ByteString;
import org.forgerock.opendj.ldap.Entry;
import org.forgerock.opendj.ldap.GeneralizedTime;
import org.forgerock.opendj.ldap.LinkedAttribute;
import org.forgerock.opendj.ldap.controls.PasswordPolicyErrorType;
import org.forgerock.opendj.ldap.schema.Schema;

import io.bindfirst.server.backend.BackendException;
import io.bindfirst.server.pwd.PasswordAttribute;
import io.bindfirst.server.pwd.PasswordPolicy;
import io.bindfirst.server.pwd.PasswordValidator;

/**
 * What a write that changes a password does under the account's password policy, inside its transaction: refuse
 * a password the history remembers, then stamp {@code pwdChangedTime}, clear {@code pwdGraceUseTime} and move the
 * replaced values into {@code pwdHistory}. Thread-safe (no state but the configuration).
 */
public final class PasswordChanges {
    private final Accounts accounts;
    private final PasswordAttribute password;
    private final LongSupplier clock;
    private final AttributeDescription changedTime;
    private final AttributeDescription graceUseTime;
    private final AttributeDescription history;
    private final AttributeDescription reset;

    PasswordChanges(Schema schema, Accounts accounts, PasswordAttribute password, LongSupplier clock) {
        this.accounts = accounts;
        this.password = password;
        this.clock = clock;
        this.changedTime = changedTime(schema);
        this.graceUseTime = graceUseTime(schema);
        this.history = AttributeDescription.valueOf("pwdHistory", schema);
        this.reset = AttributeDescription.valueOf("pwdReset", schema);
    }

    static AttributeDescription changedTime(Schema schema) {
        return AttributeDescription.valueOf("pwdChangedTime", schema);
    }

    static AttributeDescription graceUseTime(Schema schema) {
        return AttributeDescription.valueOf("pwdGraceUseTime", schema);
    }

    /**
     * Refuses a new password that a validator of the account's policy refuses, or that repeats the current one or
     * one of the last {@code ds-cfg-password-history-count} (none when the policy keeps no history). Called inside
     * the write's transaction, with the clear passwords the request gives; each is checked against every
     * remembered value (a hash each). A user changing their own password within the policy's minimum age is
     * refused too.
     *
     * @param bySelf whether the account itself makes the change (not a root user)
     * @throws BackendException constraintViolation naming the rule (never the password)
     */
    public void refuse(Entry current, Iterable<ByteString> clearPasswords, boolean bySelf) throws BackendException {
        PasswordPolicy policy = accounts.policyOf(current);
        if (policy == null) {
            return;
        }
        if (bySelf && !policy.expiry().minAge().isZero()) {
            Attribute changed = current.getAttribute(changedTime);
            if (changed != null && !changed.isEmpty()) {
                long since = clock.getAsLong()
                        - GeneralizedTime.valueOf(changed.firstValueAsString()).getTimeInMillis();
                if (since < policy.expiry().minAge().toMillis()) {
                    throw new PasswordPolicyRefusal(PasswordPolicyErrorType.PASSWORD_TOO_YOUNG, "The password was "
                            + "changed too recently to change it again (ds-cfg-min-password-age: "
                            + policy.expiry().minAge().toSeconds() + " s)");
                }
            }
        }
        refuseWeak(policy, clearPasswords);
        if (policy.historyCount() == 0) {
            return;
        }
        List<ByteString> remembered = new ArrayList<>(password.storedValues(current));
        remembered.addAll(historyValues(current));
        for (ByteString clear : clearPasswords) {
            if (!password.storedMatching(remembered, clear).isEmpty()) {
                throw new PasswordPolicyRefusal(PasswordPolicyErrorType.PASSWORD_IN_HISTORY, "The new password is "
                        + "the current one or one of the last " + policy.historyCount()
                        + " (ds-cfg-password-history-count): choose another");
            }
        }
    }

    /**
     * Refuses a new password that a validator of {@code entry}'s policy refuses (an add: no history to check).
     *
     * @throws BackendException constraintViolation saying what the rule wants
     */
    public void refuseWeak(Entry entry, Iterable<ByteString> clearPasswords) throws BackendException {
        PasswordPolicy policy = accounts.policyOf(entry);
        if (policy != null) {
            refuseWeak(policy, clearPasswords);
        }
    }

    private static void refuseWeak(PasswordPolicy policy, Iterable<ByteString> clearPasswords)
            throws BackendException {
        for (ByteString clear : clearPasswords) {
            for (PasswordValidator v : policy.validators()) {
                String why = v.refusal(clear.toString());
                if (why != null) {
                    throw new PasswordPolicyRefusal(v.errorType(), why);
                }
            }
        }
    }

    /** The stored passwords in {@code pwdHistory}, newest first (draft-behera: time#syntax#length#value). */
    private List<ByteString> historyValues(Entry entry) {
        Attribute h = entry.getAttribute(history);
        if (h == null) {
            return List.of();
        }
        List<String> raw = new ArrayList<>();
        for (ByteString v : h) {
            raw.add(v.toString());
        }
        raw.sort(NEWEST_FIRST);
        List<ByteString> out = new ArrayList<>(raw.size());
        for (String r : raw) {
            String[] parts = r.split("#", 4);
            if (parts.length == 4) {
                out.add(ByteString.valueOfUtf8(parts[3]));
            }
        }
        return out;
    }

    /**
     * Sets {@code pwdChangedTime} on an entry whose password a write changes (and drops its grace logins), or
     * removes it with the password: called by every write that may change a password, inside its transaction.
     * With a password history, the replaced values join {@code pwdHistory}, which keeps the policy's count. An
     * administrator's change sets {@code pwdReset: TRUE} when the policy forces a change on reset; the user's own
     * change removes it.
     *
     * @param before the entry before the write, {@code null} for an add
     * @param byAdministrator whether a root user makes the change (not the account itself)
     */
    public void stamp(Entry before, Entry after, boolean byAdministrator) {
        Set<ByteString> old = before == null ? Set.of() : new HashSet<>(password.storedValues(before));
        Set<ByteString> now = new HashSet<>(password.storedValues(after));
        if (old.equals(now)) {
            return;
        }
        String time = GeneralizedTime.valueOf(clock.getAsLong()).toString();
        PasswordPolicy policy = accounts.policyOf(after);
        if (before != null && policy != null && policy.historyCount() > 0) {
            rememberReplaced(old, now, after, policy.historyCount(), time);
        }
        after.removeAttribute(graceUseTime);
        if (byAdministrator && before != null && policy != null && policy.forceChangeOnReset() && !now.isEmpty()) {
            after.replaceAttribute(new LinkedAttribute(reset, "TRUE"));
        } else {
            after.removeAttribute(reset);
        }
        if (now.isEmpty()) {
            after.removeAttribute(changedTime);
        } else {
            after.replaceAttribute(new LinkedAttribute(changedTime, time));
        }
    }

    /**
     * Newest first by the time that leads a {@code pwdHistory} value, compared as a time: as text, a generalized
     * time without fraction ({@code ...083000Z}) sorts after one with ({@code ...083000.5Z}), and {@code .12Z}
     * after {@code .123Z}, so a text sort could drop the newest values and keep older ones.
     */
    private static final Comparator<String> NEWEST_FIRST =
            Comparator.comparingLong(PasswordChanges::historyTime).reversed();

    private static long historyTime(String historyValue) {
        int end = historyValue.indexOf('#');
        try {
            return GeneralizedTime.valueOf(end < 0 ? historyValue : historyValue.substring(0, end)).getTimeInMillis();
        } catch (RuntimeException e) {
            return Long.MIN_VALUE; // unreadable: the oldest, the first to go
        }
    }

    /** Adds the replaced stored values to {@code pwdHistory}, keeping the newest {@code count}. */
    private void rememberReplaced(Set<ByteString> old, Set<ByteString> now, Entry after, int count, String time) {
        List<String> values = new ArrayList<>();
        for (ByteString v : old) {
            if (!now.contains(v)) {
                values.add(time + "#1.3.6.1.4.1.1466.115.121.1.40#" + v.length() + "#" + v);
            }
        }
        Attribute h = after.getAttribute(history);
        if (h != null) {
            for (ByteString v : h) {
                values.add(v.toString());
            }
        }
        values.sort(NEWEST_FIRST); // stable: values replaced now stay ahead of older ones of the same millisecond
        LinkedAttribute kept = new LinkedAttribute(history);
        for (String v : values.subList(0, Math.min(count, values.size()))) {
            kept.add(v);
        }
        after.replaceAttribute(kept);
    }

}
