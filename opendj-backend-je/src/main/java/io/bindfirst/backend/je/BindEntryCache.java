package io.bindfirst.backend.je;

import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

import org.forgerock.opendj.ldap.ByteString;
import org.forgerock.opendj.ldap.Entry;
import org.forgerock.opendj.ldap.Entries;

import io.bindfirst.server.cache.FifoCache;

/**
 * The bind attributes of recently bound entries, by dn2id key, so a re-bind reads no B-tree and decodes
 * nothing. Bounded: at most {@code capacity} entries, the oldest admitted evicted first (FIFO).
 *
 * <p>It must never answer with an entry older than the last committed write to it, not even for a moment
 * (a bind that saw a write's epoch move re-reads its entry and trusts what it gets). Writers call
 * {@link #invalidate}/{@link #invalidateSubtree} after their transaction ends (committed or not), which
 * advance a generation and drop the entries. A reader takes {@link #generation()} before reading storage
 * and passes it to {@link #admit}, which stores the entry only if the generation has not moved. Both run
 * under this object's monitor, so an admission is either before the invalidation (which then drops it) or
 * after it (and then sees the new generation and stores nothing): a value read before a commit is never
 * visible once the writer's call has returned.
 *
 * <p>Hits are lock-free and write nothing ({@link FifoCache}); admissions (on misses only) and invalidations (on
 * writes only) take the monitor. Cached entries are
 * shared between threads and handed out read-only ({@link Entries#unmodifiableEntry}).
 */
final class BindEntryCache {
    private record Cached(Set<String> names, Entry entry) {
    }

    private final int capacity;
    private final FifoCache<ByteString, Cached> map;
    private final AtomicLong generation = new AtomicLong();
    /** Look-ups answered, and bind reads that went to storage instead: for monitoring. */
    private final LongAdder hits = new LongAdder();
    private final LongAdder misses = new LongAdder();

    /** @param capacity the most entries held; 0 turns the cache off */
    BindEntryCache(int capacity) {
        if (capacity < 0) {
            throw new IllegalArgumentException("capacity " + capacity);
        }
        this.capacity = capacity;
        this.map = new FifoCache<>(capacity);
    }

    /**
     * The cached entry under {@code key} read for exactly these attribute names, or {@code null}. An answer
     * counts as a hit; a caller that then reads storage counts the {@link #missed() miss}.
     */
    Entry get(ByteString key, Set<String> names) {
        Cached c = map.get(key);
        if (c != null && (c.names == names || c.names.equals(names))) {
            hits.increment();
            return c.entry;
        }
        return null;
    }

    /** A bind read found nothing here and reads storage. */
    void missed() {
        misses.increment();
    }

    long hits() {
        return hits.sum();
    }

    long misses() {
        return misses.sum();
    }

    /** Take this before reading storage, and pass it to {@link #admit}. */
    long generation() {
        return generation.get();
    }

    /**
     * Caches {@code entry}, read from storage for {@code names} after {@code seen} was taken, unless a write
     * ended since. Returns the read-only view that is cached (or would have been).
     */
    Entry admit(ByteString key, Set<String> names, Entry entry, long seen) {
        Entry shared = Entries.unmodifiableEntry(entry);
        if (capacity == 0) {
            return shared;
        }
        Cached c = new Cached(names, shared);
        synchronized (this) {
            if (generation.get() != seen) {
                return shared; // a write ended since the read began: what was read may be older than it
            }
            map.put(key, c);
        }
        return shared;
    }

    /** After a write to the entry with this key (whether it committed or not). */
    synchronized void invalidate(ByteString key) {
        generation.incrementAndGet();
        map.remove(key);
    }

    /** After a write to the entry with this key and its whole subtree (a subtree delete, a rename). */
    synchronized void invalidateSubtree(byte[] key) {
        generation.incrementAndGet();
        map.removeKeysIf(k -> DnKeys.inSubtree(k.toByteArray(), key));
    }

    /** After writes to entries this node cannot name (a replayed transaction resumed after a restart). */
    synchronized void invalidateAll() {
        generation.incrementAndGet();
        map.removeKeysIf(k -> true);
    }

    /** How many entries are cached (for tests and monitoring). */
    int size() {
        return map.size();
    }
}
