package io.bindfirst.server.metrics;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.DoubleSupplier;
import java.util.function.LongSupplier;

import io.prometheus.metrics.core.metrics.CounterWithCallback;
import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.core.metrics.Info;
import io.prometheus.metrics.instrumentation.jvm.JvmBufferPoolMetrics;
import io.prometheus.metrics.instrumentation.jvm.JvmClassLoadingMetrics;
import io.prometheus.metrics.instrumentation.jvm.JvmCompilationMetrics;
import io.prometheus.metrics.instrumentation.jvm.JvmGarbageCollectorMetrics;
import io.prometheus.metrics.instrumentation.jvm.JvmMemoryMetrics;
import io.prometheus.metrics.instrumentation.jvm.JvmRuntimeInfoMetric;
import io.prometheus.metrics.instrumentation.jvm.JvmThreadsMetrics;
import io.prometheus.metrics.instrumentation.jvm.ProcessMetrics;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.Unit;

import io.bindfirst.server.backend.Backend;
import io.bindfirst.server.backend.Replication;
import io.bindfirst.server.monitor.MonitorSubtree;
import io.bindfirst.server.virtual.VirtualEntries;

/**
 * The server's numbers as Prometheus metrics: one {@link PrometheusRegistry} per server (never the client's
 * static default one, so several servers in one JVM each publish their own), filled with metrics whose values
 * are read by callbacks when {@code /metrics} is scraped, from the same live objects {@code cn=monitor} reads
 * ({@link MonitorSubtree.Sources}). Nothing here is counted on the operations' path: between scrapes the metrics
 * cost nothing.
 */
public final class ServerMetrics {

    private ServerMetrics() {
    }

    /**
     * @param s the live parts of the server, as {@code cn=monitor} has them
     * @param readsParked how often a saturated work queue parked a connection's read since the start
     */
    public static PrometheusRegistry registry(MonitorSubtree.Sources s, LongSupplier readsParked) {
        PrometheusRegistry r = new PrometheusRegistry();
        server(r, s);
        operations(r, s);
        connections(r, s, readsParked);
        workQueue(r, s);
        credentials(r, s);
        passwordPolicy(r, s);
        replication(r, s);
        TlsMetrics.register(r, s.tls());
        jvm(r);
        return r;
    }

    private static void server(PrometheusRegistry r, MonitorSubtree.Sources s) {
        Info info = Info.builder().name("ldap_server")
                .help("The directory server's vendor and version, as the root DSE names them")
                .labelNames("vendor", "version").register(r);
        info.setLabelValues(VirtualEntries.VENDOR_NAME, VirtualEntries.VENDOR_VERSION);
        gauge(r, "ldap_server_start_time_seconds", "When the server started, in seconds since the epoch",
                Unit.SECONDS, () -> s.startMillis() / 1000.0);
        gauge(r, "ldap_server_uptime_seconds", "Seconds since the server started", Unit.SECONDS,
                () -> Math.max(0, s.clock().getAsLong() - s.startMillis()) / 1000.0);
    }

    /**
     * Each replicated backend's role as a series per role, 1 for the role the node has now and 0 for the others
     * (so an alert can ask for "no master" as well as for "this node is the master"); absent when nothing is
     * replicated.
     */
    private static void replication(PrometheusRegistry r, MonitorSubtree.Sources s) {
        List<Replication> replicated = new ArrayList<>();
        for (Backend b : s.userBackends()) {
            if (b.replication().status().role() != Replication.Role.STANDALONE) {
                replicated.add(b.replication());
            }
        }
        if (replicated.isEmpty()) {
            return;
        }
        GaugeWithCallback.builder().name("ldap_replication_role")
                .help("1 for this node's role in its replication group now (master, replica, or unknown: no master "
                        + "in reach), 0 for the others")
                .labelNames("group", "node", "role")
                .callback(cb -> {
                    for (Replication rep : replicated) {
                        Replication.Status st = rep.status();
                        for (Replication.Role role : List.of(Replication.Role.MASTER, Replication.Role.REPLICA,
                                Replication.Role.UNKNOWN)) {
                            cb.call(st.role() == role ? 1 : 0, st.group(), st.node(),
                                    role.name().toLowerCase(Locale.ROOT));
                        }
                    }
                }).register(r);
        GaugeWithCallback.builder().name("ldap_replication_lag_seconds")
                .help("How far this node is behind its replication group's master (0 on the master); absent while "
                        + "the node has no master")
                .labelNames("group", "node")
                .callback(cb -> {
                    for (Replication rep : replicated) {
                        long lag = rep.lagMillis();
                        if (lag >= 0) {
                            Replication.Status st = rep.status();
                            cb.call(lag / 1000.0, st.group(), st.node());
                        }
                    }
                }).register(r);
    }

