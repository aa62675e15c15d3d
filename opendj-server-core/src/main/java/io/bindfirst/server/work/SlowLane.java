package io.bindfirst.server.work;

import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.bindfirst.server.pwd.Pacer;

/**
 * Where operations known to be expensive run (a password stored with a costly PBKDF2, an unindexed search):
 * a few threads of their own, so they never occupy the workers that cheap binds need, and a {@link Pacer}
 * that holds them to a small share of the CPU while the main work queue has work. On an idle server they run
 * at full speed; under a bind load an expensive operation takes longer, and the binds keep their pace. This
 * is the OpenLDAP connection-management paper's lesson (long operations must not take the threads and the
 * CPU of short ones), applied to CPU as well as threads.
 *
 * <p>The pacing is a duty cycle measured in wall time: after each stretch of work of at least
 * {@value #STRETCH_NANOS} ns, if the main queue holds any operation or started one during the stretch (a
 * cached bind runs inline, never waiting in the queue), the thread parks for as long as it takes to bring
 * its share down to {@code sharePercent}.
 */
public final class SlowLane implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(SlowLane.class);
    static final long STRETCH_NANOS = 500_000;
    private static final long LONGEST_PAUSE_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

    private final WorkerPool main;
    private final int sharePercent;
    private final ThreadPoolExecutor executor;
    private final Pacer pacer = this::pace;
    private final AtomicLong timesPaused = new AtomicLong();

    /** A lane thread, with the start of its current stretch of work. */
    private static final class LaneThread extends PoolThread {
        long stretchStart;
        /** The main queue's {@link WorkQueue#started()} at the end of the last stretch. */
        long mainStarted;

        LaneThread(Runnable r, String name, Compensation compensation) {
            super(r, name, compensation);
        }
    }

    /** Set once in the constructor, before any thread is made (the factory reads it). */
    private Compensation compensation;

    /**
     * @param threads lane threads
     * @param capacity operations that may wait for them; beyond it one is answered busy
     * @param sharePercent the share (1-100) of each lane thread's time spent working while {@code main} has work
     * @param main the work queue whose operations have priority
     */
    public SlowLane(int threads, int capacity, int sharePercent, WorkerPool main) {
        this.main = main;
        this.sharePercent = sharePercent;
        AtomicInteger n = new AtomicInteger();
        this.executor = new ThreadPoolExecutor(threads, threads, 0, TimeUnit.MILLISECONDS,
                new ArrayBlockingQueue<>(capacity),
                r -> new LaneThread(r, "slow-lane-" + n.getAndIncrement(), this.compensation),
                new ThreadPoolExecutor.AbortPolicy());
        // An unindexed search whose client does not read waits here as on a worker: replaced while it waits.
        this.compensation = new Compensation(executor, threads, WorkerPool.MOST_COMPENSATING);
        executor.prestartAllCoreThreads();
    }

    /** Queues {@code work}; {@code false} if the lane's queue is full. Never blocks. */
    public boolean enqueue(Runnable work) {
        try {
            executor.execute(() -> {
                ((LaneThread) Thread.currentThread()).stretchStart = System.nanoTime();
                try {
                    work.run();
                } catch (Throwable t) {
                    LOG.error("Slow-lane operation failed unexpectedly", t);
                }
            });
            return true;
        } catch (RejectedExecutionException e) {
            return false;
        }
    }

    /** The pacer long work calls; it does nothing on threads other than the lane's. */
    public Pacer pacer() {
        return pacer;
    }

    private void pace() {
        if (!(Thread.currentThread() instanceof LaneThread t)) {
            return;
        }
        long now = System.nanoTime();
        long worked = now - t.stretchStart;
        if (worked < STRETCH_NANOS) {
            return;
        }
        // Cheap binds run on the transport threads never wait in the main queue: that they arrived during
        // the stretch is what says the CPU is wanted, as much as work waiting now.
        long mainStarted = main.started();
        boolean mainBusy = main.hasWork() || mainStarted != t.mainStarted;
        t.mainStarted = mainStarted;
        if (mainBusy && sharePercent < 100) {
            long pause = Math.min(LONGEST_PAUSE_NANOS, worked * (100 - sharePercent) / sharePercent);
            timesPaused.incrementAndGet();
            LockSupport.parkNanos(pause);
        }
        t.stretchStart = System.nanoTime();
    }

    /** The lane's threads (as configured: not counting those standing in for waiting ones). */
    public int threads() {
        return executor.getCorePoolSize() - Math.min(compensation.waiting(), WorkerPool.MOST_COMPENSATING);
    }

    /** Operations waiting for a lane thread now. */
    public int waiting() {
        return executor.getQueue().size();
    }

    /** Pauses since the start: how often the lane gave way. */
    public long timesPaused() {
        return timesPaused.get();
    }

    @Override
    public void close() {
        executor.shutdownNow();
        try {
            executor.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
