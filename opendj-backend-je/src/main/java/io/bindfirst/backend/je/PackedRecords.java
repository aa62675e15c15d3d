package io.bindfirst.backend.je;

import java.io.DataOutputStream;
import java.io.IOException;
import java.util.Arrays;

import org.forgerock.opendj.ldap.ByteString;

/**
 * One index's records held by a bulk load, packed in one byte array as {@code [key length: 4 bytes][key][id: 8
 * bytes, big-endian]} and sorted through an array of their offsets. A million records are then two arrays the
 * collector does not look into, not two million small objects it must trace and promote while the run fills.
 */
final class PackedRecords {
    private byte[] data = new byte[1 << 16];
    private int used;
    private int[] offsets = new int[1 << 10];
    private int count;

    void add(ByteString key, long id) {
        int length = key.length();
        int need = used + 4 + length + 8;
        if (need < 0) {
            throw new IllegalStateException("more than 2 GiB of index keys in one run");
        }
        if (need > data.length) {
            data = Arrays.copyOf(data, (int) Math.min(Integer.MAX_VALUE - 8, Math.max(need, 2L * data.length)));
        }
        if (count == offsets.length) {
            offsets = Arrays.copyOf(offsets, 2 * count);
        }
        offsets[count++] = used;
        putInt(used, length);
        key.copyTo(data, used + 4);
        putLong(used + 4 + length, id);
        used = need;
    }

    int size() {
        return count;
    }

    /** Bytes held: the caller spills well before the array's 2 GiB bound. */
    int bytes() {
        return used;
    }

    /**
     * Orders the records by key (unsigned bytes), then id: the index database's order. A merge sort of the offsets
     * that compares first the eight key bytes after the prefix all keys share ({@link #prefixes}), kept beside the
     * offsets, and the records themselves only when those are equal: comparing records scattered over the array
     * missed the processor's caches at every step (the sort was a sixth of the storing thread's time).
     */
    void sort() {
        if (count < 2) {
            return;
        }
        long[] fromPrefix = prefixes();
        long[] toPrefix = new long[count];
        int[] from = Arrays.copyOf(offsets, count);
        int[] to = offsets;
        for (int width = 1; width < count; width *= 2) {
            for (int lo = 0; lo < count; lo += 2 * width) {
                int mid = Math.min(lo + width, count);
                int hi = Math.min(lo + 2 * width, count);
                int i = lo;
                int j = mid;
                for (int k = lo; k < hi; k++) {
                    if (i < mid && (j >= hi || notAfter(fromPrefix[i], from[i], fromPrefix[j], from[j]))) {
                        toPrefix[k] = fromPrefix[i];
                        to[k] = from[i++];
                    } else {
                        toPrefix[k] = fromPrefix[j];
                        to[k] = from[j++];
                    }
                }
            }
            int[] swap = from;
            from = to;
            to = swap;
            long[] swapPrefix = fromPrefix;
            fromPrefix = toPrefix;
            toPrefix = swapPrefix;
        }
        if (from != offsets) {
            System.arraycopy(from, 0, offsets, 0, count);
        }
    }

    private boolean notAfter(long prefixA, int a, long prefixB, int b) {
        int c = Long.compareUnsigned(prefixA, prefixB);
        return c < 0 || c == 0 && compare(a, b) <= 0;
    }

    /**
     * Per record (in the order held), the eight key bytes after the prefix every key shares, big-endian, zeros past
     * the key's end. Their unsigned order never contradicts the keys': where two differ, the first difference is
     * either two key bytes or a key that ended (a zero) against a longer key's byte, and a key is ordered before
     * the longer keys it begins.
     */
    private long[] prefixes() {
        int shared = keyLength(offsets[0]);
        int first = offsets[0] + 4;
        for (int i = 1; i < count && shared > 0; i++) {
            int at = offsets[i];
            int length = Math.min(shared, keyLength(at));
            int mismatch = Arrays.mismatch(data, first, first + length, data, at + 4, at + 4 + length);
            shared = mismatch < 0 ? length : mismatch;
        }
        long[] prefixes = new long[count];
        for (int i = 0; i < count; i++) {
            int at = offsets[i];
            int start = at + 4 + shared;
            int end = Math.min(start + 8, at + 4 + keyLength(at));
            long prefix = 0;
            for (int b = start; b < end; b++) {
                prefix = prefix << 8 | (data[b] & 0xffL);
            }
            prefixes[i] = prefix << 8 * (8 - (end - start));
        }
        return prefixes;
    }

    private int compare(int a, int b) {
        int la = keyLength(a);
        int lb = keyLength(b);
        int c = Arrays.compareUnsigned(data, a + 4, a + 4 + la, data, b + 4, b + 4 + lb);
        return c != 0 ? c : Arrays.compareUnsigned(data, a + 4 + la, a + 12 + la, data, b + 4 + lb, b + 12 + lb);
    }

    /** The array holding the records (valid until the next {@link #add} or {@link #clear}). */
    byte[] data() {
        return data;
    }

    /** Where the {@code i}th record (in sorted order, once sorted) starts in {@link #data()}. */
    int offset(int i) {
        return offsets[i];
    }

    int keyLength(int offset) {
        return (data[offset] & 0xff) << 24 | (data[offset + 1] & 0xff) << 16 | (data[offset + 2] & 0xff) << 8
                | (data[offset + 3] & 0xff);
    }

    long id(int offset) {
        long id = 0;
        for (int i = offset + 4 + keyLength(offset), end = i + 8; i < end; i++) {
            id = (id << 8) | (data[i] & 0xffL);
        }
        return id;
    }

    /** Writes the records, in their order, as {@link IndexRunMerge} reads a run file: a count, then each record. */
    void writeTo(DataOutputStream out) throws IOException {
        out.writeInt(count);
        for (int i = 0; i < count; i++) {
            int offset = offsets[i];
            out.write(data, offset, 4 + keyLength(offset) + 8);
        }
    }

    /** Forgets the records, keeping the arrays for the next run. */
    void clear() {
        used = 0;
        count = 0;
    }

    private void putInt(int at, int value) {
        data[at] = (byte) (value >>> 24);
        data[at + 1] = (byte) (value >>> 16);
        data[at + 2] = (byte) (value >>> 8);
        data[at + 3] = (byte) value;
    }

    private void putLong(int at, long value) {
        for (int i = at + 7; i >= at; i--) {
            data[i] = (byte) value;
            value >>>= 8;
        }
    }
}
