package io.bindfirst.server.pwd;

import java.nio.charset.StandardCharsets;

import org.apache.commons.codec.digest.Md5Crypt;
import org.apache.commons.codec.digest.Sha2Crypt;
import org.apache.commons.codec.digest.UnixCrypt;
import org.bouncycastle.crypto.generators.OpenBSDBCrypt;

/**
 * The crypt(3) formats that {@link CryptScheme} reads, told apart by the stored value itself. The hashing
 * is done by commons-codec (DES, MD5-crypt, SHA-crypt) and Bouncy Castle (bcrypt); this class only
 * recognises the formats, bounds their cost and compares.
 *
 * <p>Each constant's {@link #workFactor} is its measured cost in PBKDF2-HMAC-SHA256 iterations. Measured
 * once on the development machine (JDK 17, one thread, best of 5 runs after warm-up, a 13-byte password):
 * PBKDF2 with 10,000 iterations took 1.90 ms (0.19 µs an iteration); SHA-512-crypt with 5,000 rounds
 * 1.03 ms (about 1.1 iterations a round), SHA-256-crypt with 5,000 rounds 0.56 ms (0.6 a round),
 * MD5-crypt 0.145 ms (760), bcrypt cost 10 47 ms and cost 4 0.77 ms (about 245 iterations per unit of
 * 2^cost), DES crypt 3 µs (15). SHA-crypt's cost grows with the password's length; the factors are for
 * short passwords, which is what they are meant to sort: cheap checks from expensive ones.
 *
 * <p>Values that would cost more than a few seconds do not match, without being computed, so that a
 * crafted value cannot hold a worker for minutes: SHA-crypt above {@link #MAX_SHA_CRYPT_ROUNDS} rounds
 * (the library's own default limit; glibc writes at most 999,999,999) and bcrypt above cost
 * {@link #MAX_BCRYPT_COST}.
 */
enum CryptFormat {

    /**
     * Traditional DES crypt: 13 characters, 2 of salt. Weak: it uses only the first 8 bytes of the
     * password and 7 bits of each, and costs next to nothing; it is read for migrations (commons-codec's
     * {@code UnixCrypt} computes it) and written only for passwords it keeps whole.
     */
    DES(true) {
        @Override
        boolean matches(byte[] password, String value) {
            return equal(UnixCrypt.crypt(password, value.substring(0, 2)), value);
        }

        @Override
        long workFactor(String value) {
            return 15;
        }

        @Override
        String encode(byte[] password) {
            if (password.length > 8) {
                throw new IllegalArgumentException("DES crypt uses only the first 8 bytes of a password");
            }
            for (byte b : password) {
                if (b < 0) {
                    throw new IllegalArgumentException("DES crypt ignores the 8th bit of each byte");
                }
            }
            return UnixCrypt.crypt(password, randomSalt(2));
        }
    },

    /** MD5-crypt, {@code $1$salt$hash}: 1,000 rounds of MD5, weak. */
    MD5(true) {
        @Override
        boolean matches(byte[] password, String value) {
            return equal(Md5Crypt.md5Crypt(password, value), value);
        }

        @Override
        long workFactor(String value) {
            return 760;
        }

        @Override
        String encode(byte[] password) {
            return Md5Crypt.md5Crypt(password, "$1$" + randomSalt(8));
        }
    },

    /** SHA-256-crypt, {@code $5$[rounds=N$]salt$hash}, 5,000 rounds unless it says otherwise. */
    SHA256(false) {
        @Override
        boolean matches(byte[] password, String value) {
            return shaCryptRounds(value) > 0 && equal(Sha2Crypt.sha256Crypt(password, value), value);
        }

        @Override
        long workFactor(String value) {
            long rounds = shaCryptRounds(value);
            return rounds > 0 ? (rounds * 3 + 4) / 5 : 1;
        }

        @Override
        String encode(byte[] password) {
            return Sha2Crypt.sha256Crypt(password, "$5$" + randomSalt(16));
        }
    },

    /** SHA-512-crypt, {@code $6$[rounds=N$]salt$hash}, 5,000 rounds unless it says otherwise. */
    SHA512(false) {
        @Override
        boolean matches(byte[] password, String value) {
            return shaCryptRounds(value) > 0 && equal(Sha2Crypt.sha512Crypt(password, value), value);
        }

        @Override
        long workFactor(String value) {
            long rounds = shaCryptRounds(value);
            return rounds > 0 ? (rounds * 11 + 9) / 10 : 1;
        }

        @Override
        String encode(byte[] password) {
            return Sha2Crypt.sha512Crypt(password, "$6$" + randomSalt(16));
        }
    },

