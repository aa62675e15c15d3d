package io.bindfirst.server.pwd;

import java.time.Duration;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Set;

import org.forgerock.i18n.LocalizedIllegalArgumentException;
import org.forgerock.opendj.ldap.DN;
import org.forgerock.opendj.ldap.GeneralizedTime;

/**
 * One password policy's lockout settings (draft-behera-ldap-password-policy, with OpenDJ's setting names): an
 * entry under {@code cn=Password Policies,cn=config}. Immutable.
 *
 * @param dn the policy's configuration entry, which a user's {@code ds-pwp-password-policy-dn} names
 * @param lockoutFailureCount failed binds that lock the account ({@code ds-cfg-lockout-failure-count}); 0 = never
 * @param lockoutDuration how long a lock lasts ({@code ds-cfg-lockout-duration}); zero = until an administrator
 *        deletes {@code pwdAccountLockedTime}
 * @param failureExpiration how long a failed bind counts ({@code ds-cfg-lockout-failure-expiration-interval});
 *        zero = until a successful bind or the lock
 * @param expiry how long a password lasts, and what a bind with an old one gets
 * @param historyCount how many earlier passwords a new one may not repeat ({@code ds-cfg-password-history-count},
 *        kept in {@code pwdHistory}); 0 = none (the current one may be set again)
 * @param validators the rules a new password must follow ({@code ds-cfg-password-validator}); none by default
 * @param forceChangeOnReset whether a password an administrator sets must be changed by its user before anything
 *        else ({@code ds-cfg-force-change-on-reset}: sets {@code pwdReset})
 * @param onBind what a successful bind writes to the account, after its answer (nothing by default)
 */
