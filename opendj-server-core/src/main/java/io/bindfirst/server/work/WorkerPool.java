package io.bindfirst.server.work;

import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A fixed set of worker threads fed by a bounded queue. A full queue rejects at once (the request is
 * answered {@code busy}) instead of growing without bound; the per-connection limit on outstanding
 * requests stops reading from a connection before it can flood the queue on its own.
 */
public final class WorkerPool implements WorkQueue {
    private static final Logger LOG = LoggerFactory.getLogger(WorkerPool.class);

    private final ThreadPoolExecutor executor;

    public WorkerPool(int threads, int capacity) {
        AtomicInteger n = new AtomicInteger();
        ThreadFactory factory = r -> {
            Thread t = new Thread(r, "worker-" + n.getAndIncrement());
            t.setDaemon(true);
            return t;
        };
        this.executor = new ThreadPoolExecutor(threads, threads, 0, TimeUnit.MILLISECONDS,
                new ArrayBlockingQueue<>(capacity), factory, new ThreadPoolExecutor.AbortPolicy());
        this.executor.prestartAllCoreThreads();
    }

    @Override
    public boolean enqueue(Runnable operation) {
        try {
            executor.execute(() -> {
                try {
                    operation.run();
                } catch (Throwable t) {
                    // An operation answers its own errors; anything here is a bug. Keep the worker alive.
                    LOG.error("Operation failed unexpectedly", t);
                }
            });
            return true;
        } catch (RejectedExecutionException e) {
            return false;
        }
    }

    @Override
    public void close() {
        executor.shutdown();
        try {
            if (!executor.awaitTermination(5, TimeUnit.SECONDS)) {
                executor.shutdownNow();
            }
        } catch (InterruptedException e) {
            executor.shutdownNow();
            Thread.currentThread().interrupt();
        }
    }
}
