package io.bindfirst.server.monitor;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.forgerock.opendj.ldap.DN;

import io.bindfirst.server.backend.Backend;
import io.bindfirst.server.backend.Replication;

/**
 * {@code cn=Replication,cn=monitor}: where this node stands in its replication group (the group, this node's name,
 * its role as the storage engine last reported it, the master's name and replication address when known, and how
 * far behind the master it is, when there is one). Present
 * only when a user backend is replicated; with more than one, each has {@code cn=Replication <group>,cn=monitor}.
 */
final class ReplicationMonitor implements MonitorEntry {
    private final Replication replication;
    private final DN name;

    private ReplicationMonitor(Replication replication, String rdnValue) {
        this.replication = replication;
        this.name = MonitorBackend.BASE_DN.child("cn", rdnValue);
    }

    /** The entries of the replicated backends among {@code backends}: none, one, or one per group. */
    static List<ReplicationMonitor> of(List<Backend> backends) {
        List<Replication> replicated = new ArrayList<>();
        for (Backend b : backends) {
            if (b.replication().status().role() != Replication.Role.STANDALONE) {
                replicated.add(b.replication());
            }
        }
        List<ReplicationMonitor> entries = new ArrayList<>();
        for (Replication r : replicated) {
            entries.add(new ReplicationMonitor(r, replicated.size() == 1 ? "Replication"
                    : "Replication " + r.status().group()));
        }
        return entries;
    }

    @Override
    public DN name() {
        return name;
    }

    @Override
    public void addValues(MonitorValues out) {
        Replication.Status s = replication.status();
        out.add("ds-mon-replication-group", s.group())
                .add("ds-mon-replication-node", s.node())
                .add("ds-mon-replication-role", s.role().name().toLowerCase(Locale.ROOT));
        if (s.master() != null) {
            out.add("ds-mon-replication-master", s.master());
        }
        if (s.masterAddress() != null) {
            out.add("ds-mon-replication-master-address", s.masterAddress());
        }
        long lag = replication.lagMillis();
        if (lag >= 0) {
            out.add("ds-mon-replication-lag-ms", lag);
        }
    }
}
