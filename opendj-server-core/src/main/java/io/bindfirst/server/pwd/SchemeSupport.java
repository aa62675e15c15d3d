package io.bindfirst.server.pwd;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Base64;

import org.forgerock.opendj.ldap.ByteSequence;

/** Helpers shared by the schemes of this package. */
final class SchemeSupport {

    /** Thread-safe: {@link SecureRandom} serialises {@code nextBytes} when its provider is not. */
    private static final SecureRandom RANDOM = new SecureRandom();

    private SchemeSupport() {
    }

    /** A new digest of {@code algorithm}; the JDK must have it (those used here are all mandatory). */
    static MessageDigest messageDigest(String algorithm) {
        try {
            return MessageDigest.getInstance(algorithm);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("The JDK has no " + algorithm + " message digest", e);
        }
    }

    /** {@code length} bytes of fresh random salt. */
    static byte[] randomSalt(int length) {
        byte[] salt = new byte[length];
        RANDOM.nextBytes(salt);
        return salt;
    }

    /** Standard (RFC 4648 section 4) base64 decoding, or {@code null} if {@code s} is not valid base64. */
    static byte[] decodeBase64(String s) {
        try {
            return Base64.getDecoder().decode(s);
        } catch (IllegalArgumentException e) {
            // Deliberately not rethrown nor logged: the value is a stored password hash.
            return null;
        }
    }

    static String encodeBase64(byte[] bytes) {
        return Base64.getEncoder().encodeToString(bytes);
    }

    /** The precondition of every {@code encodeValue}: a password, and not an empty one. */
    static void requireNonEmptyPassword(ByteSequence clear) {
        if (clear == null) {
            throw new NullPointerException("password");
        }
        if (clear.isEmpty()) {
            throw new IllegalArgumentException("An empty password cannot be encoded");
        }
    }

    /** {@code scheme}, but encoding new values with {@code encoder} (its costs); checks are the scheme's own. */
    static PasswordStorageScheme encodingWith(PasswordStorageScheme scheme,
                                              java.util.function.Function<ByteSequence, String> encoder) {
        return new PasswordStorageScheme() {
            @Override
            public String name() {
                return scheme.name();
            }

            @Override
            public boolean isWeak() {
                return scheme.isWeak();
            }

            @Override
            public String encodeValue(ByteSequence clear) {
                requireNonEmptyPassword(clear);
                return encoder.apply(clear);
            }

            @Override
            public boolean matches(ByteSequence clear, String encodedValue) {
                return scheme.matches(clear, encodedValue);
            }

            @Override
            public boolean matches(ByteSequence clear, String encodedValue, Pacer pacer) {
                return scheme.matches(clear, encodedValue, pacer);
            }

            @Override
            public boolean matches(ByteSequence clear, ByteSequence storedValue, int from, Pacer pacer) {
                return scheme.matches(clear, storedValue, from, pacer);
            }

            @Override
            public long workFactor(String encodedValue) {
                return scheme.workFactor(encodedValue);
            }
        };
    }
}
