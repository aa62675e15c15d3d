package io.bindfirst.server.pwd;

import java.util.Arrays;

import org.bouncycastle.crypto.generators.Argon2BytesGenerator;
import org.bouncycastle.crypto.params.Argon2Parameters;
import org.forgerock.opendj.ldap.ByteSequence;

/**
 * {@code {ARGON2}}, as OpenLDAP's {@code pw-argon2} and 389 Directory Server write it: the value is a PHC string
 * {@code $argon2<i|d|id>$v=19$m=<KiB>,t=<passes>,p=<lanes>$<salt>$<tag>}, salt and tag in unpadded base64, and is
 * checked with Bouncy Castle's Argon2 (RFC 9106). Only version 19 (1.3), the one every current tool writes, is
 * read.
 *
 * <p>A stored value chooses how much memory its check allocates, so that is bounded: at most
 * {@link #MAX_MEMORY_KIB} (256 MiB, four times the largest default of a common tool, 389's and libsodium's 64
 * MiB) and never more than a quarter of the heap; beyond that the value does not match, without allocating
 * anything. Several such checks at once are bounded by the threads that run them: the work factor sends them to
 * the slow lane when one is configured. The time a value asks for is capped like PBKDF2's (see
 * {@link #workFactor}). Bouncy Castle's computation cannot be paced, so a check holds its thread throughout.
 */
public final class Argon2Scheme implements PasswordStorageScheme {

    /** The scheme name. */
    public static final String NAME = "ARGON2";
    /** The most memory a stored value may ask for, in KiB (256 MiB). */
    public static final int MAX_MEMORY_KIB = 256 * 1024;
    /** The most lanes a stored value may ask for (the tools' defaults are 1 to 4). */
    public static final int MAX_PARALLELISM = 64;
    /**
     * HMAC-SHA-256 iterations one KiB block costs per pass: measured once with Bouncy Castle 1.87 on the 2-core
     * build machine, 0.71 to 0.87 µs per block and pass (m=65536 and m=4096, t=2), against 0.185 µs per
     * PBKDF2-HMAC-SHA256 iteration of the JDK, a ratio of 3.9 to 4.7.
     */
    static final int COST_PER_KIB_PASS = 4;
    /** Parameters of newly encoded values: argon2id with OWASP's first recommendation (19 MiB, 2 passes, 1 lane). */
    public static final int DEFAULT_MEMORY_KIB = 19 * 1024;
    /** Passes of newly encoded values. */
    public static final int DEFAULT_PASSES = 2;
    /** Bytes of salt and of tag in newly encoded values (the {@code argon2} tool's defaults: 16 and 32). */
    public static final int SALT_LENGTH = 16;
    /** Bytes of tag in newly encoded values. */
    public static final int TAG_LENGTH = 32;

    private static final int MIN_SALT_LENGTH = 8; // RFC 9106 3.1
    private static final int MIN_TAG_LENGTH = 16; // RFC 9106 allows 4: a shorter tag than 16 bytes is refused
    private static final int MAX_TAG_LENGTH = 1024;
    private static final String[] TYPES = {"argon2d", "argon2i", "argon2id"}; // indexed by Bouncy Castle's type

