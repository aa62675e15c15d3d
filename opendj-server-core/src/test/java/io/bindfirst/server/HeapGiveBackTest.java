package io.bindfirst.server;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertThrows;

import java.lang.management.ManagementFactory;

import com.sun.management.HotSpotDiagnosticMXBean;
import org.testng.annotations.Test;

/** The collection after a first start leaves the JVM's heap settings as they were. */
public class HeapGiveBackTest {
    private final HotSpotDiagnosticMXBean hotspot =
            ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);

    @Test
    public void theFreeRatiosAreRestoredAfterTheCollection() {
        String min = hotspot.getVMOption("MinHeapFreeRatio").getValue();
        String max = hotspot.getVMOption("MaxHeapFreeRatio").getValue();
        new HeapGiveBack(20, 40).collect();
        assertEquals(hotspot.getVMOption("MinHeapFreeRatio").getValue(), min);
        assertEquals(hotspot.getVMOption("MaxHeapFreeRatio").getValue(), max);
    }

    @Test
    public void impossibleRatiosAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> new HeapGiveBack(50, 40));
        assertThrows(IllegalArgumentException.class, () -> new HeapGiveBack(-1, 40));
        assertThrows(IllegalArgumentException.class, () -> new HeapGiveBack(0, 101));
    }
}
