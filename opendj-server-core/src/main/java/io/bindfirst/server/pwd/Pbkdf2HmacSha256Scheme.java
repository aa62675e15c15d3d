package io.bindfirst.server.pwd;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;

import javax.crypto.SecretKeyFactory;
import javax.crypto.spec.PBEKeySpec;

import org.forgerock.opendj.ldap.ByteSequence;

/**
 * OpenDJ's {@code {PBKDF2-HMAC-SHA256}} scheme (RFC 8018 PBKDF2 with HMAC-SHA-256). The encoded value
 * is {@code <iterations>:<base64(derivedKey + salt)>}, the derived key being 32 bytes and the salt
 * whatever follows it (OpenDJ writes 8 bytes; this class writes {@link #SALT_LENGTH}, which OpenDJ
 * also reads, since it takes every byte after the key as salt).
 *
 * <p>The iteration count of a stored value is honoured up to {@link #MAX_ITERATIONS}; larger counts
 * do not match, so that a crafted value cannot occupy a worker thread for minutes.
 *
 * <p>The password is fed to PBKDF2 as its UTF-8 bytes, exactly as presented. Unlike OpenDJ, which
 * first decodes it leniently (replacing malformed sequences with U+FFFD, so that different byte
 * strings derive the same key), a password that is not valid UTF-8 never matches and cannot be
 * encoded: the JDK's PBKDF2 takes characters, not bytes.
 */
public final class Pbkdf2HmacSha256Scheme implements PasswordStorageScheme {

    /** The scheme name. */
    public static final String NAME = "PBKDF2-HMAC-SHA256";
    /** Iterations of newly encoded values unless the constructor says otherwise (OpenDJ's default). */
    public static final int DEFAULT_ITERATIONS = 10_000;
    /** Highest iteration count accepted, in stored values and in the constructor (a few seconds of CPU). */
    public static final int MAX_ITERATIONS = 10_000_000;
    /** Bytes of random salt in newly encoded values. */
    public static final int SALT_LENGTH = 16;
    /** Bytes of derived key at the start of the decoded value. */
    public static final int KEY_LENGTH = 32;

    private static final String ALGORITHM = "PBKDF2WithHmacSHA256";

    /** {@link SecretKeyFactory} is not documented as thread-safe, so one per thread. */
    private static final ThreadLocal<SecretKeyFactory> FACTORIES =
            ThreadLocal.withInitial(Pbkdf2HmacSha256Scheme::newFactory);

    static {
        newFactory(); // fail fast if the JDK lacks the algorithm (it is mandatory since Java 8)
    }

    private final int iterations;

    /** Encodes with {@link #DEFAULT_ITERATIONS}. */
    public Pbkdf2HmacSha256Scheme() {
        this(DEFAULT_ITERATIONS);
    }

    /**
     * Encodes with the given iteration count. Matching always uses the count stored in the value.
     *
     * @throws IllegalArgumentException unless {@code 1 <= iterations <= MAX_ITERATIONS}
     */
    public Pbkdf2HmacSha256Scheme(int iterations) {
        if (iterations < 1 || iterations > MAX_ITERATIONS) {
            throw new IllegalArgumentException("PBKDF2 iterations must be between 1 and " + MAX_ITERATIONS
                    + ", not " + iterations);
        }
        this.iterations = iterations;
    }

    private static SecretKeyFactory newFactory() {
        try {
            return SecretKeyFactory.getInstance(ALGORITHM);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("The JDK has no " + ALGORITHM, e);
        }
    }

    @Override
    public PasswordStorageScheme withCosts(SchemeCosts costs) {
        return new Pbkdf2HmacSha256Scheme(costs.pbkdf2Iterations());
    }

    @Override
    public String name() {
        return NAME;
    }

    /** The iteration count of newly encoded values. */
    public int iterations() {
        return iterations;
    }

