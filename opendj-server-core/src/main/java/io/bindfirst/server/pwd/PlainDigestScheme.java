package io.bindfirst.server.pwd;

import java.security.MessageDigest;
import java.util.Arrays;

import org.forgerock.opendj.ldap.ByteSequence;

/**
 * OpenLDAP's unsalted digest schemes {@code {SHA}} and {@code {MD5}}: the encoded value is
 * {@code base64(digest(password))}. Both are {@linkplain #isWeak() weak} (one fast hash, no salt: equal
 * passwords have equal values, and precomputed tables apply); they are here to verify values migrated
 * from OpenLDAP, and cannot be the default scheme.
 */
public final class PlainDigestScheme implements PasswordStorageScheme {

    /** {@code {SHA}}: SHA-1. */
    public static final PlainDigestScheme SHA = new PlainDigestScheme("SHA", "SHA-1");
    /** {@code {MD5}}: MD5. */
    public static final PlainDigestScheme MD5 = new PlainDigestScheme("MD5", "MD5");

    private final String name;
    private final String algorithm;
    private final int digestLength;
    /** One digest per thread, reset before each use (see {@link SaltedShaScheme}). */
    private final ThreadLocal<MessageDigest> digests;

    private PlainDigestScheme(String name, String algorithm) {
        this.name = name;
        this.algorithm = algorithm;
        this.digestLength = SchemeSupport.messageDigest(algorithm).getDigestLength(); // fails fast if the JDK lacks it
        this.digests = ThreadLocal.withInitial(() -> SchemeSupport.messageDigest(algorithm));
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
        return true;
    }

    @Override
    public String encodeValue(ByteSequence clear) {
        SchemeSupport.requireNonEmptyPassword(clear);
        return SchemeSupport.encodeBase64(digest(clear));
    }

    @Override
    public boolean matches(ByteSequence clear, String encodedValue) {
        if (clear == null || clear.isEmpty() || encodedValue == null) {
            return false;
        }
        byte[] decoded = SchemeSupport.decodeBase64(encodedValue);
        if (decoded == null || decoded.length != digestLength) {
            return false;
        }
        return ConstantTime.equals(digest(clear), decoded);
    }

    private byte[] digest(ByteSequence clear) {
        byte[] password = clear.toByteArray();
        try {
            MessageDigest md = digests.get();
            md.reset();
            return md.digest(password);
        } finally {
            Arrays.fill(password, (byte) 0);
        }
    }

    @Override
    public String toString() {
        return "PlainDigestScheme{" + name + ", " + algorithm + "}";
    }
}
