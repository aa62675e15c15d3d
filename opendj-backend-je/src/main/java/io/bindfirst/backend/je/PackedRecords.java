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

    /** Orders the records by key (unsigned bytes), then id: the index database's order. */
    void sort() {
        int[] from = Arrays.copyOf(offsets, count);
        int[] to = offsets;
        // bottom-up merge sort of the offsets, comparing the records they point at
        for (int width = 1; width < count; width *= 2) {
            for (int lo = 0; lo < count; lo += 2 * width) {
                int mid = Math.min(lo + width, count);
                int hi = Math.min(lo + 2 * width, count);
                int i = lo;
                int j = mid;
                for (int k = lo; k < hi; k++) {
                    to[k] = i < mid && (j >= hi || compare(from[i], from[j]) <= 0) ? from[i++] : from[j++];
                }
            }
            int[] swap = from;
            from = to;
            to = swap;
        }
        if (from != offsets) {
            System.arraycopy(from, 0, offsets, 0, count);
        }
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