    /** @throws IllegalArgumentException also if {@code clear} is not valid UTF-8 */
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
        byte[] key = derive(clear, salt, iterations);
        if (key == null) {
            throw new IllegalArgumentException("A " + NAME + " password must be valid UTF-8");
        }
        byte[] value = Arrays.copyOf(key, KEY_LENGTH + salt.length);
        System.arraycopy(salt, 0, value, KEY_LENGTH, salt.length);
        return new StringBuilder().append(iterations).append(':').append(SchemeSupport.encodeBase64(value))
                .toString();
    }

    @Override
    public boolean matches(ByteSequence clear, String encodedValue) {
        return matches(clear, encodedValue, null);
    }

    /** The stored iteration count, or 1 for a malformed value (which matches nothing, at no cost). */
    @Override
    public long workFactor(String encodedValue) {
        int n = encodedValue == null ? -1 : parseIterations(encodedValue, encodedValue.indexOf(':'));
        return Math.max(1, n);
    }

    /**
     * With a pacer, the key is derived by {@link Pbkdf2Paced} (the same function, computed here with
     * {@code Mac} so that it can stop every 1,024 iterations and call the pacer); without one, by the JDK.
     */
    @Override
    public boolean matches(ByteSequence clear, String encodedValue, Pacer pacer) {
        if (clear == null || clear.isEmpty() || encodedValue == null) {
            return false;
        }
        int colon = encodedValue.indexOf(':');
        int storedIterations = parseIterations(encodedValue, colon);
        if (storedIterations < 0) {
            return false;
        }
        byte[] decoded = SchemeSupport.decodeBase64(encodedValue.substring(colon + 1));
        if (decoded == null || decoded.length <= KEY_LENGTH) {
            return false; // malformed, or no salt at all
        }
        byte[] salt = Arrays.copyOfRange(decoded, KEY_LENGTH, decoded.length);
        byte[] actual = pacer == null || pacer == Pacer.NONE
                ? derive(clear, salt, storedIterations)
                : Pbkdf2Paced.derive(clear, salt, storedIterations, KEY_LENGTH, pacer);
        return actual != null && ConstantTime.equals(actual, Arrays.copyOf(decoded, KEY_LENGTH));
    }

    /**
     * The decimal count before the colon at {@code colon}, or -1 if it is missing, not plain ASCII
     * digits, zero or above {@link #MAX_ITERATIONS}. Stops at the first digit that takes it over the
     * maximum, so a long run of digits cannot overflow.
     */
    private static int parseIterations(String encodedValue, int colon) {
        if (colon <= 0) {
            return -1;
        }
        int count = 0;
        for (int i = 0; i < colon; i++) {
            char c = encodedValue.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
            count = count * 10 + (c - '0');
            if (count > MAX_ITERATIONS) {
                return -1;
            }
        }
        return count == 0 ? -1 : count;
    }

    /** The derived key, or {@code null} if the password is not valid UTF-8 or the JDK refuses the input. */
    private static byte[] derive(ByteSequence clear, byte[] salt, int iterations) {
        char[] password = utf8Chars(clear);
        if (password == null) {
            return null;
        }
        PBEKeySpec spec = null;
        try {
            spec = new PBEKeySpec(password, salt, iterations, KEY_LENGTH * 8); // copies the password
            return FACTORIES.get().generateSecret(spec).getEncoded();
        } catch (GeneralSecurityException | IllegalArgumentException e) {
            // Not rethrown nor logged: the cause could describe the input. (The callers already
            // exclude what PBEKeySpec refuses: an empty salt, a count below 1.)
            return null;
        } finally {
            Arrays.fill(password, '\0');
            if (spec != null) {
                spec.clearPassword();
            }
        }
    }

    /**
     * The characters of a strictly decoded UTF-8 password, or {@code null} if it is malformed. The JDK
     * encodes them back to UTF-8, so PBKDF2 sees exactly the presented bytes. Intermediate copies are
     * wiped.
     */
    static char[] utf8Chars(ByteSequence clear) {
        byte[] bytes = clear.toByteArray();
        // One byte of UTF-8 never decodes to more than one char, so this buffer cannot overflow.
        CharBuffer chars = CharBuffer.allocate(bytes.length);
        try {
            CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder(); // reports malformed input
            CoderResult result = decoder.decode(ByteBuffer.wrap(bytes), chars, true);
            if (result.isUnderflow()) {
                result = decoder.flush(chars);
            }
            return result.isUnderflow() ? Arrays.copyOf(chars.array(), chars.position()) : null;
        } finally {
            Arrays.fill(bytes, (byte) 0);
            Arrays.fill(chars.array(), '\0');
        }
    }

    @Override
    public String toString() {
        return "Pbkdf2HmacSha256Scheme{iterations=" + iterations + "}";
    }
}
