package io.bindfirst.server.auth;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongFunction;
import java.util.function.Predicate;
import java.util.function.ToLongFunction;

import org.forgerock.opendj.ldap.DN;

/**
 * Which connections are authenticated as which entry, so that a change to an entry can reach every
 * connection bound as it (or below it). Generic in the connection type so that it can be tested and
 * benchmarked without sockets.
 *
 * <p>A {@link ConcurrentHashMap} from each DN to the {@link BoundConnections} of that DN: the numbers of
 * the connections bound as it, under that object's own monitor, which only operations on that DN take (as
 * {@code ConcurrentHashMap.compute} takes the monitor of its key's bin); no lock spans the registry. A group
 * that loses its last connection is retired under its monitor before it leaves the map, and a retired
 * group accepts no connection: a put racing with the removal of the last connection puts a new group in
 * its place, so a registration can never land in a group that was just dropped.
 *
 * <p>Why numbers, not references, and a small group, not a concurrent set per DN (the first design): with
 * thousands of idle bound connections, each user's group is old in the heap and cold in the caches, and
 * every bind lands on one. Adding a connection to a concurrent set allocated a node and stored it in the
 * old set's table, and any reference stored into an old object dirties a card that the next young pause
 * must scan: with 10,000 idle bound connections that was about ten times the cards each young pause
 * scanned, measured in docs/BENCHMARKS.md. A bind here stores a {@code long} into a group that exists
 * (no allocation, no GC barrier) and touches one small object per DN. Snapshots map the numbers back to
 * the open connections; a connection that has closed is left out (it needs no disconnecting).
 *
 * <p>Readers take snapshots: callbacks may re-enter (OpenDJ #857 looped forever iterating a live set while
 * it changed).
 *
 * @param <C> the connection type
 */
public final class AuthenticatedUsers<C> {
    private final ConcurrentHashMap<DN, BoundConnections> byDN = new ConcurrentHashMap<>();
    private final ToLongFunction<C> idOf;
    private final LongFunction<C> openConnection;

    /**
     * @param idOf           a connection's number: not negative, and never given to another connection
     *                       while the server runs
     * @param openConnection the open connection with a number, or {@code null} once it has closed
     */
    public AuthenticatedUsers(ToLongFunction<C> idOf, LongFunction<C> openConnection) {
        this.idOf = idOf;
        this.openConnection = openConnection;
    }

    /** Records that {@code connection} is now authenticated as {@code dn}. */
    public void put(DN dn, C connection) {
        long id = id(connection);
        while (true) {
            BoundConnections group = byDN.get(dn);
            if (group == null) {
                if (byDN.putIfAbsent(dn, new BoundConnections(id)) == null) {
                    return;
                }
            } else if (group.add(id) || byDN.replace(dn, group, new BoundConnections(id))) {
                return; // added, or the group was retired and a new one took its place
            }
        }
    }

    /** Forgets that {@code connection} is authenticated as {@code dn}; drops the DN with its last connection. */
    public void remove(DN dn, C connection) {
        BoundConnections group = byDN.get(dn);
        if (group != null && group.remove(id(connection))) {
            byDN.remove(dn, group);
        }
    }

    /** A snapshot of the open connections authenticated exactly as {@code dn}. */
    public List<C> connectionsOf(DN dn) {
        BoundConnections group = byDN.get(dn);
        return group == null ? List.of() : open(group.snapshot());
    }

    /**
     * A snapshot of the open connections authenticated as {@code base} or any entry below it, with the DN
     * each is registered under. For delete and rename of a subtree: a full walk, which is fine there (writes
     * are rare next to binds) and keeps the bind path to one hash lookup.
     */
    public List<Map.Entry<DN, C>> connectionsAtOrBelow(DN base) {
        List<Map.Entry<DN, C>> out = new ArrayList<>();
        byDN.forEach((dn, group) -> {
            if (dn.isSubordinateOrEqualTo(base)) {
                for (C c : open(group.snapshot())) {
                    out.add(Map.entry(dn, c));
                }
            }
        });
        return out;
    }

    /**
     * How many connections are registered as {@code dn}, open or not: for tests of deregistration, which
     * the snapshots (open connections only) cannot see.
     */
    public int registrations(DN dn) {
        BoundConnections group = byDN.get(dn);
        return group == null ? 0 : group.snapshot().length;
    }

    /**
     * Removes every registration of connections that match {@code which}, and of connections that have
     * closed; for tests and shutdown.
     */
    public void removeIf(Predicate<C> which) {
        byDN.forEach((dn, group) -> {
            if (group.removeIf(id -> {
                C c = openConnection.apply(id);
                return c == null || which.test(c);
            })) {
                byDN.remove(dn, group);
            }
        });
    }

    /** How many distinct DNs have at least one connection (once concurrent removals have returned). */
    public int size() {
        return byDN.size();
    }

    public boolean isEmpty() {
        return byDN.isEmpty();
    }

    private long id(C connection) {
        long id = idOf.applyAsLong(connection);
        if (id < 0) {
            throw new IllegalArgumentException("negative connection number " + id + " for " + connection);
        }
        return id;
    }

    private List<C> open(long[] ids) {
        List<C> out = new ArrayList<>(ids.length);
        for (long id : ids) {
            C c = openConnection.apply(id);
            if (c != null) {
                out.add(c);
            }
        }
        return out;
    }
}
