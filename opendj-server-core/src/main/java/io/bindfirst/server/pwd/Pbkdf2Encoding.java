package io.bindfirst.server.pwd;

import org.forgerock.opendj.ldap.ByteSequence;

/**
 * What the PBKDF2 schemes read for migrations (OpenLDAP's, 389's, OpenDJ's SHA-512) share when they write a value:
 * a random salt of the scheme's length and the iteration count the configuration gives PBKDF2
 * ({@link SchemeCosts#pbkdf2Iterations()}), or the scheme's own default before it is configured. Each scheme
 * encodes the derived key in its own format ({@link #encodeValue(ByteSequence, byte[], int)}).
 */
abstract class Pbkdf2Encoding implements PasswordStorageScheme {
    private final int saltLength;
    private final int defaultIterations;

    protected Pbkdf2Encoding(int saltLength, int defaultIterations) {
        this.saltLength = saltLength;
        this.defaultIterations = defaultIterations;
    }

    @Override
    public PasswordStorageScheme withCosts(SchemeCosts costs) {
        return SchemeSupport.encodingWith(this, clear -> encodeValue(clear, SchemeSupport.randomSalt(saltLength),
                costs.pbkdf2Iterations()));
    }

    /** @throws IllegalArgumentException also if {@code clear} is not valid UTF-8 */
    @Override
    public String encodeValue(ByteSequence clear) {
        SchemeSupport.requireNonEmptyPassword(clear);
        return encodeValue(clear, SchemeSupport.randomSalt(saltLength), defaultIterations);
    }

    /** Encodes with the given salt and count; lets tests compare against independently computed values. */
    abstract String encodeValue(ByteSequence clear, byte[] salt, int iterations);
}
