package io.bindfirst.server.monitor;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryUsage;
import java.lang.management.ThreadMXBean;

import org.forgerock.opendj.ldap.DN;

/**
 * {@code cn=JVM,cn=monitor}: the heap (used, committed, maximum), the garbage collections (count and time,
 * summed over the collectors) and the live threads, read from {@code java.lang.management} when the entry is read.
 */
final class JvmMonitor implements MonitorEntry {
    private static final DN NAME = MonitorBackend.BASE_DN.child("cn", "JVM");

    @Override
    public DN name() {
        return NAME;
    }

    @Override
    public void addValues(MonitorValues out) {
        MemoryUsage heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage();
        long gcCount = 0;
        long gcMillis = 0;
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            // -1 means the collector does not say.
            gcCount += Math.max(0, gc.getCollectionCount());
            gcMillis += Math.max(0, gc.getCollectionTime());
        }
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        out.add("ds-mon-jvm-heap-used", heap.getUsed())
                .add("ds-mon-jvm-heap-committed", heap.getCommitted())
                .add("ds-mon-jvm-heap-max", heap.getMax())
                .add("ds-mon-jvm-gc-count", gcCount)
                .add("ds-mon-jvm-gc-time", gcMillis)
                .add("ds-mon-jvm-threads", threads.getThreadCount())
                .add("ds-mon-jvm-peak-threads", threads.getPeakThreadCount());
    }
}
