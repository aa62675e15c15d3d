package io.bindfirst.server.pwd;

import java.security.GeneralSecurityException;
import java.util.Arrays;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

import org.forgerock.opendj.ldap.ByteSequence;

/**
 * PBKDF2 with HMAC-SHA-256 (RFC 8018 5.2) for keys of at most one block (32 bytes), computed with the JDK's
 * {@code Mac} so that the iteration loop can call a {@link Pacer}: a verification of millions of iterations
 * then gives way to cheap binds instead of holding a core for seconds. The result is the JDK's
 * {@code PBKDF2WithHmacSHA256} bit for bit (a unit test compares them); like it, the password is used as its
 * UTF-8 bytes, and a password that is not valid UTF-8 derives nothing.
 */
final class Pbkdf2Paced {
    private static final String HMAC = "HmacSHA256";
    private static final int BLOCK = 32;
    private static final int PACE_EVERY = 1024;
    private static final ThreadLocal<Mac> MACS = ThreadLocal.withInitial(() -> {
        try {
            return Mac.getInstance(HMAC);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("The JDK has no " + HMAC, e);
        }
    });

    private Pbkdf2Paced() {
    }

    /** The derived key, or {@code null} if the password is empty or not valid UTF-8. */
    static byte[] derive(ByteSequence clear, byte[] salt, int iterations, int keyLength, Pacer pacer) {
        if (keyLength > BLOCK) {
            throw new IllegalArgumentException("one block of key at most");
        }
        char[] valid = Pbkdf2HmacSha256Scheme.utf8Chars(clear);
        if (valid == null || valid.length == 0) {
            return null;
        }
        Arrays.fill(valid, '\0');
        byte[] password = clear.toByteArray();
        byte[] u = new byte[BLOCK];
        byte[] t = new byte[BLOCK];
        Mac mac = MACS.get();
        try {
            mac.init(new SecretKeySpec(password, HMAC));
            mac.update(salt);
            mac.update(new byte[] {0, 0, 0, 1}); // INT(1): the first and only block
            mac.doFinal(u, 0);
            System.arraycopy(u, 0, t, 0, BLOCK);
            for (int i = 1; i < iterations; i++) {
                mac.update(u);
                mac.doFinal(u, 0);
                for (int j = 0; j < BLOCK; j++) {
                    t[j] ^= u[j];
                }
                if (i % PACE_EVERY == 0) {
                    pacer.pace();
                }
            }
            return Arrays.copyOf(t, keyLength);
        } catch (GeneralSecurityException e) {
            return null; // not rethrown nor logged: the cause could describe the input
        } finally {
            Arrays.fill(password, (byte) 0);
            Arrays.fill(u, (byte) 0);
            Arrays.fill(t, (byte) 0);
        }
    }
}
