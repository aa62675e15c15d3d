package io.bindfirst.server.monitor;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.LongSupplier;

import org.forgerock.opendj.ldap.DN;

import io.bindfirst.server.stats.OperationCounts;
import io.bindfirst.server.net.ClientConnections;
import io.bindfirst.server.plugin.OperationType;
import io.bindfirst.server.virtual.VirtualEntries;

/**
 * {@code cn=monitor} itself: when the server started, the time now and the seconds in between, who made it
 * (as the root DSE says), the client connections (open, admitted since the start, the peak, refused by reason)
 * and the operations completed by type, and by type and result ("bind invalidCredentials 3").
 */
final class ServerMonitor implements MonitorEntry {
    private final long startMillis;
    private final LongSupplier clock;
    private final ClientConnections connections;
    private final OperationCounts operations;

    /**
     * @param startMillis when the server started
     * @param clock the current time in milliseconds since the epoch
     */
    ServerMonitor(long startMillis, LongSupplier clock, ClientConnections connections, OperationCounts operations) {
        this.startMillis = startMillis;
        this.clock = clock;
        this.connections = connections;
        this.operations = operations;
    }

    @Override
    public DN name() {
        return MonitorBackend.BASE_DN;
    }

    @Override
    public void addValues(MonitorValues out) {
        long now = clock.getAsLong();
        out.addTime("startTime", startMillis)
                .addTime("currentTime", now)
                .add("upTime", Math.max(0, (now - startMillis) / 1000))
                .add("vendorName", VirtualEntries.VENDOR_NAME)
                .add("vendorVersion", VirtualEntries.VENDOR_VERSION)
                .add("currentConnections", connections.size())
                .add("totalConnections", connections.admitted())
                .add("maxConnections", connections.peak())
                .add("ds-mon-connections-refused", connections.refused().values().stream()
                        .mapToLong(Long::longValue).sum())
                .add("ds-mon-connections-refused-by-reason", connections.refused().entrySet().stream()
                        .map(e -> e.getKey() + " " + e.getValue()).toArray(String[]::new))
                .add("ds-mon-operations-completed", operations.total())
                .add("ds-mon-binds-completed", operations.count(OperationType.BIND))
                .add("ds-mon-searches-completed", operations.count(OperationType.SEARCH))
                .add("ds-mon-compares-completed", operations.count(OperationType.COMPARE))
                .add("ds-mon-adds-completed", operations.count(OperationType.ADD))
                .add("ds-mon-deletes-completed", operations.count(OperationType.DELETE))
                .add("ds-mon-modifies-completed", operations.count(OperationType.MODIFY))
                .add("ds-mon-modify-dns-completed", operations.count(OperationType.MODIFY_DN))
                .add("ds-mon-extended-completed", operations.count(OperationType.EXTENDED));
        List<String> byResult = new ArrayList<>();
        operations.forEachCounted((type, result, n) ->
                byResult.add(type.name().toLowerCase(Locale.ROOT) + " " + result + " " + n));
        out.add("ds-mon-operations-by-result", byResult.toArray(String[]::new));
    }
}
