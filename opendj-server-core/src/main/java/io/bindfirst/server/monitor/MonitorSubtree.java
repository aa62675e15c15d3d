package io.bindfirst.server.monitor;

import java.util.ArrayList;
import java.util.List;
import java.util.function.LongSupplier;
import java.util.function.ToLongFunction;

import org.forgerock.opendj.ldap.schema.Schema;

import io.bindfirst.server.cache.LookupCache;
import io.bindfirst.server.stats.OperationCounts;
import io.bindfirst.server.auth.Accounts;
import io.bindfirst.server.auth.AuthenticatedUsers;
import io.bindfirst.server.backend.Backend;
import io.bindfirst.server.net.ClientConnections;
import io.bindfirst.server.pwd.VerifiedCredentials;
import io.bindfirst.server.tls.TlsStatistics;
import io.bindfirst.server.work.SlowLane;
import io.bindfirst.server.work.WorkerPool;

/** Puts the {@code cn=monitor} entries together over the live parts of one server. */
public final class MonitorSubtree {

    /**
     * The live parts of a server that the monitor entries read, and the HTTP metrics too (the metrics package),
     * so both publish the same numbers from the same objects; what is derived from several of them is derived
     * here, once.
     */
    public record Sources(long startMillis, LongSupplier clock, ClientConnections connections,
                          OperationCounts operations, TlsStatistics tls, WorkerPool workers, SlowLane slowLane,
                          AuthenticatedUsers<?> authenticatedUsers, VerifiedCredentials verifiedCredentials,
                          List<Backend> userBackends, Accounts accounts, LookupCache lookups) {

        public Sources {
            userBackends = List.copyOf(userBackends);
        }

        /** Entries held by the user backends' bind caches, summed; -1 when no backend keeps one. */
        public long bindCacheEntries() {
            return sum(b -> b.statistics().bindCacheEntries());
        }

        /** Bind reads the user backends' bind caches answered, summed; -1 when no backend keeps one. */
        public long bindCacheHits() {
            return sum(b -> b.statistics().bindCacheHits());
        }

        /** Bind reads that found nothing in the bind caches and read storage, summed; -1 when none keeps one. */
        public long bindCacheMisses() {
            return sum(b -> b.statistics().bindCacheMisses());
        }

        /** A number each user backend may have (-1 when it has none), summed over those that have it; else -1. */
        private long sum(ToLongFunction<Backend> number) {
            long sum = -1;
            for (Backend b : userBackends) {
                long n = number.applyAsLong(b);
                if (n >= 0) {
                    sum = Math.max(0, sum) + n;
                }
            }
            return sum;
        }
    }

    private MonitorSubtree() {
    }

    /** The {@code cn=monitor} backend: the server entry first, then one entry per part, in this order. */
    public static MonitorBackend backend(Schema schema, Sources s) {
        List<MonitorEntry> entries = new ArrayList<>(List.of(
                new ServerMonitor(s.startMillis(), s.clock(), s.connections(), s.operations()),
                new TlsMonitor(s.tls()),
                new WorkQueueMonitor(s.workers(), s.slowLane()),
                new AuthenticatedUsersMonitor(s.authenticatedUsers()),
                new CredentialCachesMonitor(s.verifiedCredentials(), s::bindCacheEntries, s::bindCacheHits,
                        s::bindCacheMisses, s.lookups()),
                new BindTimesMonitor(s.operations().bindTimes()),
                new PasswordPolicyMonitor(s.accounts()),
                new JvmMonitor()));
        entries.addAll(ReplicationMonitor.of(s.userBackends()));
        return new MonitorBackend(schema, entries);
    }
}
