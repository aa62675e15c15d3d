package io.bindfirst.server.work;

/**
 * The hand-off from the transport (Grizzly selector threads, which must never block) to the threads that
 * run operations. One small interface, so the strategy behind it can be measured and swapped.
 */
public interface WorkQueue extends AutoCloseable {

    /**
     * Queues {@code operation} to run on a worker. Never blocks.
     *
     * @return {@code false} if the queue is full even past its high-water mark; the caller answers the
     *         request {@code busy}
     */
    boolean enqueue(Runnable operation);

    /** Whether any operation waits or runs on the workers. */
    boolean hasWork();

    /**
     * Counts an operation that ran on a transport thread instead of being queued (a cached bind): the work
     * the slow lane gives way to includes it ({@link #started}), though it never waits in the queue.
     */
    void ranInline();

    /**
     * Operations queued or {@linkplain #ranInline() run inline} since the start. A change between two looks
     * says cheap work arrived in between, even when none is waiting at either look.
     */
    long started();

    /** Operations {@linkplain #ranInline() run inline} since the start (some then moved to the workers). */
    long startedInline();

    /**
     * Whether as many operations wait or run as the configured capacity: the transport then stops reading
     * requests (back-pressure) until {@link #whenCaughtUp} is called.
     */
    boolean saturated();

    /**
     * Sets what to call when the work queue has caught up (fallen below its low-water mark after an
     * operation ended); called on a worker thread, so it must be quick and must not block.
     */
    void whenCaughtUp(Runnable callback);

    /** Stops taking work, lets queued work finish for a short while, then stops the workers. */
    @Override
    void close();
}
