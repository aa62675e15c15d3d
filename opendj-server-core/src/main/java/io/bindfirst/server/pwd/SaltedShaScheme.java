package io.bindfirst.server.pwd;

import java.security.DigestException;
import java.security.MessageDigest;
import java.util.Arrays;

import org.forgerock.opendj.ldap.ByteSequence;
import org.forgerock.opendj.ldap.ByteString;

/**
 * The salted SHA schemes of OpenLDAP and OpenDJ, and OpenLDAP's {@code {SMD5}} built the same way: the
 * encoded value is {@code base64(digest(password + salt) + salt)}. {@code {SMD5}} is {@linkplain #isWeak()
 * weak} (MD5), there to verify values migrated from OpenLDAP; it cannot be the default scheme.
 *
 * <p>The salt is whatever follows the digest (OpenLDAP writes 4 bytes, OpenDJ 8), so any salt of at
 * least one byte is accepted; new values get {@link #SALT_LENGTH} random bytes.
 */
public final class SaltedShaScheme implements PasswordStorageScheme {

    /** Bytes of random salt in newly encoded values. */
    public static final int SALT_LENGTH = 8;

    /** {@code {SSHA}}: SHA-1. */
    public static final SaltedShaScheme SSHA = new SaltedShaScheme("SSHA", "SHA-1");
    /** {@code {SSHA256}}: SHA-256. */
    public static final SaltedShaScheme SSHA256 = new SaltedShaScheme("SSHA256", "SHA-256");
    /** {@code {SSHA384}}: SHA-384. */
    public static final SaltedShaScheme SSHA384 = new SaltedShaScheme("SSHA384", "SHA-384");
    /** {@code {SSHA512}}: SHA-512. */
    public static final SaltedShaScheme SSHA512 = new SaltedShaScheme("SSHA512", "SHA-512");
    /** {@code {SMD5}}: MD5, weak. */
    public static final SaltedShaScheme SMD5 = new SaltedShaScheme("SMD5", "MD5");

    private final String name;
    private final String algorithm;
    private final int digestLength;
    /**
     * One digest and buffers per thread: {@link MessageDigest} is not thread-safe, and creating one per call
     * costs a provider look-up. Every use starts with {@code reset()} so that a use cut short by an
     * exception cannot leak state into the next one.
     */
    private final ThreadLocal<CheckBuffers> checkBuffers;

    private SaltedShaScheme(String name, String algorithm) {
        this.name = name;
        this.algorithm = algorithm;
        // Fails fast at class initialisation if the JDK lacks the algorithm (all four are mandatory).
        this.digestLength = SchemeSupport.messageDigest(algorithm).getDigestLength();
        this.checkBuffers = ThreadLocal.withInitial(() -> new CheckBuffers(SchemeSupport.messageDigest(algorithm)));
    }

    @Override
    public boolean costsOneHash() {
        return true;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public boolean isWeak() {
        return "MD5".equals(algorithm);
    }

    /** The digest algorithm, e.g. {@code "SHA-256"}. */
    public String algorithm() {
        return algorithm;
    }

    /** Bytes of digest at the start of the decoded value. */
    public int digestLength() {
        return digestLength;
    }

    @Override
    public String encodeValue(ByteSequence clear) {
        SchemeSupport.requireNonEmptyPassword(clear);
        return encodeValue(clear, SchemeSupport.randomSalt(SALT_LENGTH));
    }

    /** Encodes with the given salt; lets tests compare against independently computed values. */
    String encodeValue(ByteSequence clear, byte[] salt) {
        SchemeSupport.requireNonEmptyPassword(clear);
        if (salt.length == 0) {
            throw new IllegalArgumentException("The salt must not be empty");
        }
        byte[] digest = digest(clear, salt, 0, salt.length);
        byte[] value = Arrays.copyOf(digest, digestLength + salt.length);
        System.arraycopy(salt, 0, value, digestLength, salt.length);
        return SchemeSupport.encodeBase64(value);
    }

    @Override
    public boolean matches(ByteSequence clear, String encodedValue) {
        // Characters outside ASCII become bytes no base64 alphabet holds: refused, as the JDK's decoder refuses them.
        return encodedValue != null && matches(clear, ByteString.valueOfUtf8(encodedValue), 0, Pacer.NONE);
    }

    /**
     * The check: the stored value's base64 decoded, the password copied and the digest computed into this
     * thread's buffers, so that a bind allocates nothing here (a password or value longer than the buffers, which
     * no client or administrator sets in practice, gets arrays of its own).
     */
    @Override
    public boolean matches(ByteSequence clear, ByteSequence storedValue, int from, Pacer pacer) {
        if (clear == null || clear.isEmpty() || storedValue == null) {
            return false;
        }
        CheckBuffers buffers = checkBuffers.get();
        int encodedLength = storedValue.length() - from;
        byte[] decoded = encodedLength <= CheckBuffers.MAX_ENCODED ? buffers.decoded
                : new byte[Base64Bytes.maxDecodedLength(encodedLength)];
        int decodedLength = Base64Bytes.decode(storedValue, from, storedValue.length(), decoded);
        if (decodedLength <= digestLength) {
            return false; // malformed, or no salt at all
        }
        byte[] password = clear.length() <= CheckBuffers.MAX_PASSWORD ? buffers.password : new byte[clear.length()];
        clear.copyTo(password);
        MessageDigest md = buffers.digest;
        try {
            md.reset();
            md.update(password, 0, clear.length());
            md.update(decoded, digestLength, decodedLength - digestLength);
            md.digest(buffers.actual, 0, digestLength);
        } catch (DigestException e) {
            throw new IllegalStateException("A " + algorithm + " digest does not fit " + digestLength + " bytes", e);
        } finally {
            Arrays.fill(password, 0, clear.length(), (byte) 0);
        }
        return ConstantTime.equals(buffers.actual, 0, decoded, 0, digestLength);
    }

    /** What one thread reuses to check passwords against stored values of this scheme. */
    private static final class CheckBuffers {
        /** The longest password checked without allocating. */
        static final int MAX_PASSWORD = 256;
        /** The longest encoded value checked without allocating: a 64-byte digest and 128 bytes of salt. */
        static final int MAX_ENCODED = 256;

        final MessageDigest digest;
        final byte[] decoded = new byte[Base64Bytes.maxDecodedLength(MAX_ENCODED)];
        final byte[] password = new byte[MAX_PASSWORD];
        final byte[] actual = new byte[64];

        CheckBuffers(MessageDigest digest) {
            this.digest = digest;
        }
    }

    /** {@code digest(clear + salt[saltOffset, saltOffset + saltLength))}. */
    private byte[] digest(ByteSequence clear, byte[] salt, int saltOffset, int saltLength) {
        byte[] password = clear.toByteArray();
        try {
            MessageDigest md = checkBuffers.get().digest;
            md.reset();
            md.update(password);
            md.update(salt, saltOffset, saltLength);
            return md.digest();
        } finally {
            Arrays.fill(password, (byte) 0);
        }
    }

    @Override
    public String toString() {
        return "SaltedShaScheme{" + name + ", " + algorithm + "}";
    }
}
