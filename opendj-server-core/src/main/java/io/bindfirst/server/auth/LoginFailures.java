package io.bindfirst.server.auth;

import java.util.Arrays;
import java.util.concurrent.ConcurrentHashMap;

import org.forgerock.opendj.ldap.DN;

/**
 * Failed binds per account, counted in memory so that a failed bind writes nothing (OpenLDAP's ppolicy writes
 * {@code pwdFailureTime} to the entry on every failure: a password-guessing storm becomes a write storm).
 * Only the lock the count leads to is written. A restart forgets the counts, never a lock.
 *
 * <p>One record per account with failures that have not yet expired, locked or been followed by a success: its
 * failure times, at most the policy's count. Accounts are existing entries (an unknown DN is never counted),
 * so the map is bounded by the directory. Thread-safe: each account's record changes atomically, so
 * concurrent failures of one account reach the count exactly once.
 */
public final class LoginFailures {
    private final ConcurrentHashMap<DN, long[]> byAccount = new ConcurrentHashMap<>();

    /**
     * Counts a failed bind of {@code account} at {@code nowMillis}.
     *
     * @param count the failures that lock the account (at least 1)
     * @param expiryMillis how long a failure counts; 0 = until a success or the lock
     * @return true for the failure that reaches {@code count}: the caller locks the account; the record is
     *         dropped, so the next failures count from zero
     */
    public boolean failed(DN account, int count, long expiryMillis, long nowMillis) {
        boolean[] reached = new boolean[1];
        byAccount.compute(account, (dn, times) -> {
            long[] kept = unexpired(times, expiryMillis, nowMillis);
            if (kept.length + 1 >= count) {
                reached[0] = true;
                return null;
            }
            long[] next = Arrays.copyOf(kept, kept.length + 1);
            next[kept.length] = nowMillis;
            return next;
        });
        return reached[0];
    }

    /** Forgets the account's failures: a successful bind, a new password, a deleted or renamed entry. */
    public void forget(DN account) {
        if (!byAccount.isEmpty()) { // the common case: no failures at all, and no DN hash to compute
            byAccount.remove(account);
        }
    }

    /** Forgets the failures of every account at or below {@code base}: a subtree deleted or renamed. */
    public void forgetAtOrBelow(DN base) {
        if (!byAccount.isEmpty()) {
            byAccount.keySet().removeIf(dn -> dn.isSubordinateOrEqualTo(base));
        }
    }

    /** The failures of {@code account} that still count at {@code nowMillis}. */
    public int count(DN account, long expiryMillis, long nowMillis) {
        long[] times = byAccount.get(account);
        return times == null ? 0 : unexpired(times, expiryMillis, nowMillis).length;
    }

    /** How many accounts have a record. */
    public int accounts() {
        return byAccount.size();
    }

    private static long[] unexpired(long[] times, long expiryMillis, long nowMillis) {
        if (times == null) {
            return new long[0];
        }
        if (expiryMillis <= 0) {
            return times;
        }
        int first = 0; // times are in order of arrival
        while (first < times.length && nowMillis - times[first] >= expiryMillis) {
            first++;
        }
        return first == 0 ? times : Arrays.copyOfRange(times, first, times.length);
    }
}
