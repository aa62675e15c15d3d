package io.bindfirst.server.cache;

import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;

/**
 * A map bounded in entries that evicts the one admitted first, whose reads are a {@link ConcurrentHashMap#get}
 * and nothing more: the caches of the bind path are read on every bind and written only on a miss. A cache that
 * records its reads (Caffeine's size bound moves each key read in its access lists and counts it in a frequency
 * sketch) writes into old entries spread over the whole heap on every hit: at a million cached users that kept
 * G1's refinement threads busy for 13% of the server's CPU, on top of the lookups' own cost. Admissions and
 * removals take this object's monitor; a key removed and admitted again may leave early (a miss, never a wrong
 * answer).
 *
 * @param <K> keys, with the hash and equality of map keys
 * @param <V> values, shared between threads as they are
 */
public final class FifoCache<K, V> {
    private final int capacity;
    private final ConcurrentHashMap<K, V> map;
    /** Keys in admission order; the slot at {@link #next} holds the oldest. Guarded by this. */
    private final Object[] ring;
    private int next;

    /** @param capacity the most entries held; 0 holds none */
    public FifoCache(int capacity) {
        if (capacity < 0) {
            throw new IllegalArgumentException("capacity " + capacity);
        }
        this.capacity = capacity;
        this.map = new ConcurrentHashMap<>(Math.min(capacity, 1 << 16));
        this.ring = new Object[capacity];
    }

    /** The value under {@code key}, or {@code null}; lock-free. */
    public V get(K key) {
        return map.get(key);
    }

    /** Holds {@code value} under {@code key}, evicting the oldest entry when full. */
    public synchronized void put(K key, V value) {
        if (capacity == 0) {
            return;
        }
        @SuppressWarnings("unchecked")
        K oldest = (K) ring[next];
        if (oldest != null) {
            map.remove(oldest);
        }
        ring[next] = key;
        next = next + 1 == capacity ? 0 : next + 1;
        map.put(key, value);
    }

    /**
     * Removes {@code key}. Under the monitor although the map alone would not need it: with removals beside
     * admissions, the map's size (summed from per-thread counters) was seen above the capacity for a moment.
     */
    public synchronized void remove(K key) {
        map.remove(key);
    }

    /** Removes every entry whose key {@code matches}. */
    public synchronized void removeKeysIf(Predicate<? super K> matches) {
        map.keySet().removeIf(matches);
    }

    /** How many entries are held. */
    public int size() {
        return map.size();
    }
}
