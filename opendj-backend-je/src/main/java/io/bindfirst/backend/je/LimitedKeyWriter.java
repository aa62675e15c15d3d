package io.bindfirst.backend.je;

import java.util.Arrays;

import com.sleepycat.je.Cursor;
import com.sleepycat.je.DatabaseEntry;

/**
 * Writes an index's records, in key order, as a bulk load has them, one key at a time: a key with more ids than
 * {@code limit} is written as one record, its {@link Ids#OVER_LIMIT} marker, instead of its ids. A search never
 * reads such a key (it walks the scope instead), so its ids would only cost the load time and disk: in a million
 * users, the four objectClass values of every entry alone are four million records (OpenDJ's index entry limit
 * and slapd's ID ranges spare them too). The key's ids are held until it is known to be within the limit.
 */
final class LimitedKeyWriter {
    private final Cursor cursor;
    private final int limit;
    private byte[] key = new byte[64];
    private int keyLength = -1;
    private long[] ids = new long[16];
    private int count;
    private boolean over;
    private long written;

    /** @param limit the most ids a key keeps */
    LimitedKeyWriter(Cursor cursor, int limit) {
        this.cursor = cursor;
        this.limit = limit;
    }

    /** Takes the next record: {@code key} no smaller than the last one's, ids of one key ascending. */
    void add(DatabaseEntry recordKey, long id) {
        if (!sameKey(recordKey)) {
            flush();
            keyLength = recordKey.getSize();
            if (key.length < keyLength) {
                key = new byte[Math.max(keyLength, 2 * key.length)];
            }
            System.arraycopy(recordKey.getData(), recordKey.getOffset(), key, 0, keyLength);
        }
        if (over) {
            return;
        }
        if (count == limit) {
            over = true;
            return;
        }
        if (count == ids.length) {
            ids = Arrays.copyOf(ids, Math.min(limit, 2 * count));
        }
        ids[count++] = id;
    }

    /** Writes what the last key holds; the records written in all. */
    long finish() {
        flush();
        return written;
    }

    private boolean sameKey(DatabaseEntry other) {
        return keyLength == other.getSize() && Arrays.equals(key, 0, keyLength, other.getData(), other.getOffset(),
                other.getOffset() + other.getSize());
    }

    private void flush() {
        if (keyLength < 0) {
            return;
        }
        DatabaseEntry k = new DatabaseEntry(key, 0, keyLength);
        if (over) {
            cursor.put(k, Ids.entry(Ids.OVER_LIMIT));
            written++;
        } else {
            for (int i = 0; i < count; i++) {
                cursor.put(k, Ids.entry(ids[i]));
            }
            written += count;
        }
        count = 0;
        over = false;
    }
}
