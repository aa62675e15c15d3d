package io.bindfirst.server.pwd;

import java.util.Arrays;

import org.forgerock.opendj.ldap.ByteSequence;

/**
 * OpenDJ's {@code {PBKDF2-HMAC-SHA512}} scheme: {@link Pbkdf2HmacSha256Scheme}'s layout
 * {@code <iterations>:<base64(derivedKey + salt)>} with HMAC-SHA-512 and a 64-byte key (OpenDJ writes 8 bytes of
 * salt after it and reads whatever follows the key as salt, as this class does).
 *
 * <p>As for the SHA-256 variant, the password must be valid UTF-8 and is used as those bytes. The stored count
 * is honoured while its work, counted in HMAC-SHA-256 iterations (three per SHA-512 one, see
 * {@link Pbkdf2Prf}), stays within {@link Pbkdf2HmacSha256Scheme#MAX_ITERATIONS}.
 */
public final class Pbkdf2HmacSha512Scheme extends Pbkdf2Encoding {

    /** The scheme name. */
    public static final String NAME = "PBKDF2-HMAC-SHA512";
    /** Iterations of newly encoded values: OpenDJ's default. */
    public static final int DEFAULT_ITERATIONS = 10_000;
    /** Bytes of random salt in newly encoded values. */
    public static final int SALT_LENGTH = 16;
    /** Bytes of derived key at the start of the decoded value. */
    public static final int KEY_LENGTH = 64;

    private static final Pbkdf2Prf PRF = Pbkdf2Prf.SHA512;

    public Pbkdf2HmacSha512Scheme() {
        super(SALT_LENGTH, DEFAULT_ITERATIONS);
    }

    @Override
    public String name() {
        return NAME;
    }

    /** Encodes with the given salt and count; lets tests compare against independently computed values. */
    @Override
    String encodeValue(ByteSequence clear, byte[] salt, int iterations) {
        SchemeSupport.requireNonEmptyPassword(clear);
        if (salt.length == 0 || !PRF.affordable(iterations, KEY_LENGTH)) {
            throw new IllegalArgumentException("Empty salt, or iterations out of range: " + iterations);
        }
        byte[] key = Pbkdf2Paced.deriveUtf8(PRF, clear, salt, iterations, KEY_LENGTH, Pacer.NONE);
        if (key == null) {
            throw new IllegalArgumentException("A " + NAME + " password must be valid UTF-8");
        }
        byte[] value = Arrays.copyOf(key, KEY_LENGTH + salt.length);
        System.arraycopy(salt, 0, value, KEY_LENGTH, salt.length);
        return iterations + ":" + SchemeSupport.encodeBase64(value);
    }

    @Override
    public boolean matches(ByteSequence clear, String encodedValue) {
        return matches(clear, encodedValue, Pacer.NONE);
    }

    @Override
    public boolean matches(ByteSequence clear, String encodedValue, Pacer pacer) {
        if (clear == null || clear.isEmpty() || encodedValue == null) {
            return false;
        }
        int colon = encodedValue.indexOf(':');
        long iterations = iterations(encodedValue, colon);
        if (iterations < 0) {
            return false;
        }
        byte[] decoded = SchemeSupport.decodeBase64(encodedValue.substring(colon + 1));
        if (decoded == null || decoded.length <= KEY_LENGTH
                || decoded.length > KEY_LENGTH + KdfSupport.MAX_SALT_LENGTH) {
            return false; // malformed, no salt at all, or an absurd one
        }
        byte[] salt = Arrays.copyOfRange(decoded, KEY_LENGTH, decoded.length);
        byte[] actual = Pbkdf2Paced.deriveUtf8(PRF, clear, salt, (int) iterations, KEY_LENGTH,
                pacer == null ? Pacer.NONE : pacer);
        return actual != null && ConstantTime.equals(actual, Arrays.copyOf(decoded, KEY_LENGTH));
    }

    /** Three per stored iteration (see {@link Pbkdf2Prf}); 1 for a malformed value, which costs nothing. */
    @Override
    public long workFactor(String encodedValue) {
        long n = encodedValue == null ? -1 : iterations(encodedValue, encodedValue.indexOf(':'));
        return n < 0 ? 1 : PRF.workFactor(n, KEY_LENGTH);
    }

    private static long iterations(String encodedValue, int colon) {
        long n = KdfSupport.parseDecimal(encodedValue, 0, colon, Integer.MAX_VALUE);
        return PRF.affordable(n, KEY_LENGTH) ? n : -1;
    }

    @Override
    public String toString() {
        return "Pbkdf2HmacSha512Scheme{iterations=" + DEFAULT_ITERATIONS + "}";
    }
}