    /**
     * bcrypt, {@code $2a$}, {@code $2b$} or {@code $2y$} (the same function for passwords under 256 bytes;
     * {@code $2x$}, crypt_blowfish's buggy variant, is not read). Like every bcrypt, it uses only the first
     * 72 bytes of a password; longer ones are refused when encoding. New values are {@code $2b$} with
     * cost {@link #BCRYPT_COST}.
     */
    BCRYPT(false) {
        @Override
        boolean matches(byte[] password, String value) {
            // Bouncy Castle compares the recomputed string with the stored one in constant time.
            return bcryptCost(value) > 0 && OpenBSDBCrypt.checkPassword(value, password);
        }

        @Override
        long workFactor(String value) {
            int cost = bcryptCost(value);
            return cost > 0 ? 245L << cost : 1;
        }

        @Override
        String encode(byte[] password) {
            return bcrypt(password, BCRYPT_COST);
        }
    };

    /** Highest SHA-crypt round count that can match (commons-codec refuses more by default). */
    static final int MAX_SHA_CRYPT_ROUNDS = 1_000_000;
    /** Highest bcrypt cost that can match: cost 15 is about 1.5 s, as much as PBKDF2's ceiling. */
    static final int MAX_BCRYPT_COST = 15;
    /** The cost of new bcrypt values (about 50 ms: the common default, and a slow-lane check). */
    static final int BCRYPT_COST = 10;

    private static final int SHA_CRYPT_DEFAULT_ROUNDS = 5_000;
    private static final String ROUNDS = "rounds=";
    /** The alphabet of crypt(3) salts and hashes. */
    private static final String ALPHABET = "./0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

    private final boolean weak;

    CryptFormat(boolean weak) {
        this.weak = weak;
    }

    /** Whether new passwords must not be stored in this format. */
    boolean isWeak() {
        return weak;
    }

    /**
     * Whether {@code password} is the one {@code value} (of this format) was made from. The library may
     * wipe {@code password}: callers pass a copy they do not use again. May throw on a malformed value.
     */
    abstract boolean matches(byte[] password, String value);

    /** The cost of {@link #matches} for {@code value}, in PBKDF2 iterations; 1 if it cannot match. */
    abstract long workFactor(String value);

    /** A new value for {@code password}, with fresh random salt. */
    abstract String encode(byte[] password);

    /** A new bcrypt value ({@code $2b$}) for {@code password} at {@code cost}, with fresh random salt. */
    static String bcrypt(byte[] password, int cost) {
        if (password.length > 72) {
            throw new IllegalArgumentException("bcrypt uses only the first 72 bytes of a password");
        }
        return OpenBSDBCrypt.generate("2b", password, SchemeSupport.randomSalt(16), cost);
    }

    /** The format of {@code value}, or {@code null} if it is none of these. */
    static CryptFormat of(String value) {
        if (value.startsWith("$1$")) {
            return MD5;
        } else if (value.startsWith("$5$")) {
            return SHA256;
        } else if (value.startsWith("$6$")) {
            return SHA512;
        } else if (value.startsWith("$2a$") || value.startsWith("$2b$") || value.startsWith("$2y$")) {
            return BCRYPT;
        } else if (value.length() == 13 && inAlphabet(value)) {
            return DES;
        }
        return null;
    }

    private static boolean inAlphabet(String value) {
        for (int i = 0; i < value.length(); i++) {
            if (ALPHABET.indexOf(value.charAt(i)) < 0) {
                return false;
            }
        }
        return true;
    }

    /**
     * The round count of a SHA-crypt value: the default if it names none, else its {@code rounds=N$},
     * or -1 if that is malformed or above {@link #MAX_SHA_CRYPT_ROUNDS}.
     */
    static long shaCryptRounds(String value) {
        if (!value.startsWith(ROUNDS, 3)) {
            return SHA_CRYPT_DEFAULT_ROUNDS;
        }
        long rounds = 0;
        int i = 3 + ROUNDS.length();
        for (; i < value.length() && value.charAt(i) != '$'; i++) {
            char c = value.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
            rounds = rounds * 10 + (c - '0');
            if (rounds > MAX_SHA_CRYPT_ROUNDS) {
                return -1;
            }
        }
        return i == 3 + ROUNDS.length() || i == value.length() ? -1 : Math.max(rounds, 1_000);
    }

    /** The cost of a {@code $2?$NN$...} value, or -1 if it is not two digits from 4 to {@link #MAX_BCRYPT_COST}. */
    static int bcryptCost(String value) {
        if (value.length() < 7 || value.charAt(6) != '$') {
            return -1;
        }
        char tens = value.charAt(4);
        char units = value.charAt(5);
        if (tens < '0' || tens > '9' || units < '0' || units > '9') {
            return -1;
        }
        int cost = (tens - '0') * 10 + (units - '0');
        return cost >= 4 && cost <= MAX_BCRYPT_COST ? cost : -1;
    }

    /** Constant-time equality of a computed crypt string and the stored one (both ASCII). */
    private static boolean equal(String computed, String stored) {
        return ConstantTime.equals(computed.getBytes(StandardCharsets.US_ASCII),
                stored.getBytes(StandardCharsets.US_ASCII));
    }

    /** {@code length} random characters of the crypt alphabet. */
    private static String randomSalt(int length) {
        byte[] random = SchemeSupport.randomSalt(length);
        StringBuilder salt = new StringBuilder(length);
        for (byte b : random) {
            salt.append(ALPHABET.charAt(b & 63));
        }
        return salt.toString();
    }
}
