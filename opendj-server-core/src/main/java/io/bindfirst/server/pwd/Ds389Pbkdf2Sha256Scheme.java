package io.bindfirst.server.pwd;

import java.util.Arrays;

import org.forgerock.opendj.ldap.ByteSequence;

/**
 * 389 Directory Server's {@code {PBKDF2_SHA256}} scheme (its original, NSS-based one, with an underscore; the
 * dashed {@code {PBKDF2-SHA256}} of its newer plugin is {@link OpenLdapPbkdf2Scheme}'s shape). The encoded value
 * is the base64 of exactly 324 bytes: the iteration count as 4 bytes big-endian, 64 bytes of salt, and a
 * 256-byte key derived with HMAC-SHA-256.
 *
 * <p>A 256-byte key is eight PBKDF2 blocks, each costing the full iteration count, so the work factor is eight
 * times the count, and the cap ({@link Pbkdf2HmacSha256Scheme#MAX_ITERATIONS} in SHA-256 iterations) allows
 * 1,250,000 stored iterations. The password is used as the bytes presented, as 389 does.
 */
public final class Ds389Pbkdf2Sha256Scheme extends Pbkdf2Encoding {

    /** The scheme name. */
    public static final String NAME = "PBKDF2_SHA256";
    /** Iterations of newly encoded values: 389's built-in starting value (it tunes its own at start-up). */
    public static final int DEFAULT_ITERATIONS = 8192;
    /** Bytes of the big-endian iteration count at the start of the decoded value. */
    public static final int ITERATIONS_LENGTH = 4;
    /** Bytes of salt after the count. */
    public static final int SALT_LENGTH = 64;
    /** Bytes of derived key after the salt. */
    public static final int KEY_LENGTH = 256;

    private static final int TOTAL_LENGTH = ITERATIONS_LENGTH + SALT_LENGTH + KEY_LENGTH;
    private static final Pbkdf2Prf PRF = Pbkdf2Prf.SHA256;

    public Ds389Pbkdf2Sha256Scheme() {
        super(SALT_LENGTH, DEFAULT_ITERATIONS);
    }

    @Override
    public String name() {
        return NAME;
    }

    /** Encodes with the given 64-byte salt and count; lets tests compare against independently computed values. */
    @Override
    String encodeValue(ByteSequence clear, byte[] salt, int iterations) {
        SchemeSupport.requireNonEmptyPassword(clear);
        if (salt.length != SALT_LENGTH || !PRF.affordable(iterations, KEY_LENGTH)) {
            throw new IllegalArgumentException("Salt not of " + SALT_LENGTH + " bytes, or iterations out of range: "
                    + iterations);
        }
        byte[] key = Pbkdf2Paced.deriveBytes(PRF, clear, salt, iterations, KEY_LENGTH, Pacer.NONE);
        byte[] value = new byte[TOTAL_LENGTH];
        value[0] = (byte) (iterations >>> 24);
        value[1] = (byte) (iterations >>> 16);
        value[2] = (byte) (iterations >>> 8);
        value[3] = (byte) iterations;
        System.arraycopy(salt, 0, value, ITERATIONS_LENGTH, SALT_LENGTH);
        System.arraycopy(key, 0, value, ITERATIONS_LENGTH + SALT_LENGTH, KEY_LENGTH);
        return SchemeSupport.encodeBase64(value);
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
        byte[] decoded = decode(encodedValue);
        long iterations = iterations(decoded);
        if (iterations < 0) {
            return false;
        }
        byte[] salt = Arrays.copyOfRange(decoded, ITERATIONS_LENGTH, ITERATIONS_LENGTH + SALT_LENGTH);
        byte[] actual = Pbkdf2Paced.deriveBytes(PRF, clear, salt, (int) iterations, KEY_LENGTH,
                pacer == null ? Pacer.NONE : pacer);
        return ConstantTime.equals(actual, Arrays.copyOfRange(decoded, ITERATIONS_LENGTH + SALT_LENGTH, TOTAL_LENGTH));
    }

    /** Eight times the stored count (eight blocks of key); 1 for a malformed value, which costs nothing. */
    @Override
    public long workFactor(String encodedValue) {
        long n = encodedValue == null ? -1 : iterations(decode(encodedValue));
        return n < 0 ? 1 : PRF.workFactor(n, KEY_LENGTH);
    }

    /** The decoded value if it is base64 of exactly the right length, else {@code null}. */
    private static byte[] decode(String encodedValue) {
        // Checked before decoding, so that a huge value is not decoded for nothing.
        if (encodedValue.length() != (TOTAL_LENGTH + 2) / 3 * 4) {
            return null;
        }
        byte[] decoded = SchemeSupport.decodeBase64(encodedValue);
        return decoded != null && decoded.length == TOTAL_LENGTH ? decoded : null;
    }

    /** The stored count, or -1 if the value is malformed, the count zero or its work beyond the cap. */
    private static long iterations(byte[] decoded) {
        if (decoded == null) {
            return -1;
        }
        long n = ((decoded[0] & 0xffL) << 24) | ((decoded[1] & 0xff) << 16) | ((decoded[2] & 0xff) << 8)
                | (decoded[3] & 0xff);
        return PRF.affordable(n, KEY_LENGTH) ? n : -1;
    }

    @Override
    public String toString() {
        return "Ds389Pbkdf2Sha256Scheme{iterations=" + DEFAULT_ITERATIONS + "}";
    }
}
