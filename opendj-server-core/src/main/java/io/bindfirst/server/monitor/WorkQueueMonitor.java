package io.bindfirst.server.monitor;

import org.forgerock.opendj.ldap.DN;

import io.bindfirst.server.work.SlowLane;
import io.bindfirst.server.work.WorkerPool;

/**
 * {@code cn=Work Queue,cn=monitor}: the workers (threads, operations held and waiting now, the most held at
 * once), the operations started since the start and how many of them inline on a transport thread, and the
 * slow lane (threads, operations waiting, how often it gave way to the workers).
 */
final class WorkQueueMonitor implements MonitorEntry {
    private static final DN NAME = MonitorBackend.BASE_DN.child("cn", "Work Queue");

    private final WorkerPool workers;
    private final SlowLane slowLane;

    WorkQueueMonitor(WorkerPool workers, SlowLane slowLane) {
        this.workers = workers;
        this.slowLane = slowLane;
    }

    @Override
    public DN name() {
        return NAME;
    }

    @Override
    public void addValues(MonitorValues out) {
        out.add("ds-mon-worker-threads", workers.threads())
                .add("ds-mon-work-queue-held", workers.held())
                .add("ds-mon-work-queue-waiting", workers.waiting())
                .add("ds-mon-work-queue-most-held", workers.mostPending())
                .add("ds-mon-operations-started", workers.started())
                .add("ds-mon-operations-started-inline", workers.startedInline())
                .add("ds-mon-slow-lane-threads", slowLane.threads())
                .add("ds-mon-slow-lane-waiting", slowLane.waiting())
                .add("ds-mon-slow-lane-pauses", slowLane.timesPaused());
    }
}
