package io.bindfirst.server.work;

/**
 * The hand-off from the transport (Grizzly selector threads, which must never block) to the threads that
 * run operations. One method, so the strategy behind it can be measured and swapped.
 */
public interface WorkQueue extends AutoCloseable {

    /**
     * Queues {@code operation} to run on a worker. Never blocks.
     *
     * @return {@code false} if the queue is full; the caller answers the request {@code busy}
     */
    boolean enqueue(Runnable operation);

    /** Stops taking work, lets queued work finish for a short while, then stops the workers. */
    @Override
    void close();
}
