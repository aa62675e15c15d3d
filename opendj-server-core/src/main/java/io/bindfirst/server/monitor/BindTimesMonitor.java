package io.bindfirst.server.monitor;

import io.bindfirst.server.stats.BindTimes;

import java.util.ArrayList;
import java.util.List;

import org.forgerock.opendj.ldap.DN;

/**
 * {@code cn=Bind Times,cn=monitor}: what {@link BindTimes} keeps. The binds timed since the start; for each
 * (storage scheme, outcome) that had binds, one value "scheme outcome count=N p50=.. p90=.. p99=.. total=.."
 * (the percentiles are the upper bounds, in microseconds, of the buckets that hold them, {@code inf} beyond the
 * last; the total is the times summed, in microseconds); and the histogram over every bind, as
 * {@code cn=TLS} has its handshakes': "bucket upper bound in microseconds (or inf) count".
 */
final class BindTimesMonitor implements MonitorEntry {
    private static final DN NAME = MonitorBackend.BASE_DN.child("cn", "Bind Times");

    private final BindTimes times;

    BindTimesMonitor(BindTimes times) {
        this.times = times;
    }

    @Override
    public DN name() {
        return NAME;
    }

    @Override
    public void addValues(MonitorValues out) {
        long[] bounds = BindTimes.boundsNanos();
        long[] all = new long[bounds.length + 1];
        List<String> bySeries = new ArrayList<>();
        for (BindTimes.Series s : times.recorded()) {
            long[] counts = s.bucketCounts();
            long count = 0;
            for (int i = 0; i < counts.length; i++) {
                all[i] += counts[i];
                count += counts[i];
            }
            bySeries.add(s.scheme() + " " + s.outcome().label() + " count=" + count
                    + " p50=" + bound(BindTimes.quantileBoundMicros(counts, 0.5))
                    + " p90=" + bound(BindTimes.quantileBoundMicros(counts, 0.9))
                    + " p99=" + bound(BindTimes.quantileBoundMicros(counts, 0.99))
                    + " total=" + s.sumNanos() / 1_000);
        }
        long total = 0;
        List<String> histogram = new ArrayList<>();
        for (int i = 0; i < all.length; i++) {
            total += all[i];
            histogram.add((i < bounds.length ? Long.toString(bounds[i] / 1_000) : "inf") + " " + all[i]);
        }
        out.add("ds-mon-binds-timed", total)
                .add("ds-mon-bind-times", bySeries.toArray(String[]::new))
                .add("ds-mon-bind-time-histogram", histogram.toArray(String[]::new));
    }

    private static String bound(long micros) {
        return micros == Long.MAX_VALUE ? "inf" : Long.toString(micros);
    }
}