public record PasswordPolicy(DN dn, int lockoutFailureCount, Duration lockoutDuration, Duration failureExpiration,
                             Expiry expiry, int historyCount, List<PasswordValidator> validators,
                             boolean forceChangeOnReset, OnBind onBind) {

    /**
     * What a successful bind writes to its account under this policy: never once per bind, and after the bind
     * answers (the bind waits for no write). Immutable.
     *
     * @param lastLoginAttribute where the time of the last successful bind is kept
     *        ({@code ds-cfg-last-login-time-attribute}, as in OpenDJ); {@code null} = not kept
     * @param lastLoginFormat how that time is written ({@code ds-cfg-last-login-time-format}, a
     *        {@link DateTimeFormatter} pattern, in UTC): its precision is how often a bind writes it, since a bind
     *        writes only when the formatted value differs from the stored one ({@code yyyyMMdd}: once a day per
     *        account)
     * @param deprecatedSchemes storage schemes a successful bind moves the password off
     *        ({@code ds-cfg-deprecated-password-storage-scheme}, names in upper case): the matching value is
     *        replaced with one in the default scheme
     * @param maxRehashesPerSecond at most this many such replacements a second
     *        ({@code ds-cfg-max-rehashes-per-second}), so that a migration's first morning cannot flood the write
     *        path; binds beyond it are moved later
     */
    public record OnBind(String lastLoginAttribute, DateTimeFormatter lastLoginFormat, Set<String> deprecatedSchemes,
                         int maxRehashesPerSecond) {
        /** Nothing written: the default. */
        public static final OnBind NOTHING = new OnBind(null, null, Set.of(), 0);

        public OnBind {
            if ((lastLoginAttribute == null) != (lastLoginFormat == null) || maxRehashesPerSecond < 0) {
                throw new IllegalArgumentException("a last-login attribute needs a format, and a format an attribute");
            }
            deprecatedSchemes = Set.copyOf(deprecatedSchemes);
        }

        public boolean recordsLastLogin() {
            return lastLoginAttribute != null;
        }

        public boolean rehashes() {
            return !deprecatedSchemes.isEmpty() && maxRehashesPerSecond > 0;
        }
    }

    /** Without anything written by a bind. */
    public PasswordPolicy(DN dn, int lockoutFailureCount, Duration lockoutDuration, Duration failureExpiration,
                          Expiry expiry, int historyCount, List<PasswordValidator> validators,
                          boolean forceChangeOnReset) {
        this(dn, lockoutFailureCount, lockoutDuration, failureExpiration, expiry, historyCount, validators,
                forceChangeOnReset, OnBind.NOTHING);
    }

    /**
     * Password expiry (OpenDJ's settings).
     *
     * @param maxAge how long after {@code pwdChangedTime} a password expires ({@code ds-cfg-max-password-age});
     *        zero = never
     * @param warning how long before then a bind with the Password Policy control is told the time left
     *        ({@code ds-cfg-password-expiration-warning-interval})
     * @param graceLogins binds an expired password may still make, each recorded in {@code pwdGraceUseTime}
     *        ({@code ds-cfg-grace-login-count}); 0 = none: an expired password binds no more
     * @param minAge how long after {@code pwdChangedTime} its user may change the password again
     *        ({@code ds-cfg-min-password-age}; an administrator's reset is not held back); zero = at once
     */
    public record Expiry(Duration maxAge, Duration warning, int graceLogins, Duration minAge) {
        /** Passwords never expire (with OpenDJ's default warning interval, which matters only with an age). */
        public static final Expiry NEVER = new Expiry(Duration.ZERO, Duration.ofDays(5), 0);

        public Expiry {
            if (maxAge.isNegative() || warning.isNegative() || graceLogins < 0 || minAge.isNegative()) {
                throw new IllegalArgumentException("negative password age setting");
            }
        }

        /** Without a minimum age. */
        public Expiry(Duration maxAge, Duration warning, int graceLogins) {
            this(maxAge, warning, graceLogins, Duration.ZERO);
        }

        public boolean expires() {
            return !maxAge.isZero();
        }
    }

    /** Lockout settings only: passwords never expire. */
    public PasswordPolicy(DN dn, int lockoutFailureCount, Duration lockoutDuration, Duration failureExpiration) {
        this(dn, lockoutFailureCount, lockoutDuration, failureExpiration, Expiry.NEVER, 0, List.of(), false);
    }

    public PasswordPolicy withExpiry(Expiry newExpiry) {
        return new PasswordPolicy(dn, lockoutFailureCount, lockoutDuration, failureExpiration, newExpiry,
                historyCount, validators, forceChangeOnReset, onBind);
    }

    public PasswordPolicy withHistoryCount(int count) {
        return new PasswordPolicy(dn, lockoutFailureCount, lockoutDuration, failureExpiration, expiry, count,
                validators, forceChangeOnReset, onBind);
    }

    public PasswordPolicy withValidators(List<PasswordValidator> newValidators) {
        return new PasswordPolicy(dn, lockoutFailureCount, lockoutDuration, failureExpiration, expiry,
                historyCount, newValidators, forceChangeOnReset, onBind);
    }

    public PasswordPolicy withForceChangeOnReset(boolean on) {
        return new PasswordPolicy(dn, lockoutFailureCount, lockoutDuration, failureExpiration, expiry,
                historyCount, validators, on, onBind);
    }

    public PasswordPolicy withOnBind(OnBind newOnBind) {
        return new PasswordPolicy(dn, lockoutFailureCount, lockoutDuration, failureExpiration, expiry,
                historyCount, validators, forceChangeOnReset, newOnBind);
    }

    /** draft-behera's value of {@code pwdAccountLockedTime} for "locked until an administrator unlocks it". */
    public static final String LOCKED_UNTIL_RESET = "000001010000Z";

    public PasswordPolicy {
        if (lockoutFailureCount < 0 || lockoutDuration.isNegative() || failureExpiration.isNegative()
                || historyCount < 0) {
            throw new IllegalArgumentException("negative lockout setting in " + dn);
        }
        validators = List.copyOf(validators);
    }

    /** A policy that never locks an account by itself: every {@code pwdAccountLockedTime} locks until deleted. */
    public static PasswordPolicy withoutLockout(DN dn) {
        return new PasswordPolicy(dn, 0, Duration.ZERO, Duration.ZERO);
    }

    /** Whether failed binds lock the account. */
    public boolean locksOut() {
        return lockoutFailureCount > 0;
    }

    /**
     * Whether a {@code pwdAccountLockedTime} value locks the account at {@code nowMillis}: always when the lock
     * lasts until reset (no duration, or the draft's {@value #LOCKED_UNTIL_RESET}); otherwise until the value
     * plus the duration. A value that is not a generalized time locks: an unreadable lock must not unlock.
     */
    public boolean locks(String lockedTime, long nowMillis) {
        if (lockoutDuration.isZero() || lockedTime.startsWith("00000101")) {
            return true;
        }
        try {
            long at = GeneralizedTime.valueOf(lockedTime).getTimeInMillis();
            return nowMillis - at < lockoutDuration.toMillis();
        } catch (LocalizedIllegalArgumentException e) {
            return true;
        }
    }
}