    private static void operations(PrometheusRegistry r, MonitorSubtree.Sources s) {
        // Every type has its success series from the start, so a rate over it never begins at its first
        // operation; the other results appear when one is counted (8 types x 45 result codes would be 360 series
        // of zeros).
        CounterWithCallback.builder().name("ldap_operations")
                .help("LDAP operations completed since the start, by type and result code (RFC 4511 names; "
                        + "codes not named there count as other)")
                .labelNames("type", "result")
                .callback(cb -> s.operations().forEachCounted((type, result, n) ->
                        cb.call(n, type.name().toLowerCase(Locale.ROOT), result)))
                .register(r);
        BindTimesMetric.register(r, s.operations().bindTimes());
    }

    private static void connections(PrometheusRegistry r, MonitorSubtree.Sources s, LongSupplier readsParked) {
        gauge(r, "ldap_connections_open", "Client connections open now (LDAP and LDAPS)", null,
                () -> s.connections().size());
        gauge(r, "ldap_connections_open_peak", "The most client connections open at once since the start", null,
                () -> s.connections().peak());
        gauge(r, "ldap_connections_open_max", "Client connections allowed at once "
                + "(ds-cfg-max-allowed-client-connections)", null, () -> s.connections().max());
        counter(r, "ldap_connections_accepted", "Client connections admitted since the start (those refused at "
                + "the maximum are not counted)", () -> s.connections().admitted());
        CounterWithCallback.builder().name("ldap_connections_refused")
                .help("Client connections refused since the start, by reason (connection_limit: the maximum was "
                        + "open; failed TLS handshakes are in ldap_tls_handshake_failures_total)")
                .labelNames("reason")
                .callback(cb -> s.connections().refused().forEach((reason, n) -> cb.call(n, reason))).register(r);
        counter(r, "ldap_reads_parked", "Connections' reads suspended because the work queue was saturated",
                readsParked);
    }

    private static void workQueue(PrometheusRegistry r, MonitorSubtree.Sources s) {
        gauge(r, "ldap_work_queue_threads", "Worker threads", null, () -> s.workers().threads());
        gauge(r, "ldap_work_queue_held", "Operations held by the work queue now, waiting or running", null,
                () -> s.workers().held());
        gauge(r, "ldap_work_queue_depth", "Operations waiting for a worker now", null,
                () -> s.workers().waiting());
        gauge(r, "ldap_work_queue_held_peak", "The most operations the work queue held at once", null,
                () -> s.workers().mostPending());
        counter(r, "ldap_operations_started", "Operations started since the start, on a worker or inline",
                () -> s.workers().started());
        counter(r, "ldap_operations_started_inline", "Operations started inline, on the thread that read them",
                () -> s.workers().startedInline());
        gauge(r, "ldap_slow_lane_threads", "Threads of the slow lane (expensive operations)", null,
                () -> s.slowLane().threads());
        gauge(r, "ldap_slow_lane_depth", "Operations waiting for the slow lane now", null,
                () -> s.slowLane().waiting());
        counter(r, "ldap_slow_lane_pauses", "Times the slow lane gave way to the workers",
                () -> s.slowLane().timesPaused());
    }

