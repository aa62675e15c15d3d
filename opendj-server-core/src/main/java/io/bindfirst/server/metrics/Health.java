package io.bindfirst.server.metrics;

import java.util.List;
import java.util.function.Supplier;

import org.forgerock.opendj.ldap.DN;

import io.bindfirst.server.backend.Backend;
import io.bindfirst.server.backend.BackendException;
import io.bindfirst.server.backend.Replication;

/**
 * What {@code /healthy} asks: does the LDAP listener answer a search (see {@link LdapProbe}), and does every
 * user backend answer a read of its base entries (whether they exist or not: an empty backend is healthy). A load
 * balancer in front of a replication group may ask more: that the node is the master of every replicated backend
 * ({@code ?role=master}: where to send writes; a server that is not replicated is its own master), or a replica no
 * further behind its master than it says ({@code ?role=replica&max-lag-ms=N}: where to send reads and binds).
 */
final class Health {
    private final Supplier<String> ldap;
    private final List<Backend> userBackends;

    /**
     * @param ldap the LDAP check: {@code null} when it passed, else why not
     * @param userBackends the backends read
     */
    Health(Supplier<String> ldap, List<Backend> userBackends) {
        this.ldap = ldap;
        this.userBackends = List.copyOf(userBackends);
    }

    /** What a probe asks of the node's part in its replication group. */
    enum Role {
        /** Nothing: any node that answers. */
        ANY,
        /** The master of every replicated backend. */
        MASTER,
        /** A replica of a master, within the probe's lag. */
        REPLICA
    }

    /**
     * As {@link #problem()}, and the node has {@code role} in every replicated backend's group; for a replica, no
     * more than {@code maxLagMillis} behind the master (negative: any lag).
     */
    String problem(Role role, long maxLagMillis) {
        String basic = problem();
        if (basic != null || role == Role.ANY) {
            return basic;
        }
        boolean replicated = false;
        for (Backend b : userBackends) {
            Replication r = b.replication();
            Replication.Status s = r.status();
            if (s.role() == Replication.Role.STANDALONE) {
                continue;
            }
            replicated = true;
            if (role == Role.MASTER && s.role() != Replication.Role.MASTER) {
                return "not the master of replication group " + s.group() + " (" + describe(s) + ")";
            }
            if (role == Role.REPLICA) {
                if (s.role() != Replication.Role.REPLICA) {
                    return "not a replica in replication group " + s.group() + " (" + describe(s) + ")";
                }
                long lag = r.lagMillis();
                if (lag < 0 || maxLagMillis >= 0 && lag > maxLagMillis) {
                    return "replica in replication group " + s.group() + " is " + (lag < 0 ? "behind by an "
                            + "unknown time" : lag + " ms behind its master") + ", more than " + maxLagMillis
                            + " ms";
                }
            }
        }
        return role == Role.REPLICA && !replicated ? "not replicated: no replica here" : null;
    }

    private static String describe(Replication.Status s) {
        return s.role() == Replication.Role.UNKNOWN ? "no master in reach"
                : s.role().name().toLowerCase(java.util.Locale.ROOT) + (s.master() == null ? "" : ", master "
                + s.master());
    }

    /** {@code null} when healthy, else the first problem found, in one line. */
    String problem() {
        String why = ldap.get();
        if (why != null) {
            return why;
        }
        for (Backend b : userBackends) {
            for (DN base : b.baseDNs()) {
                try {
                    b.entryExists(base);
                } catch (BackendException | RuntimeException e) {
                    return "the backend of " + base + " did not answer a read: " + oneLine(e.getMessage());
                }
            }
        }
        return null;
    }

    static String oneLine(String message) {
        return message == null ? "(no message)" : message.replaceAll("\\s+", " ").trim();
    }
}
