package io.bindfirst.server.monitor;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.forgerock.opendj.ldap.DN;

import io.bindfirst.server.tls.TlsStatistics;

/**
 * {@code cn=TLS,cn=monitor}: everything {@link TlsStatistics} keeps. The per-reason failures, the handshake-time
 * histogram and the open connections by protocol are multi-valued attributes whose values read "key count"
 * (a failure reason, a bucket's upper bound in microseconds or {@code inf}, a protocol), so the set of keys can
 * grow without new schema. With TLS off every count is zero.
 */
final class TlsMonitor implements MonitorEntry {
    private static final DN NAME = MonitorBackend.BASE_DN.child("cn", "TLS");

    private final TlsStatistics statistics;

    TlsMonitor(TlsStatistics statistics) {
        this.statistics = statistics;
    }

    @Override
    public DN name() {
        return NAME;
    }

    @Override
    public void addValues(MonitorValues out) {
        Map<String, Long> failures = statistics.failures();
        Map<String, Long> open = statistics.openByProtocol();
        out.add("ds-mon-tls-handshakes-started", statistics.started())
                .add("ds-mon-tls-handshakes-full", statistics.full())
                .add("ds-mon-tls-handshakes-resumed", statistics.resumed())
                .add("ds-mon-tls-handshakes-failed", sum(failures))
                .add("ds-mon-tls-handshake-failures", keyed(failures))
                .add("ds-mon-tls-handshake-time-total", statistics.handshakeTimeTotalMicros())
                .add("ds-mon-tls-connections", sum(open))
                .add("ds-mon-tls-connections-by-protocol", keyed(open));
        List<String> buckets = new ArrayList<>();
        statistics.handshakeTimeHistogram().forEach((bound, n) ->
                buckets.add((bound == Long.MAX_VALUE ? "inf" : bound.toString()) + " " + n));
        out.add("ds-mon-tls-handshake-time-histogram", buckets.toArray(String[]::new));
    }

    private static long sum(Map<String, Long> counts) {
        return counts.values().stream().mapToLong(Long::longValue).sum();
    }

    private static String[] keyed(Map<String, Long> counts) {
        return counts.entrySet().stream().map(e -> e.getKey() + " " + e.getValue()).toArray(String[]::new);
    }
}
