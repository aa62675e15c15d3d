package io.bindfirst.server.pwd;

import java.security.GeneralSecurityException;

import javax.crypto.Mac;

/**
 * The HMACs PBKDF2 is used with here, and what one iteration costs compared with one of HMAC-SHA-256.
 *
 * <p>The costs were measured once with the JDK 17 {@code PBKDF2WithHmac*} factories (200,000 iterations, best
 * of 7, on the 2-core build machine): about 177 ns per SHA-1 iteration, 185 ns per SHA-256 one and 593 ns per
 * SHA-512 one. SHA-512 is therefore counted 3 (its 64-bit words do not make up for hashing 128-byte blocks:
 * every iteration hashes two of them), SHA-1 counted 1, like SHA-256.
 */
enum Pbkdf2Prf {
    SHA1("HmacSHA1", 20, 1),
    SHA256("HmacSHA256", 32, 1),
    SHA512("HmacSHA512", 64, 3);

    private final String hmac;
    private final int blockLength;
    private final int cost;
    /** {@link Mac} is not thread-safe, so one per thread; {@code init} resets it before each use. */
    private final ThreadLocal<Mac> macs;

    Pbkdf2Prf(String hmac, int blockLength, int cost) {
        this.hmac = hmac;
        this.blockLength = blockLength;
        this.cost = cost;
        newMac(hmac); // fails fast if the JDK lacks it (all three are mandatory)
        this.macs = ThreadLocal.withInitial(() -> newMac(hmac));
    }

    private static Mac newMac(String hmac) {
        try {
            return Mac.getInstance(hmac);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("The JDK has no " + hmac, e);
        }
    }

    String hmac() {
        return hmac;
    }

    /** Bytes of output of one HMAC, hence of one PBKDF2 block. */
    int blockLength() {
        return blockLength;
    }

    Mac mac() {
        return macs.get();
    }

    /**
     * The cost of deriving {@code keyLength} bytes in {@code iterations}, in HMAC-SHA-256 iterations: every block
     * of key costs all the iterations.
     */
    long workFactor(long iterations, int keyLength) {
        long blocks = (keyLength + blockLength - 1) / blockLength;
        return iterations * blocks * cost;
    }

    /** Whether that work stays within the cap every scheme shares, {@link Pbkdf2HmacSha256Scheme#MAX_ITERATIONS}. */
    boolean affordable(long iterations, int keyLength) {
        return iterations >= 1 && keyLength >= 1 && workFactor(iterations, keyLength)
                <= Pbkdf2HmacSha256Scheme.MAX_ITERATIONS;
    }
}