    @Override
    public PasswordStorageScheme withCosts(SchemeCosts costs) {
        return SchemeSupport.encodingWith(this, clear -> encodeValue(clear, SchemeSupport.randomSalt(SALT_LENGTH),
                Argon2Parameters.ARGON2_id, costs.argon2MemoryKib(), costs.argon2Iterations(),
                costs.argon2Parallelism()));
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String encodeValue(ByteSequence clear) {
        SchemeSupport.requireNonEmptyPassword(clear);
        return encodeValue(clear, SchemeSupport.randomSalt(SALT_LENGTH), Argon2Parameters.ARGON2_id,
                DEFAULT_MEMORY_KIB, DEFAULT_PASSES, 1);
    }

    /** Encodes with the given salt and parameters; lets tests compare against independently computed values. */
    String encodeValue(ByteSequence clear, byte[] salt, int type, int memoryKib, int passes, int lanes) {
        SchemeSupport.requireNonEmptyPassword(clear);
        Params params = new Params(type, memoryKib, passes, lanes);
        if (salt.length < MIN_SALT_LENGTH || !params.acceptable()) {
            throw new IllegalArgumentException("Argon2 salt or parameters out of range: " + params);
        }
        byte[] tag = derive(params, clear, salt, TAG_LENGTH);
        return "$" + TYPES[type] + "$v=19$m=" + memoryKib + ",t=" + passes + ",p=" + lanes + "$"
                + KdfSupport.encodeUnpaddedBase64(salt) + "$" + KdfSupport.encodeUnpaddedBase64(tag);
    }

    @Override
    public boolean matches(ByteSequence clear, String encodedValue) {
        if (clear == null || clear.isEmpty() || encodedValue == null) {
            return false;
        }
        String[] parts = encodedValue.split("\\$", -1);
        Params params = parts.length == 6 ? Params.parse(parts) : null;
        if (params == null || !params.acceptable()) {
            return false;
        }
        byte[] salt = KdfSupport.decodeUnpaddedBase64(parts[4]);
        byte[] expected = KdfSupport.decodeUnpaddedBase64(parts[5]);
        if (salt == null || salt.length < MIN_SALT_LENGTH || salt.length > KdfSupport.MAX_SALT_LENGTH
                || expected == null || expected.length < MIN_TAG_LENGTH || expected.length > MAX_TAG_LENGTH) {
            return false;
        }
        byte[] actual = derive(params, clear, salt, expected.length);
        try {
            return ConstantTime.equals(actual, expected);
        } finally {
            Arrays.fill(actual, (byte) 0);
        }
    }

    /**
     * {@link #COST_PER_KIB_PASS} per KiB of memory per pass; 1 for a malformed or refused value, which costs
     * nothing.
     */
    @Override
    public long workFactor(String encodedValue) {
        if (encodedValue == null) {
            return 1;
        }
        String[] parts = encodedValue.split("\\$", -1);
        Params params = parts.length == 6 ? Params.parse(parts) : null;
        return params == null || !params.acceptable() ? 1 : params.workFactor();
    }

    private static byte[] derive(Params params, ByteSequence clear, byte[] salt, int tagLength) {
        Argon2BytesGenerator generator = new Argon2BytesGenerator();
        generator.init(new Argon2Parameters.Builder(params.type)
                .withVersion(Argon2Parameters.ARGON2_VERSION_13)
                .withMemoryAsKB((int) params.memoryKib) // all three bounded by acceptable()
                .withIterations((int) params.passes)
                .withParallelism((int) params.lanes)
                .withSalt(salt)
                .build());
        byte[] password = clear.toByteArray();
        byte[] tag = new byte[tagLength];
        try {
            generator.generateBytes(password, tag);
            return tag;
        } finally {
            Arrays.fill(password, (byte) 0);
        }
    }

    /** The parameters of a PHC string: its type (Bouncy Castle's number), memory in KiB, passes and lanes. */
    private record Params(int type, long memoryKib, long passes, long lanes) {

        /** From {@code ["", type, "v=19", "m=..,t=..,p=..", salt, tag]}, or {@code null} if malformed. */
        static Params parse(String[] parts) {
            int type = Arrays.asList(TYPES).indexOf(parts[1]);
            if (!parts[0].isEmpty() || type < 0 || !parts[2].equals("v=19")) {
                return null;
            }
            String[] mtp = parts[3].split(",", -1);
            if (mtp.length != 3 || !mtp[0].startsWith("m=") || !mtp[1].startsWith("t=") || !mtp[2].startsWith("p=")) {
                return null;
            }
            long m = KdfSupport.parseDecimal(mtp[0], 2, mtp[0].length(), Integer.MAX_VALUE);
            long t = KdfSupport.parseDecimal(mtp[1], 2, mtp[1].length(), Integer.MAX_VALUE);
            long p = KdfSupport.parseDecimal(mtp[2], 2, mtp[2].length(), Integer.MAX_VALUE);
            return m < 0 || t < 0 || p < 0 ? null : new Params(type, m, t, p);
        }

        /** Within RFC 9106's rules and this server's bounds on memory, lanes and work. */
        boolean acceptable() {
            long heapKib = Runtime.getRuntime().maxMemory() / 1024;
            return lanes >= 1 && lanes <= MAX_PARALLELISM && passes >= 1
                    && memoryKib >= 8 * lanes && memoryKib <= MAX_MEMORY_KIB && memoryKib <= heapKib / 4
                    && workFactor() <= Pbkdf2HmacSha256Scheme.MAX_ITERATIONS;
        }

        long workFactor() {
            return COST_PER_KIB_PASS * memoryKib * passes;
        }
    }

    @Override
    public String toString() {
        return "Argon2Scheme{argon2id, m=" + DEFAULT_MEMORY_KIB + ", t=" + DEFAULT_PASSES + ", p=1}";
    }
}
