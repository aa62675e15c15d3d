package io.bindfirst.server.pwd;

/**
 * How costly new passwords are to check, for the schemes with a cost ({@code cn=Password Storage Schemes,cn=config};
 * OpenDJ's names where it has the setting): what the default scheme encodes new passwords with. Stored values
 * carry their own cost, so a change applies to passwords set after it and leaves the others verifiable. Immutable.
 *
 * @param pbkdf2Iterations {@code ds-cfg-pbkdf2-iterations}: every PBKDF2 scheme (OpenDJ's, OpenLDAP's, 389's)
 * @param bcryptCost {@code ds-cfg-bcrypt-cost}: log2 of bcrypt's rounds, 4 to 15
 * @param argon2MemoryKib {@code ds-cfg-argon2-memory}: KiB of memory an Argon2id check takes
 * @param argon2Iterations {@code ds-cfg-argon2-iterations}: Argon2's passes over that memory
 * @param argon2Parallelism {@code ds-cfg-argon2-parallelism}: Argon2's lanes
 */
public record SchemeCosts(int pbkdf2Iterations, int bcryptCost, int argon2MemoryKib, int argon2Iterations,
                          int argon2Parallelism) {
    /** OpenDJ's PBKDF2 default, bcrypt's common 10, OWASP's first Argon2id recommendation (19 MiB, 2, 1). */
    public static final SchemeCosts DEFAULTS = new SchemeCosts(Pbkdf2HmacSha256Scheme.DEFAULT_ITERATIONS,
            CryptFormat.BCRYPT_COST, Argon2Scheme.DEFAULT_MEMORY_KIB, Argon2Scheme.DEFAULT_PASSES, 1);

    /** Lowest bcrypt cost accepted (the algorithm's own minimum). */
    public static final int MIN_BCRYPT_COST = 4;
    /** Least Argon2 memory accepted: 8 KiB per lane is the algorithm's minimum; less than 1 MiB protects little. */
    public static final int MIN_ARGON2_MEMORY_KIB = 1024;

    /**
     * @throws IllegalArgumentException naming the setting out of range; the ranges are those a stored value may
     *         have and still be checked, so a new value can always be verified
     */
    public SchemeCosts {
        check("ds-cfg-pbkdf2-iterations", pbkdf2Iterations, 1, Pbkdf2HmacSha256Scheme.MAX_ITERATIONS);
        check("ds-cfg-bcrypt-cost", bcryptCost, MIN_BCRYPT_COST, CryptFormat.MAX_BCRYPT_COST);
        check("ds-cfg-argon2-memory", argon2MemoryKib, MIN_ARGON2_MEMORY_KIB, Argon2Scheme.MAX_MEMORY_KIB);
        check("ds-cfg-argon2-iterations", argon2Iterations, 1, 100);
        check("ds-cfg-argon2-parallelism", argon2Parallelism, 1, Argon2Scheme.MAX_PARALLELISM);
    }

    private static void check(String name, int value, int min, int max) {
        if (value < min || value > max) {
            throw new IllegalArgumentException(name + " must be between " + min + " and " + max + ", not " + value);
        }
    }
}