    private static void credentials(PrometheusRegistry r, MonitorSubtree.Sources s) {
        gauge(r, "ldap_authenticated_dns", "Distinct DNs that connections are bound as now", null,
                () -> s.authenticatedUsers().size());
        gauge(r, "ldap_verified_credentials_enabled", "1 when the verified-credential cache is on", null,
                () -> s.verifiedCredentials().enabled() ? 1 : 0);
        gauge(r, "ldap_verified_credentials_entries", "Records held by the verified-credential cache", null,
                () -> s.verifiedCredentials().size());
        counter(r, "ldap_verified_credentials_hits", "Binds whose costly password check the verified-credential "
                + "cache answered", () -> s.verifiedCredentials().hits());
        counter(r, "ldap_verified_credentials_misses", "Binds whose costly password check asked the "
                + "verified-credential cache and had to derive (a wrong password, or one not proven yet)",
                () -> s.verifiedCredentials().misses());
        GaugeWithCallback.builder().name("ldap_bind_cache_entries")
                .help("Entries held by the user backends' bind caches (absent when no backend keeps one)")
                .callback(cb -> {
                    long n = s.bindCacheEntries();
                    if (n >= 0) {
                        cb.call(n);
                    }
                }).register(r);
        optionalCounter(r, "ldap_bind_cache_hits", "Bind reads the user backends' bind caches answered from memory "
                + "(absent when no backend keeps one)", s::bindCacheHits);
        optionalCounter(r, "ldap_bind_cache_misses", "Bind reads that found nothing in the user backends' bind "
                + "caches and read storage (absent when no backend keeps one)", s::bindCacheMisses);
    }

    private static void passwordPolicy(PrometheusRegistry r, MonitorSubtree.Sources s) {
        gauge(r, "ldap_accounts_with_failed_binds", "Accounts whose failed binds are counted now (in memory)", null,
                () -> s.accounts().accountsWithFailures());
        counter(r, "ldap_lockouts", "Accounts locked by failed binds since the start",
                () -> s.accounts().locksWritten());
        counter(r, "ldap_grace_logins", "Grace logins used by expired passwords since the start",
                () -> s.accounts().graceLoginsUsed());
        counter(r, "ldap_last_logins_queued", "Last-login times successful binds queued for writing",
                () -> s.accounts().afterBind().lastLoginsQueued());
        counter(r, "ldap_rehashes_queued", "Passwords successful binds queued to move off a deprecated scheme",
                () -> s.accounts().afterBind().rehashesQueued());
        counter(r, "ldap_rehashes_postponed", "Binds of deprecated-scheme passwords left for later by the rate limit",
                () -> s.accounts().afterBind().rehashesPostponed());
        counter(r, "ldap_deferred_writes", "Writes made after their binds answered (last login, rehash)",
                () -> s.accounts().afterBind().writes().written());
        counter(r, "ldap_deferred_writes_dropped", "Deferred writes dropped: too many accounts waited",
                () -> s.accounts().afterBind().writes().dropped());
        gauge(r, "ldap_deferred_writes_waiting", "Accounts whose deferred writes wait now", null,
                () -> s.accounts().afterBind().writes().waiting());
    }

    /**
     * The JVM's standard metrics, one group at a time rather than through {@code JvmMetrics}, which keeps every
     * registry it was given in a static set, and without the memory-pool allocation metrics, which add a
     * listener to the garbage collectors that is never removed: both would keep a stopped server's registry,
     * and with it the server, for the life of the JVM.
     */
    private static void jvm(PrometheusRegistry r) {
        JvmThreadsMetrics.builder().register(r);
        JvmBufferPoolMetrics.builder().register(r);
        JvmClassLoadingMetrics.builder().register(r);
        JvmCompilationMetrics.builder().register(r);
        JvmGarbageCollectorMetrics.builder().register(r);
        JvmMemoryMetrics.builder().register(r);
        JvmRuntimeInfoMetric.builder().register(r);
        ProcessMetrics.builder().register(r);
    }

    private static void gauge(PrometheusRegistry r, String name, String help, Unit unit,
                              DoubleSupplier value) {
        GaugeWithCallback.Builder b = GaugeWithCallback.builder().name(name).help(help)
                .callback(cb -> cb.call(value.getAsDouble()));
        if (unit != null) {
            b.unit(unit);
        }
        b.register(r);
    }

    /** A counter {@code name_total} read from a count the server may keep: none when it answers -1. */
    private static void optionalCounter(PrometheusRegistry r, String name, String help, LongSupplier value) {
        CounterWithCallback.builder().name(name).help(help)
                .callback(cb -> {
                    long n = value.getAsLong();
                    if (n >= 0) {
                        cb.call(n);
                    }
                }).register(r);
    }

    /** A counter {@code name_total} read from a count the server keeps. */
    private static void counter(PrometheusRegistry r, String name, String help, LongSupplier value) {
        CounterWithCallback.builder().name(name).help(help)
                .callback(cb -> cb.call(value.getAsLong())).register(r);
    }
}
