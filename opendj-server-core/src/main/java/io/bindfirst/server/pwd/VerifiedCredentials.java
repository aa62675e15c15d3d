package io.bindfirst.server.pwd;

import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.concurrent.atomic.LongAdder;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

import org.forgerock.opendj.ldap.ByteSequence;
import org.forgerock.opendj.ldap.ByteString;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;

/**
 * What costly password checks proved: for an entry (its normalized DN) and the stored value a presented
 * password matched, an HMAC-SHA256 of that password under a key made at random when this object is built
 * (per server process: it is never logged, written or exposed). A later check of the same password against the
 * same stored value costs one HMAC instead of a PBKDF2, bcrypt, Argon2 or crypt run
 * ({@code ds-cfg-verified-credential-cache-size}).
 *
 * <p>The stored value is part of the key, so a password change, a new salt or a new work factor (anything
 * that rewrites the stored value) leaves the old record unreachable: nothing has to invalidate it, and it
 * ages out of the bounded cache. Only successes are recorded, by the caller, so a wrong password never
 * finds a record of its own. The record holds no password, only its HMAC, compared in constant time.
 *
 * <p>Bounded in records (Caffeine's size-based eviction); a size of 0 turns it off, and then {@link #enabled()}
 * is false and nothing is held. Thread-safe.
 */
public final class VerifiedCredentials {
    private static final String HMAC = "HmacSHA256";
    private static final int KEY_BYTES = 32;

    /** One record's key: the entry and the stored value that matched. */
    private record Key(ByteString normalizedDn, ByteString storedValue) {
    }

    /** {@code null} when off. */
    private final Cache<Key, byte[]> records;
    /** Keyed with the process's secret; cloned for each use (a {@link Mac} is not thread-safe). */
    private final Mac prototype;
    private final LongAdder hits = new LongAdder();
    private final LongAdder misses = new LongAdder();

    /**
     * @param maximumRecords the most records held (0: off)
     * @param random where the HMAC key comes from
     * @throws IllegalArgumentException if {@code maximumRecords} is negative
     */
    public VerifiedCredentials(long maximumRecords, SecureRandom random) {
        if (maximumRecords < 0) {
            throw new IllegalArgumentException("maximumRecords < 0: " + maximumRecords);
        }
        if (maximumRecords == 0) {
            this.records = null;
            this.prototype = null;
            return;
        }
        byte[] key = new byte[KEY_BYTES];
        random.nextBytes(key);
        try {
            prototype = Mac.getInstance(HMAC);
            prototype.init(new SecretKeySpec(key, HMAC));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("The JDK provides no " + HMAC, e);
        } finally {
            java.util.Arrays.fill(key, (byte) 0);
        }
        // Run maintenance (eviction) on the calling thread: the bind path's threads are the server's own,
        // and the default (ForkJoinPool.commonPool) would add threads the server does not account for.
        this.records = Caffeine.newBuilder().maximumSize(maximumRecords).executor(Runnable::run).build();
    }

    /** A cache that holds nothing: every lookup misses. */
    public static VerifiedCredentials off() {
        return new VerifiedCredentials(0, null);
    }

    /** Whether records are kept at all (a size above 0). */
    public boolean enabled() {
        return records != null;
    }

    /**
     * The HMAC of {@code clear} under the process's key: what {@link #holds} and {@link #remember} take.
     *
     * @throws IllegalStateException if the cache is {@linkplain #enabled() off}
     */
    public byte[] mac(ByteSequence clear) {
        if (prototype == null) {
            throw new IllegalStateException("the verified-credential cache is off");
        }
        Mac mac;
        try {
            mac = (Mac) prototype.clone();
        } catch (CloneNotSupportedException e) {
            throw new IllegalStateException(HMAC + " of this JDK cannot be cloned", e);
        }
        byte[] bytes = clear.toByteArray();
        try {
            return mac.doFinal(bytes);
        } finally {
            java.util.Arrays.fill(bytes, (byte) 0);
        }
    }

    /**
     * Whether the password whose HMAC is {@code mac} was recorded as matching {@code storedValue} of the entry
     * {@code normalizedDn}. The HMACs are compared in constant time. Always false when off.
     */
    public boolean holds(ByteString normalizedDn, ByteString storedValue, byte[] mac) {
        if (records == null) {
            return false;
        }
        byte[] recorded = records.getIfPresent(new Key(normalizedDn, storedValue));
        return recorded != null && ConstantTime.equals(mac, recorded);
    }

    /**
     * Counts one password check that asked the cache: a hit when a record answered it, a miss when it had to
     * derive. Counted by the check, once, not per {@link #holds} (a check looks up each costly value, and a
     * bind may look before it decides where to check).
     */
    public void answered(boolean hit) {
        (hit ? hits : misses).increment();
    }

    /** Password checks a record answered since the start: for tests and monitoring. */
    public long hits() {
        return hits.sum();
    }

    /** Password checks that asked and had to derive (a wrong password, or one not proven yet) since the start. */
    public long misses() {
        return misses.sum();
    }

    /**
     * Records that the password whose HMAC is {@code mac} matched {@code storedValue} of the entry
     * {@code normalizedDn}. Call it only after a full check succeeded. Does nothing when off.
     */
    public void remember(ByteString normalizedDn, ByteString storedValue, byte[] mac) {
        if (records != null) {
            records.put(new Key(normalizedDn, storedValue), mac.clone());
        }
    }

    /**
     * Drops the record of {@code storedValue} of the entry {@code normalizedDn}, if there is one: the value is no
     * longer stored there, so no check can reach the record again, and it should not wait to be evicted.
     */
    public void forget(ByteString normalizedDn, ByteString storedValue) {
        if (records != null) {
            records.invalidate(new Key(normalizedDn, storedValue));
        }
    }

    /** The records held now, after pending evictions: for tests and monitoring. */
    public long size() {
        if (records == null) {
            return 0;
        }
        records.cleanUp();
        return records.estimatedSize();
    }

    @Override
    public String toString() {
        return "VerifiedCredentials{" + (records == null ? "off" : size() + " records") + "}";
    }
}
