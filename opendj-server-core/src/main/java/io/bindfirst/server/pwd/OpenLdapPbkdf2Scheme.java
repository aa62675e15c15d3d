package io.bindfirst.server.pwd;

import java.util.Arrays;

import org.forgerock.opendj.ldap.ByteSequence;

/**
 * The schemes of OpenLDAP's PBKDF2 module (contrib {@code pw-pbkdf2}): {@code {PBKDF2}} and {@code {PBKDF2-SHA1}}
 * (HMAC-SHA-1), {@code {PBKDF2-SHA256}} and {@code {PBKDF2-SHA512}}. The encoded value is
 * {@code <iterations>$<ab64(salt)>$<ab64(key)>}, ab64 being base64 with {@code '.'} for {@code '+'} and no padding,
 * and the key as long as the HMAC's output.
 *
 * <p>389 Directory Server's {@code pwdchan} plugin writes the same four names in the same shape but in standard
 * base64 with padding; both spellings are read (a value holding {@code '+'} or {@code '='} is 389's), so one
 * class serves either origin. New values are written the OpenLDAP way, which 389 also reads.
 *
 * <p>The password is the bytes presented, as both servers take it. The work a stored value asks for is capped
 * like that of {@link Pbkdf2HmacSha256Scheme} (its {@code MAX_ITERATIONS}, counted in SHA-256 iterations).
 */
public final class OpenLdapPbkdf2Scheme extends Pbkdf2Encoding {

    /** Iterations of newly encoded values: the module's default. */
    public static final int DEFAULT_ITERATIONS = 10_000;
    /** Bytes of random salt in newly encoded values: the module's default. */
    public static final int SALT_LENGTH = 16;

    /** {@code {PBKDF2}}: OpenLDAP's alias of {@code {PBKDF2-SHA1}}. */
    public static final OpenLdapPbkdf2Scheme PBKDF2 = new OpenLdapPbkdf2Scheme("PBKDF2", Pbkdf2Prf.SHA1);
    /** {@code {PBKDF2-SHA1}}. */
    public static final OpenLdapPbkdf2Scheme PBKDF2_SHA1 = new OpenLdapPbkdf2Scheme("PBKDF2-SHA1", Pbkdf2Prf.SHA1);
    /** {@code {PBKDF2-SHA256}}. */
    public static final OpenLdapPbkdf2Scheme PBKDF2_SHA256 =
            new OpenLdapPbkdf2Scheme("PBKDF2-SHA256", Pbkdf2Prf.SHA256);
    /** {@code {PBKDF2-SHA512}}. */
    public static final OpenLdapPbkdf2Scheme PBKDF2_SHA512 =
            new OpenLdapPbkdf2Scheme("PBKDF2-SHA512", Pbkdf2Prf.SHA512);

    private final String name;
    private final Pbkdf2Prf prf;

    private OpenLdapPbkdf2Scheme(String name, Pbkdf2Prf prf) {
        super(SALT_LENGTH, DEFAULT_ITERATIONS);
        this.name = name;
        this.prf = prf;
    }

    @Override
    public String name() {
        return name;
    }

    /** Encodes with the given salt and count; lets tests compare against independently computed values. */
    @Override
    String encodeValue(ByteSequence clear, byte[] salt, int iterations) {
        SchemeSupport.requireNonEmptyPassword(clear);
        if (salt.length == 0 || !prf.affordable(iterations, prf.blockLength())) {
            throw new IllegalArgumentException("Empty salt, or iterations out of range: " + iterations);
        }
        byte[] key = Pbkdf2Paced.deriveBytes(prf, clear, salt, iterations, prf.blockLength(), Pacer.NONE);
        return iterations + "$" + KdfSupport.encodeAb64(salt) + "$" + KdfSupport.encodeAb64(key);
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
        int first = encodedValue.indexOf('$');
        int second = first < 0 ? -1 : encodedValue.indexOf('$', first + 1);
        if (second < 0 || encodedValue.indexOf('$', second + 1) >= 0) {
            return false;
        }
        long iterations = iterations(encodedValue, first);
        byte[] salt = KdfSupport.decodeAb64(encodedValue.substring(first + 1, second));
        byte[] expected = KdfSupport.decodeAb64(encodedValue.substring(second + 1));
        if (iterations < 0 || salt == null || salt.length > KdfSupport.MAX_SALT_LENGTH
                || expected == null || expected.length != prf.blockLength()) {
            return false;
        }
        byte[] actual = Pbkdf2Paced.deriveBytes(prf, clear, salt, (int) iterations, expected.length,
                pacer == null ? Pacer.NONE : pacer);
        try {
            return ConstantTime.equals(actual, expected);
        } finally {
            if (actual != null) {
                Arrays.fill(actual, (byte) 0);
            }
        }
    }

    /** The stored count, in HMAC-SHA-256 iterations; 1 for a malformed value (which matches nothing, at no cost). */
    @Override
    public long workFactor(String encodedValue) {
        long iterations = encodedValue == null ? -1 : iterations(encodedValue, encodedValue.indexOf('$'));
        return iterations < 0 ? 1 : prf.workFactor(iterations, prf.blockLength());
    }

    /** The count before the first {@code '$'}, or -1 if malformed, zero or beyond the work cap. */
    private long iterations(String encodedValue, int dollar) {
        long n = KdfSupport.parseDecimal(encodedValue, 0, dollar, Integer.MAX_VALUE);
        return prf.affordable(n, prf.blockLength()) ? n : -1;
    }

    @Override
    public String toString() {
        return "OpenLdapPbkdf2Scheme{" + name + ", " + prf.hmac() + "}";
    }
}
