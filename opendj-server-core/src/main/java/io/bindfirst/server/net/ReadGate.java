package io.bindfirst.server.net;

import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import org.glassfish.grizzly.filterchain.BaseFilter;
import org.glassfish.grizzly.filterchain.FilterChainContext;
import org.glassfish.grizzly.filterchain.NextAction;

import io.bindfirst.server.work.WorkQueue;

/**
 * Back-pressure, the semaphore of the OpenLDAP connection-management paper: a Grizzly filter ahead of the
 * LDAP decoder that suspends a connection's read instead of passing the bytes on while that connection has
 * its limit of operations outstanding ({@link OperationSlots}) or, server-wide, while the work queue is
 * {@linkplain WorkQueue#saturated() saturated}. A suspended read is not re-armed, so the
 * kernel's socket buffers fill and TCP flow control stops the client; nothing more is decoded or queued.
 * When the workers have caught up, the parked reads are resumed in arrival order (on the worker thread
 * that noticed, which then decodes the bytes it resumes and queues their operations; decoding is cheap).
 *
 * <p>The per-connection limit bounds one client; the work queue's bounds the sum over thousands.
 */
final class ReadGate extends BaseFilter {
    private final WorkQueue workQueue;
    private final ClientConnections connections;
    private final ConcurrentLinkedQueue<FilterChainContext> parked = new ConcurrentLinkedQueue<>();
    private final AtomicInteger parkedCount = new AtomicInteger();
    private final AtomicLong timesParked = new AtomicLong();

    ReadGate(WorkQueue workQueue, ClientConnections connections) {
        this.workQueue = workQueue;
        this.connections = connections;
        workQueue.whenCaughtUp(this::resumeParked);
    }

    @Override
    public NextAction handleRead(FilterChainContext ctx) {
        // A resumed read comes back here (ctx.resume() re-runs this filter), so both checks are made again.
        ClientConnection c = connections.of(ctx.getConnection());
        if (c != null && !c.slots().readAllowed()) {
            ctx.suspend();
            c.slots().parkRead(ctx::resume);
            return ctx.getSuspendAction();
        }
        if (!workQueue.saturated()) {
            return ctx.getInvokeAction();
        }
        ctx.suspend();
        parked.add(ctx);
        parkedCount.incrementAndGet();
        timesParked.incrementAndGet();
        // The queue may have caught up between the check and the parking, with no operation left to say so.
        if (!workQueue.saturated()) {
            resumeParked();
        }
        return ctx.getSuspendAction();
    }

    /** Resumes parked reads while the queue has room. Cheap when nothing is parked (one volatile read). */
    void resumeParked() {
        if (parkedCount.get() == 0) {
            return;
        }
        FilterChainContext ctx;
        while (!workQueue.saturated() && (ctx = parked.poll()) != null) {
            parkedCount.decrementAndGet();
            ctx.resume();
        }
    }

    /** Reads parked now, waiting for the workers. */
    int parked() {
        return parkedCount.get();
    }

    /** Reads parked since the start: how often back-pressure engaged. */
    long timesParked() {
        return timesParked.get();
    }
}
