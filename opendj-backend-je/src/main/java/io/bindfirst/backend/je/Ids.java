package io.bindfirst.backend.je;

import com.sleepycat.je.DatabaseEntry;

/** Entry ids as 8-byte big-endian keys/values, so JE's byte order is numeric order for positive ids. */
final class Ids {
    /**
     * The id under an index key that stands for all of the key's entries when a bulk load found more of them than
     * a search would read ({@link IndexQuery#ENTRY_LIMIT}): the key's ids are then not kept, and a search on it
     * walks its scope, as it would have anyway. Entries are numbered from 1, so this names none, and it sorts
     * before every other id of its key.
     */
    static final long OVER_LIMIT = 0;

    private Ids() {
    }

    static DatabaseEntry entry(long id) {
        byte[] bytes = new byte[8];
        for (int i = 7; i >= 0; i--) {
            bytes[i] = (byte) id;
            id >>>= 8;
        }
        return new DatabaseEntry(bytes);
    }

    static long of(DatabaseEntry entry) {
        byte[] bytes = entry.getData();
        int offset = entry.getOffset();
        long id = 0;
        for (int i = 0; i < 8; i++) {
            id = (id << 8) | (bytes[offset + i] & 0xffL);
        }
        return id;
    }
}
