package io.bindfirst.server;

import java.lang.management.ManagementFactory;

import com.sun.management.HotSpotDiagnosticMXBean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One full collection that hands the free heap back to the system, for after a burst that grew the heap and will
 * not come again (a first start creating the sample users).
 *
 * <p>G1 gives committed heap back only after a full collection or a marking cycle, and then keeps up to
 * {@code MaxHeapFreeRatio} (70% by default) of it free: after the sample users, ~45 MiB live in 165-175 MiB, a
 * plain {@code System.gc()} kept 163 MiB. For this one collection the ratios are lowered (both flags are
 * manageable in HotSpot), then put back, so the heap's growth and marking under load keep the settings the
 * server was started with (bin/_server-jvm.sh).
 */
final class HeapGiveBack {
    private static final Logger LOG = LoggerFactory.getLogger(HeapGiveBack.class);
    private static final String MIN = "MinHeapFreeRatio";
    private static final String MAX = "MaxHeapFreeRatio";

    private final int minFreePercent;
    private final int maxFreePercent;

    /** For the collection: keep between {@code minFreePercent} and {@code maxFreePercent} of the heap free. */
    HeapGiveBack(int minFreePercent, int maxFreePercent) {
        if (minFreePercent < 0 || minFreePercent > maxFreePercent || maxFreePercent > 100) {
            throw new IllegalArgumentException("0 <= min <= max <= 100: " + minFreePercent + ", " + maxFreePercent);
        }
        this.minFreePercent = minFreePercent;
        this.maxFreePercent = maxFreePercent;
    }

    /** Collects with the lower ratios, then restores them; without HotSpot's flags, a plain collection. */
    void collect() {
        HotSpotDiagnosticMXBean hotspot = null;
        String min = null;
        String max = null;
        try {
            hotspot = ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
            if (hotspot != null) {
                min = hotspot.getVMOption(MIN).getValue();
                max = hotspot.getVMOption(MAX).getValue();
                // Min before max on the way down, the reverse on the way up: the JVM refuses min > max.
                hotspot.setVMOption(MIN, Integer.toString(Math.min(minFreePercent, Integer.parseInt(min))));
                hotspot.setVMOption(MAX, Integer.toString(Math.min(maxFreePercent, Integer.parseInt(max))));
            }
        } catch (RuntimeException e) {
            LOG.debug("Cannot lower the heap's free ratios for one collection", e);
        }
        System.gc();
        try {
            if (max != null) {
                hotspot.setVMOption(MAX, max);
            }
            if (min != null) {
                hotspot.setVMOption(MIN, min);
            }
        } catch (RuntimeException e) {
            LOG.warn("Could not restore the heap's free ratios ({}={}, {}={}): {}", MIN, min, MAX, max,
                    e.getMessage());
        }
    }
}
