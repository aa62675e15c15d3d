package io.bindfirst.server.metrics;

import static org.testng.Assert.assertEquals;

import java.util.LinkedHashMap;
import java.util.Map;

import org.testng.annotations.Test;

import io.prometheus.metrics.model.snapshots.ClassicHistogramBuckets;
import io.prometheus.metrics.model.snapshots.HistogramSnapshot;

public class TlsMetricsTest {

    @Test
    public void theHandshakeHistogramIsInSecondsWithTheLastBucketUnbounded() {
        Map<Long, Long> micros = new LinkedHashMap<>();
        micros.put(500L, 3L);
        micros.put(1_000_000L, 2L);
        micros.put(Long.MAX_VALUE, 1L);
        HistogramSnapshot s = TlsMetrics.HandshakeTimes.snapshot(micros, 2_500_000);
        assertEquals(s.getMetadata().getPrometheusName(), "ldap_tls_handshake_duration_seconds");
        HistogramSnapshot.HistogramDataPointSnapshot p = s.getDataPoints().get(0);
        ClassicHistogramBuckets b = p.getClassicBuckets();
        assertEquals(b.size(), 3);
        assertEquals(b.getUpperBound(0), 0.0005);
        assertEquals(b.getUpperBound(1), 1.0);
        assertEquals(b.getUpperBound(2), Double.POSITIVE_INFINITY);
        // Each bucket's own count, as TlsStatistics keeps them; the exposition adds them up.
        assertEquals(b.getCount(0), 3);
        assertEquals(b.getCount(1), 2);
        assertEquals(b.getCount(2), 1);
        assertEquals(p.getCount(), 6);
        assertEquals(p.getSum(), 2.5);
    }
}
