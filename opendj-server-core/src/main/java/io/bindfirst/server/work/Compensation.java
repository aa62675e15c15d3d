package io.bindfirst.server.work;

import java.util.concurrent.ThreadPoolExecutor;

/**
 * Extra threads for a fixed pool while some of its own wait for something other than CPU: a search whose
 * client does not read its results waits for room in its connection's output, and without this, as many
 * such searches as the pool has threads (one client pipelining them is enough) would leave no thread for
 * anyone else's binds until the time limit on that wait. Each waiting thread adds one thread to its pool
 * for as long as it waits, up to {@code most} at once; past that, waiting threads are not replaced, so the
 * threads a pool can have stay bounded.
 *
 * <p>Threads are added and removed through {@link ThreadPoolExecutor}'s own resizing: a larger core size
 * starts a thread for the queued work; a smaller one lets the extra threads end once idle.
 */
public final class Compensation {
    private final ThreadPoolExecutor executor;
    private final int threads;
    private final int most;
    private int waiting; // guarded by this

    Compensation(ThreadPoolExecutor executor, int threads, int most) {
        this.executor = executor;
        this.threads = threads;
        this.most = most;
    }

    /**
     * Runs {@code wait} (which blocks) with one more thread in the calling thread's pool while it does, if
     * the caller is a pool's thread; otherwise just runs it.
     */
    public static void whileWaiting(Runnable wait) {
        Compensation c = Thread.currentThread() instanceof PoolThread t ? t.compensation() : null;
        if (c == null) {
            wait.run();
            return;
        }
        c.begin();
        try {
            wait.run();
        } finally {
            c.end();
        }
    }

    /**
     * Whether the calling thread is one of the server's pool threads (a worker or a slow-lane thread), the only
     * ones that may wait for a client: a transport thread serves every connection on its selector.
     */
    public static boolean mayWait() {
        return Thread.currentThread() instanceof PoolThread;
    }

    private synchronized void begin() {
        waiting++;
        resize();
    }

    private synchronized void end() {
        waiting--;
        resize();
    }

    private void resize() {
        int size = threads + Math.min(waiting, most);
        if (size > executor.getMaximumPoolSize()) {
            executor.setMaximumPoolSize(size);
            executor.setCorePoolSize(size);
        } else if (size < executor.getCorePoolSize()) {
            executor.setCorePoolSize(size);
            executor.setMaximumPoolSize(size);
        }
    }

    /** Threads waiting now (those beyond {@code most} included). */
    public synchronized int waiting() {
        return waiting;
    }
}
