package io.bindfirst.backend.je;

import java.util.HashMap;
import java.util.Map;

import org.forgerock.opendj.ldap.ByteString;

/**
 * Which of a bulk load's records of one index need not be held: those of a key that already has one more record
 * than the index's limit. {@link LimitedKeyWriter} writes such a key as its over-the-limit marker whatever its
 * other ids, so holding, sorting, spilling and merging them is work for nothing, and at a million users it is most
 * of the work: the four objectClass values and the shared givenName of every entry are five million of the six
 * indexes' nine million records.
 *
 * <p>The keys that repeat are few (a handful of objectClass values, the common first names), so the first
 * {@link #TRACKED} distinct keys are counted and no more; when those keys have all come once, the index is one of
 * unique values (uid, mail) and counting stops. A key that is first seen after that is held in full and written as
 * a marker all the same: only its records are not spared.
 */
final class OverLimitKeys {
    /** The most distinct keys counted per index. */
    static final int TRACKED = 1024;

    private final int limit;
    private final Map<ByteString, int[]> counts = new HashMap<>();
    private boolean counting = true;
    private boolean repeated;

    /** @param limit the most ids a key keeps ({@link LimitedKeyWriter}) */
    OverLimitKeys(int limit) {
        this.limit = limit;
    }

    /** Whether to hold the next record of {@code key}: no once limit + 1 were held, enough for the marker. */
    boolean hold(ByteString key) {
        if (!counting) {
            return true;
        }
        int[] count = counts.get(key);
        if (count == null) {
            if (counts.size() < TRACKED) {
                counts.put(key, new int[] {1});
            } else if (!repeated) {
                counting = false;
                counts.clear();
            }
            return true;
        }
        repeated = true;
        if (count[0] > limit) {
            return false;
        }
        count[0]++;
        return true;
    }

    /** Starts again, for records added after the index was written. */
    void reset() {
        counts.clear();
        counting = true;
        repeated = false;
    }
}
