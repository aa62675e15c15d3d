package io.bindfirst.server.pwd;

import java.security.GeneralSecurityException;
import java.util.Arrays;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

import org.forgerock.opendj.ldap.ByteSequence;

/**
 * PBKDF2 (RFC 8018 5.2) computed with the JDK's {@code Mac} so that the iteration loop can call a {@link Pacer}:
 * a verification of millions of iterations then gives way to cheap binds instead of holding a core for seconds.
 * With HMAC-SHA-256 the result is the JDK's {@code PBKDF2WithHmacSHA256} bit for bit (a unit test compares
 * them). Keys longer than one block of the PRF (389 Directory Server's 256-byte ones) are computed block by
 * block, as the RFC says, each block costing the full iteration count.
 */
final class Pbkdf2Paced {
    private static final int PACE_EVERY = 1024;

    private Pbkdf2Paced() {
    }

    /**
     * HMAC-SHA-256 over the password's UTF-8 bytes, like the JDK's: {@code null} if the password is empty or
     * not valid UTF-8, or if the key is longer than one block.
     */
    static byte[] derive(ByteSequence clear, byte[] salt, int iterations, int keyLength, Pacer pacer) {
        if (keyLength > Pbkdf2Prf.SHA256.blockLength()) {
            throw new IllegalArgumentException("one block of key at most");
        }
        return deriveUtf8(Pbkdf2Prf.SHA256, clear, salt, iterations, keyLength, pacer);
    }

    /** {@link #deriveBytes}, but {@code null} unless the password is valid UTF-8 (as the JDK's PBKDF2 wants). */
    static byte[] deriveUtf8(Pbkdf2Prf prf, ByteSequence clear, byte[] salt, int iterations, int keyLength,
                             Pacer pacer) {
        char[] valid = Pbkdf2HmacSha256Scheme.utf8Chars(clear);
        if (valid == null || valid.length == 0) {
            return null;
        }
        Arrays.fill(valid, '\0');
        return deriveBytes(prf, clear, salt, iterations, keyLength, pacer);
    }

    /**
     * The derived key of {@code keyLength} bytes, the password taken as the bytes presented (as OpenLDAP and 389
     * Directory Server do); {@code null} if the password is empty or the JDK refuses the input.
     */
    static byte[] deriveBytes(Pbkdf2Prf prf, ByteSequence clear, byte[] salt, int iterations, int keyLength,
                              Pacer pacer) {
        if (clear == null || clear.isEmpty() || iterations < 1 || keyLength < 1) {
            return null;
        }
        int block = prf.blockLength();
        byte[] password = clear.toByteArray();
        byte[] u = new byte[block];
        byte[] t = new byte[block];
        byte[] key = new byte[keyLength];
        Mac mac = prf.mac();
        try {
            mac.init(new SecretKeySpec(password, prf.hmac()));
            int paced = 0;
            for (int index = 1, done = 0; done < keyLength; index++, done += block) {
                mac.update(salt);
                mac.update(new byte[] {(byte) (index >>> 24), (byte) (index >>> 16), (byte) (index >>> 8),
                    (byte) index}); // INT(i): the block's number
                mac.doFinal(u, 0);
                System.arraycopy(u, 0, t, 0, block);
                for (int i = 1; i < iterations; i++) {
                    mac.update(u);
                    mac.doFinal(u, 0);
                    for (int j = 0; j < block; j++) {
                        t[j] ^= u[j];
                    }
                    if (++paced % PACE_EVERY == 0) {
                        pacer.pace();
                    }
                }
                System.arraycopy(t, 0, key, done, Math.min(block, keyLength - done));
            }
            return key;
        } catch (GeneralSecurityException | IllegalArgumentException e) {
            return null; // not rethrown nor logged: the cause could describe the input
        } finally {
            Arrays.fill(password, (byte) 0);
            Arrays.fill(u, (byte) 0);
            Arrays.fill(t, (byte) 0);
        }
    }
}
