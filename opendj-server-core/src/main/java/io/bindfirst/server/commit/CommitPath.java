package io.bindfirst.server.commit;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.LongAdder;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one path every committed change takes before it is acknowledged: client writes, the lock and the grace
 * login a bind writes, referential integrity's updates of groups, a bind's deferred bookkeeping (and, with
 * replicas, the changes a replica applies). Each is described once ({@link Change}) and handed, in the order of
 * registration, to the {@link ChangeListener}s that the server registered when it started.
 *
 * <p>The order matters and is the server's to set: the access rules and the group index first (the registry's
 * refresh and the next operation's decisions read them), then the write epoch, then the registry of
 * authenticated connections, whose scan must follow the epoch's advance (see
 * {@code io.bindfirst.server.auth.WriteEpoch}). A backend's own caches (the JE backend's bind entries) are
 * invalidated by the backend itself when its transaction ends, before the change reaches this path, so that a
 * bind that sees the epoch move and reads its entry again never reads it from a cache older than the write.
 *
 * <p>Listeners are registered while the server starts, before the first change; registering later is refused,
 * so that no change reaches some listeners and not others. Thread-safe: changes are committed concurrently, and
 * each listener is itself thread-safe.
 */
public final class CommitPath {
    private static final Logger LOG = LoggerFactory.getLogger(CommitPath.class);

    private final List<ChangeListener> registering = new ArrayList<>();
    /** The listeners, fixed by the first change. */
    private volatile ChangeListener[] listeners;
    private final LongAdder committed = new LongAdder();

    /**
     * Adds {@code listener} after those registered before it.
     *
     * @throws IllegalStateException once a change has been committed
     */
    public synchronized CommitPath register(ChangeListener listener) {
        if (listeners != null) {
            throw new IllegalStateException("Listeners are registered before the first change");
        }
        registering.add(listener);
        return this;
    }

    /**
     * Hands {@code change} to every listener, in order, on this thread.
     *
     * @return what the listeners left for after the origin connection's answer; empty when the change has no
     *         origin connection, and then nothing waits
     */
    public AfterAnswer commit(Change change) {
        ChangeListener[] all = listeners;
        if (all == null) {
            all = fixed();
        }
        AfterAnswer after = new AfterAnswer();
        for (ChangeListener l : all) {
            try {
                l.committed(change, after);
            } catch (RuntimeException e) {
                // The change is committed: the others must still see it.
                LOG.error("A listener of committed changes failed on the {} of {}", change.kind(),
                        change.dnAfter() != null ? change.dnAfter() : change.dnBefore(), e);
            }
        }
        committed.increment();
        if (change.origin() == Change.NO_CONNECTION) {
            after.run();
        }
        return after;
    }

    private synchronized ChangeListener[] fixed() {
        if (listeners == null) {
            listeners = registering.toArray(new ChangeListener[0]);
        }
        return listeners;
    }

    /** Changes committed since the start: for monitoring and tests. */
    public long committed() {
        return committed.sum();
    }
}
