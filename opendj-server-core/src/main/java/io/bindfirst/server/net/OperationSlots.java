package io.bindfirst.server.net;

import java.util.ArrayDeque;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * One connection's limit on outstanding operations ({@code ds-cfg-max-concurrent-ops-per-connection}):
 * at most that many of its operations run or wait in the work queue at once, and while that many are
 * outstanding the {@link ReadGate} reads nothing more from it. Requests already read beyond the limit (a
 * client pipelining many in one TCP segment) wait here, in order, for a slot.
 *
 * <p>The SDK has such a limit too, but 5.0.3 loses requests when it suspends a read mid-segment (it hands
 * the request that took the last slot over a second time on resume), so its limit is switched off and this
 * one is used.
 */
final class OperationSlots {
    private final int limit;
    /** Decoded and not finished: running, in the work queue, or waiting here. */
    private final AtomicInteger outstanding = new AtomicInteger();
    private final AtomicReference<Runnable> parkedRead = new AtomicReference<>();
    private int started; // guarded by this
    private final ArrayDeque<Runnable> waiting = new ArrayDeque<>(); // guarded by this

    OperationSlots(int limit) {
        this.limit = limit;
    }

    /** A request became an operation (on the thread that decoded it). */
    void received() {
        outstanding.incrementAndGet();
    }

    /** Runs {@code start} (which queues the operation) now if a slot is free, or when one frees. */
    void start(Runnable start) {
        synchronized (this) {
            if (started >= limit) {
                waiting.add(start);
                return;
            }
            started++;
        }
        start.run();
    }

    /** An operation finished: its slot goes to the next waiting one, and reading may resume. */
    void done() {
        Runnable next;
        synchronized (this) {
            next = waiting.poll();
            if (next == null) {
                started--;
            }
        }
        if (next != null) {
            next.run();
        }
        if (outstanding.decrementAndGet() < limit) {
            resumeRead();
        }
    }

    int outstanding() {
        return outstanding.get();
    }

    /** Whether the connection may be read: fewer than the limit outstanding. */
    boolean readAllowed() {
        return outstanding.get() < limit;
    }

    /** Keeps a suspended read until an operation finishes (or runs it now if one finished meanwhile). */
    void parkRead(Runnable resume) {
        parkedRead.set(resume);
        if (readAllowed()) {
            resumeRead();
        }
    }

    private void resumeRead() {
        if (parkedRead.get() != null) {
            Runnable r = parkedRead.getAndSet(null);
            if (r != null) {
                r.run();
            }
        }
    }
}
