package io.bindfirst.server.metrics;

import io.prometheus.metrics.model.registry.Collector;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.ClassicHistogramBuckets;
import io.prometheus.metrics.model.snapshots.HistogramSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.Unit;

import io.bindfirst.server.stats.BindTimes;

/**
 * {@link BindTimes} as the histogram {@value #NAME}, labelled by {@code scheme} (the storage scheme of the
 * password value that matched, or {@code none}) and {@code outcome} (success, invalidCredentials, other), read at
 * each scrape: the binds record into the server's own buckets, which {@code cn=monitor} reads too, never into the
 * client library's. Only the (scheme, outcome) pairs that had binds are published.
 */
final class BindTimesMetric implements Collector {
    static final String NAME = "ldap_bind_duration_seconds";

    private final BindTimes times;

    private BindTimesMetric(BindTimes times) {
        this.times = times;
    }

    static void register(PrometheusRegistry r, BindTimes times) {
        r.register(new BindTimesMetric(times));
    }

    @Override
    public String getPrometheusName() {
        return NAME;
    }

    @Override
    public MetricSnapshot collect() {
        long[] bounds = BindTimes.boundsNanos();
        HistogramSnapshot.Builder out = HistogramSnapshot.builder().name(NAME).unit(Unit.SECONDS)
                .help("How long binds took, from the request decoded to the result sent, by the storage scheme of "
                        + "the password value that matched (none: no value matched) and outcome");
        for (BindTimes.Series s : times.recorded()) {
            long[] counts = s.bucketCounts();
            ClassicHistogramBuckets.Builder buckets = ClassicHistogramBuckets.builder();
            for (int i = 0; i < counts.length; i++) {
                buckets.bucket(i < bounds.length ? bounds[i] / 1e9 : Double.POSITIVE_INFINITY, counts[i]);
            }
            out.dataPoint(HistogramSnapshot.HistogramDataPointSnapshot.builder()
                    .labels(Labels.of("scheme", s.scheme(), "outcome", s.outcome().label()))
                    .classicHistogramBuckets(buckets.build())
                    .sum(s.sumNanos() / 1e9)
                    .build());
        }
        return out.build();
    }
}
