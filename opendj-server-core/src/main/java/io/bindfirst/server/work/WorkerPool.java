package io.bindfirst.server.work;

import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A fixed set of worker threads fed by a bounded queue, with a count of the operations it holds (waiting or
 * running). At {@code capacity} it reports itself {@link #saturated()}: the transport stops reading from
 * connections, so the queue stops growing; below three quarters of it the transport is told to read again.
 * Requests already read when the gate closed still queue: the caller says how many that can be at most
 * ({@code burst}: each thread that reads or resumes reads may be decoding one connection's worth of
 * pipelined requests). Only past {@code capacity + burst} is a request rejected (answered {@code busy}),
 * which back-pressure makes a bug rather than an event.
 */
public final class WorkerPool implements WorkQueue {
    private static final Logger LOG = LoggerFactory.getLogger(WorkerPool.class);

    /**
     * Threads the pool may add while its own wait for clients that do not read their results
     * ({@link Compensation}): per wait one, this many at most.
     */
    static final int MOST_COMPENSATING = 64;

    private final ThreadPoolExecutor executor;
    /** Set once in the constructor, before any thread is made (the factory reads it). */
    private Compensation compensation;
    private final AtomicInteger pending = new AtomicInteger();
    private final AtomicInteger mostPending = new AtomicInteger();
    private final LongAdder queued = new LongAdder();
    private final LongAdder inline = new LongAdder();
    private final int highWater;
    private final int lowWater;
    private volatile Runnable caughtUp = () -> { };

    /**
     * @param threads worker threads
     * @param capacity operations held (waiting or running) at which the transport stops reading
     * @param burst operations that can still arrive after that, already read
     */
    public WorkerPool(int threads, int capacity, int burst) {
        AtomicInteger n = new AtomicInteger();
        // Threads are made once the compensation exists (prestartAllCoreThreads, below, or later).
        ThreadFactory factory = r -> new PoolThread(r, "worker-" + n.getAndIncrement(), this.compensation);
        this.highWater = capacity;
        this.lowWater = Math.max(1, capacity * 3 / 4);
        int hardLimit = (int) Math.min(Integer.MAX_VALUE - 8, (long) capacity + burst);
        this.executor = new ThreadPoolExecutor(threads, threads, 0, TimeUnit.MILLISECONDS,
                new ArrayBlockingQueue<>(hardLimit), factory, new ThreadPoolExecutor.AbortPolicy());
        this.compensation = new Compensation(executor, threads, MOST_COMPENSATING);
        this.executor.prestartAllCoreThreads();
    }

    @Override
    public boolean enqueue(Runnable operation) {
        queued.increment();
        int now = pending.incrementAndGet();
        try {
            executor.execute(() -> run(operation));
            if (now > mostPending.get()) {
                mostPending.accumulateAndGet(now, Math::max);
            }
            return true;
        } catch (RejectedExecutionException e) {
            pending.decrementAndGet();
            return false;
        }
    }

    private void run(Runnable operation) {
        try {
            operation.run();
        } catch (Throwable t) {
            // An operation answers its own errors; anything here is a bug. Keep the worker alive.
            LOG.error("Operation failed unexpectedly", t);
        } finally {
            if (pending.decrementAndGet() < lowWater) {
                caughtUp.run();
            }
        }
    }

    @Override
    public boolean hasWork() {
        return pending.get() > 0;
    }

    @Override
    public void ranInline() {
        inline.increment();
    }

    @Override
    public long started() {
        return queued.sum() + inline.sum();
    }

    @Override
    public long startedInline() {
        return inline.sum();
    }

    @Override
    public boolean saturated() {
        return pending.get() >= highWater;
    }

    @Override
    public void whenCaughtUp(Runnable callback) {
        this.caughtUp = callback;
    }

    /** The worker threads (as configured: not counting those standing in for waiting ones). */
    public int threads() {
        return executor.getCorePoolSize() - Math.min(compensation.waiting(), MOST_COMPENSATING);
    }

    /** Worker threads waiting now for a client to read its results (each replaced while it waits). */
    public int waitingForClients() {
        return compensation.waiting();
    }

    /** Operations held now, waiting or running. */
    public int held() {
        return pending.get();
    }

    /** Operations waiting for a worker now. */
    public int waiting() {
        return executor.getQueue().size();
    }

    /** The most operations held at once since the start (waiting or running): what the bound held to. */
    public int mostPending() {
        return mostPending.get();
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
