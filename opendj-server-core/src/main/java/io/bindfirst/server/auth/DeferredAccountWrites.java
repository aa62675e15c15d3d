package io.bindfirst.server.auth;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;

import org.forgerock.opendj.ldap.DN;
import org.forgerock.opendj.ldap.Entry;
import org.forgerock.opendj.ldap.ResultCode;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.bindfirst.server.backend.Backend;
import io.bindfirst.server.backend.BackendException;
import io.bindfirst.server.backend.EntryUpdate;
import io.bindfirst.server.backend.EntryWriter;
import io.bindfirst.server.commit.Change;
import io.bindfirst.server.commit.CommitPath;

/**
 * The writes a successful bind asks for but does not wait for (the last-login time, a password moved off a
 * deprecated scheme): made one at a time by a thread of their own, so that a bind never blocks on the disk for
 * them and a burst of them never takes the workers. Thread-safe.
 *
 * <p>Writes for one account coalesce while they wait (the later update runs after the earlier, in one
 * transaction), and at most {@value #MAX_PENDING} accounts wait: beyond that a write is dropped and counted. Both
 * kinds are safe to drop, since the next bind of that account asks again. Each update decides inside its
 * transaction, from the entry as stored, whether there is anything to write, and throws {@link Unchanged} when
 * there is not: the transaction is abandoned and the log gets nothing.
 *
 * <p>Each write that reaches the log goes through the {@link CommitPath} as {@link Change#bookkeeping bookkeeping}:
 * none of them changes whether an account may authenticate, so the write epoch, the registry and the failure
 * counts pass over them, while the access rules and the group index see them as any change (the backend
 * invalidates its own caches of the entry as for any write).
 */
public final class DeferredAccountWrites implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(DeferredAccountWrites.class);
    static final int MAX_PENDING = 10_000;
    /** How long {@link #close()} lets the waiting writes finish. */
    private static final long DRAIN_MILLIS = 5_000;

    /** Thrown by an update that finds nothing to write. */
    static final class Unchanged extends BackendException {
        Unchanged() {
            super(ResultCode.SUCCESS, "nothing to write");
        }

        @Override
        public synchronized Throwable fillInStackTrace() {
            return this; // a signal, not an error: no stack to record
        }
    }

    private record Pending(Backend backend, EntryUpdate update) {
        Pending then(Pending later) {
            return new Pending(backend, current -> {
                Entry first;
                try {
                    first = update.apply(current);
                } catch (Unchanged e) {
                    return later.update.apply(current);
                }
                try {
                    return later.update.apply(first);
                } catch (Unchanged e) {
                    return first; // the later one had nothing to add: the earlier one's change stands
                }
            });
        }
    }

    private final CommitPath commits;
    private final EntryWriter entries;
    private final ConcurrentHashMap<DN, Pending> pending = new ConcurrentHashMap<>();
    private final LinkedBlockingQueue<DN> order = new LinkedBlockingQueue<>();
    private final LongAdder written = new LongAdder();
    private final LongAdder dropped = new LongAdder();
    private Thread writer;
    private volatile boolean closed;

    DeferredAccountWrites(CommitPath commits, EntryWriter writer) {
        this.commits = commits;
        this.entries = writer;
    }

    /**
     * Queues {@code update} of {@code account}'s entry. Never blocks: returns false (and counts it) when the queue
     * is full or closed.
     */
    public boolean submit(Backend backend, DN account, EntryUpdate update) {
        if (closed) {
            return false;
        }
        if (pending.size() >= MAX_PENDING && !pending.containsKey(account)) {
            dropped.increment();
            return false;
        }
        Pending p = new Pending(backend, update);
        boolean[] fresh = {false};
        pending.compute(account, (k, earlier) -> {
            fresh[0] = earlier == null;
            return earlier == null ? p : earlier.then(p);
        });
        if (fresh[0]) {
            ensureStarted();
            order.add(account);
        }
        return true;
    }

    /** Writes that reached the log since the start. */
    public long written() {
        return written.sum();
    }

    /** Writes dropped because too many accounts were waiting (each is asked again by the account's next bind). */
    public long dropped() {
        return dropped.sum();
    }

    /** Accounts whose writes wait now. */
    public int waiting() {
        return pending.size();
    }

    private synchronized void ensureStarted() {
        if (writer == null && !closed) {
            writer = new Thread(this::run, "deferred-account-writes");
            writer.setDaemon(true);
            writer.start();
        }
    }

    private void run() {
        while (!closed || !pending.isEmpty()) {
            DN account;
            try {
                account = order.poll(100, TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                return; // close() gave up waiting
            }
            if (account != null) {
                write(account);
            }
        }
    }

    private void write(DN account) {
        Pending p = pending.remove(account);
        if (p == null) {
            return;
        }
        try {
            commits.commit(Change.bookkeeping(entries.modify(p.backend(), account, p.update())));
            written.increment();
        } catch (Unchanged e) {
            // the entry already holds what the bind wanted
        } catch (BackendException e) {
            if (e.resultCode() != ResultCode.NO_SUCH_OBJECT) { // deleted or renamed since its bind: nothing to do
                LOG.warn("A deferred write to {} failed ({}): {}", account, e.resultCode(), e.getMessage());
            }
        } catch (RuntimeException e) {
            LOG.error("A deferred write to {} failed", account, e);
        }
    }

    /** Refuses new writes and lets those waiting finish, for at most a few seconds. */
    @Override
    public void close() {
        Thread t;
        synchronized (this) {
            closed = true;
            t = writer;
        }
        if (t == null) {
            return;
        }
        try {
            t.join(DRAIN_MILLIS);
            if (t.isAlive()) {
                LOG.warn("{} deferred account writes were not made before the shutdown", pending.size());
                t.interrupt();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
