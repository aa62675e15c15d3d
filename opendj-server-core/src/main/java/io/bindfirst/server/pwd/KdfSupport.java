package io.bindfirst.server.pwd;

import java.util.Base64;

/** Parsing shared by the key-derivation schemes; every method returns a sentinel rather than throw. */
final class KdfSupport {

    /** Most bytes of salt a stored value may bring (real ones have 8 to 64): more is taken as malformed. */
    static final int MAX_SALT_LENGTH = 1024;

    private KdfSupport() {
    }

    /**
     * The plain ASCII decimal {@code s[from, to)}, or -1 if it is empty, has anything but digits, or is above
     * {@code max}. Stops at the first digit that takes it over {@code max}, so a long run cannot overflow.
     */
    static long parseDecimal(String s, int from, int to, long max) {
        if (from < 0 || from >= to || to > s.length()) {
            return -1;
        }
        long n = 0;
        for (int i = from; i < to; i++) {
            char c = s.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
            n = n * 10 + (c - '0');
            if (n > max) {
                return -1;
            }
        }
        return n;
    }

    /**
     * Decodes passlib's "adapted base64" (standard base64 with {@code '.'} for {@code '+'} and no padding), which
     * OpenLDAP's PBKDF2 module writes, and also standard base64 with padding, which 389 Directory Server's
     * writes in the same place. {@code null} if it is neither, or empty.
     */
    static byte[] decodeAb64(String s) {
        if (s.isEmpty()) {
            return null;
        }
        return SchemeSupport.decodeBase64(s.replace('.', '+')); // the JDK's decoder accepts missing padding
    }

    static String encodeAb64(byte[] bytes) {
        return Base64.getEncoder().withoutPadding().encodeToString(bytes).replace('+', '.');
    }

    /** Unpadded standard base64, as in PHC strings; {@code null} if malformed or padded. */
    static byte[] decodeUnpaddedBase64(String s) {
        if (s.isEmpty() || s.indexOf('=') >= 0) {
            return null;
        }
        return SchemeSupport.decodeBase64(s);
    }

    static String encodeUnpaddedBase64(byte[] bytes) {
        return Base64.getEncoder().withoutPadding().encodeToString(bytes);
    }
}
