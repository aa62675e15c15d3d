package io.bindfirst.server.pwd;

import java.security.MessageDigest;
import java.util.Objects;

/** Comparisons whose running time does not reveal where two secrets differ. */
public final class ConstantTime {

    private ConstantTime() {
    }

    /**
     * Whether {@code a} and {@code b} hold the same bytes, in time independent of their contents.
     *
     * <p>Delegates to {@link MessageDigest#isEqual}: since JDK 6u17 it no longer returns at the first
     * differing byte but ORs the differences of all bytes together, and on JDK 17 its loop always
     * runs over all of {@code a} (indexing into {@code b} without branching on the contents), so
     * neither the position of a difference nor the contents affect the time. Only the length of
     * {@code a} does: pass the value whose length the caller may know (the presented password, or a
     * digest of fixed length) as {@code a}.
     *
     * @return {@code false} if either array is {@code null} (even both): a missing secret never
     *         matches
     */
    public static boolean equals(byte[] a, byte[] b) {
        if (a == null || b == null) {
            return false;
        }
        return MessageDigest.isEqual(a, b);
    }

    /**
     * Whether {@code a[aFrom, aFrom + length)} and {@code b[bFrom, bFrom + length)} hold the same bytes, in time
     * that depends on {@code length} only: every byte is compared, the differences ORed together, and the loop
     * never leaves early. For secrets kept in buffers longer than they are (a digest in a reused array).
     *
     * @throws IndexOutOfBoundsException if either range is not inside its array
     */
    public static boolean equals(byte[] a, int aFrom, byte[] b, int bFrom, int length) {
        Objects.checkFromIndexSize(aFrom, length, a.length);
        Objects.checkFromIndexSize(bFrom, length, b.length);
        int difference = 0;
        for (int i = 0; i < length; i++) {
            difference |= a[aFrom + i] ^ b[bFrom + i];
        }
        return difference == 0;
    }
}
