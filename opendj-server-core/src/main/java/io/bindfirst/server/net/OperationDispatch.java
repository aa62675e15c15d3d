package io.bindfirst.server.net;

import java.util.function.BooleanSupplier;

import org.forgerock.opendj.ldap.ResultCode;

import io.bindfirst.server.config.ServerConfig.Listener.Inline;
import io.bindfirst.server.core.Operation;
import io.bindfirst.server.work.WorkQueue;

/**
 * Where an operation starts once its connection has a slot for it: on the thread that decoded it, or on a
 * worker. Starting a cached bind where it was read saves waking a worker and switching to it, which cost
 * more CPU than the bind itself (66% of the server's CPU per bind was the kernel's, waking and switching
 * threads); an operation that finds it must block or compute moves itself to the workers
 * ({@link Operation#startsInline()}).
 *
 * <p>Only when the connection has nothing else outstanding: an operation started inline overtakes
 * whatever of the same connection still waits in the work queue, and requests are answered in order on a
 * connection where that matters (a bind after a search, RFC 4511 4.2.1).
 */
final class OperationDispatch {
    private final WorkQueue workers;
    private final Inline inline;
    private final BooleanSupplier stopping;

    /** @param stopping whether the server has begun to stop ({@link ClientConnections#draining}) */
    OperationDispatch(WorkQueue workers, Inline inline, BooleanSupplier stopping) {
        this.workers = workers;
        this.inline = inline;
        this.stopping = stopping;
    }

    /**
     * Runs {@code operation} now on this thread or queues it; answers it busy if the queue is full, and
     * unavailable once the server has begun to stop (see {@link ClientConnections#drain}).
     */
    void start(Operation operation, OperationSlots slots) {
        if (stopping.getAsBoolean()) {
            operation.refuse(ResultCode.UNAVAILABLE, ClientConnections.SHUTTING_DOWN);
        } else if (runsHere(operation, slots)) {
            workers.ranInline();
            operation.runInline(workers);
        } else if (!workers.enqueue(operation)) {
            operation.rejectBusy();
        }
    }

    private boolean runsHere(Operation operation, OperationSlots slots) {
        if (inline == Inline.NEVER || !operation.startsInline() || slots.outstanding() > 1) {
            return false;
        }
        return inline == Inline.ALWAYS || !workers.hasWork();
    }
}
