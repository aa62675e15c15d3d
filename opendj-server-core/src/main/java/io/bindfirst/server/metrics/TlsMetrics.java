package io.bindfirst.server.metrics;

import java.util.Map;

import io.prometheus.metrics.core.metrics.CounterWithCallback;
import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.model.registry.Collector;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.ClassicHistogramBuckets;
import io.prometheus.metrics.model.snapshots.HistogramSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.Unit;

import io.bindfirst.server.tls.TlsStatistics;

/**
 * What {@link TlsStatistics} keeps, as Prometheus metrics: handshakes begun, finished by kind, failed by reason,
 * TLS connections open by protocol, and the handshake times as a histogram in seconds. With TLS off every count
 * is zero.
 */
final class TlsMetrics {
    static final String HISTOGRAM = "ldap_tls_handshake_duration_seconds";

    private TlsMetrics() {
    }

    static void register(PrometheusRegistry r, TlsStatistics tls) {
        CounterWithCallback.builder().name("ldap_tls_handshakes_started")
                .help("TLS handshakes begun since the start")
                .callback(cb -> cb.call(tls.started())).register(r);
        CounterWithCallback.builder().name("ldap_tls_handshakes")
                .help("TLS handshakes finished since the start, by kind: full or resumed session")
                .labelNames("kind")
                .callback(cb -> {
                    cb.call(tls.full(), "full");
                    cb.call(tls.resumed(), "resumed");
                }).register(r);
        CounterWithCallback.builder().name("ldap_tls_handshake_failures")
                .help("TLS handshakes that failed or were cut short since the start, by reason")
                .labelNames("reason")
                .callback(cb -> tls.failures().forEach((reason, n) -> cb.call(n, reason))).register(r);
        GaugeWithCallback.builder().name("ldap_tls_connections_open")
                .help("TLS connections open now whose handshake finished, by protocol")
                .labelNames("protocol")
                .callback(cb -> tls.openByProtocol().forEach((protocol, n) -> cb.call(n, protocol))).register(r);
        r.register(new HandshakeTimes(tls));
    }

    /** The handshake-time histogram, read at each scrape: the core client has no histogram fed by a callback. */
    static final class HandshakeTimes implements Collector {
        private final TlsStatistics tls;

        HandshakeTimes(TlsStatistics tls) {
            this.tls = tls;
        }

        @Override
        public MetricSnapshot collect() {
            return snapshot(tls.handshakeTimeHistogram(), tls.handshakeTimeTotalMicros());
        }

        @Override
        public String getPrometheusName() {
            return HISTOGRAM;
        }

        /**
         * @param micros bucket upper bounds in microseconds ({@code Long.MAX_VALUE}: the last, unbounded one) to
         *        the handshakes in that bucket alone, as {@link TlsStatistics#handshakeTimeHistogram} has them
         * @param totalMicros the handshakes' times summed
         */
        static HistogramSnapshot snapshot(Map<Long, Long> micros, long totalMicros) {
            ClassicHistogramBuckets.Builder buckets = ClassicHistogramBuckets.builder();
            micros.forEach((bound, n) -> buckets.bucket(
                    bound == Long.MAX_VALUE ? Double.POSITIVE_INFINITY : bound / 1e6, n));
            return HistogramSnapshot.builder().name(HISTOGRAM).unit(Unit.SECONDS)
                    .help("How long the TLS handshakes that finished took, from their start to their end")
                    .dataPoint(HistogramSnapshot.HistogramDataPointSnapshot.builder()
                            .classicHistogramBuckets(buckets.build())
                            .sum(totalMicros / 1e6)
                            .build())
                    .build();
        }
    }
}
