package io.bindfirst.server.backend;

/**
 * What a backend counts for cn=monitor and /metrics: its bind cache. Read at every scrape, so each answer is cheap
 * and takes no lock a bind takes.
 */
public interface BackendStatistics {

    /** A backend that keeps no cache: every figure -1 (absent from the monitor). */
    BackendStatistics NONE = new BackendStatistics() {
    };

    /**
     * How many entries the backend's bind cache holds now (the entries a re-bind finds without reading
     * storage), or -1 when it keeps none: for cn=monitor, so it must be cheap and take no lock a bind takes.
     */
    default long bindCacheEntries() {
        return -1;
    }

    /**
     * Bind reads the bind cache answered since the start ({@link Backend#getEntry} and {@link Backend#cachedEntry}
     * found the entry in memory; a bind that moves to a worker after its look-up on the transport thread looks
     * again), or -1 when the backend keeps no cache. For monitoring: cheap, no lock.
     */
    default long bindCacheHits() {
        return -1;
    }

    /** Bind reads ({@link Backend#getEntry}) that went to storage since the start, or -1 without a cache. */
    default long bindCacheMisses() {
        return -1;
    }
}
