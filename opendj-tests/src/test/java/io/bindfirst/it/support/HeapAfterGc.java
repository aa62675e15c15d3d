package io.bindfirst.it.support;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;

/**
 * The test JVM's heap still in use after full collections, for tests that check an in-process server holds no
 * more memory after an abuse than before it.
 *
 * <p>Read from each heap pool's usage as the last collection left it, not from {@code Runtime}'s totals: those
 * also count what the JVM's threads took right after the collection (G1 gives each thread that allocates a
 * buffer of up to a region, 4 MiB on a large heap), which on a 24 GiB machine read ~80 MiB more than the ~35 MiB
 * actually live and failed the comparison though nothing leaked.
 */
public final class HeapAfterGc {
    private HeapAfterGc() {
    }

    public static long usedBytes() throws InterruptedException {
        for (int i = 0; i < 3; i++) {
            System.gc();
            Thread.sleep(50);
        }
        long used = 0;
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            MemoryUsage afterGc = pool.getType() == MemoryType.HEAP ? pool.getCollectionUsage() : null;
            if (afterGc != null) {
                used += afterGc.getUsed();
            }
        }
        return used;
    }
}
