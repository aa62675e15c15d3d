package io.bindfirst.server.pwd;

import java.security.MessageDigest;

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
}
