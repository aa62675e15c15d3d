package io.bindfirst.server.auth;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;

import org.forgerock.opendj.ldap.DN;

/**
 * Which connections are authenticated as which entry, so that a change to an entry can reach every
 * connection bound as it (or below it). Generic in the connection type so that it can be tested and
 * benchmarked without sockets.
 *
 * <p>No lock on the bind path: a {@link ConcurrentHashMap} whose values are concurrent key sets (a
 * copy-on-write set degrades when hundreds of pooled connections bind as one service account). A key's
 * set is only created and emptied inside {@code compute}/{@code computeIfPresent}, which serialise per key,
 * so a put racing with the removal of the last connection can never add to a set that was just dropped
 * from the map. Readers take snapshots: callbacks may re-enter (OpenDJ #857 looped forever iterating a
 * live set while it changed).
 */
public final class AuthenticatedUsers<C> {
    private final ConcurrentHashMap<DN, Set<C>> byDN = new ConcurrentHashMap<>();

    /** Records that {@code connection} is now authenticated as {@code dn}. */
    public void put(DN dn, C connection) {
        byDN.compute(dn, (k, set) -> {
            // Most DNs have one connection: start small (a default set allocates a 16-slot table).
            Set<C> s = set != null ? set : ConcurrentHashMap.newKeySet(2);
            s.add(connection);
            return s;
        });
    }

    /** Forgets that {@code connection} is authenticated as {@code dn}; drops the key with its last connection. */
    public void remove(DN dn, C connection) {
        byDN.computeIfPresent(dn, (k, set) -> {
            set.remove(connection);
            return set.isEmpty() ? null : set;
        });
    }

    /** A snapshot of the connections authenticated exactly as {@code dn}. */
    public List<C> connectionsOf(DN dn) {
        Set<C> set = byDN.get(dn);
        return set == null ? List.of() : List.copyOf(set);
    }

    /**
     * A snapshot of the connections authenticated as {@code base} or any entry below it, with the DN each
     * is registered under. For delete and rename of a subtree: a full walk, which is fine there (writes are
     * rare next to binds) and keeps the bind path to one hash lookup.
     */
    public List<Map.Entry<DN, C>> connectionsAtOrBelow(DN base) {
        List<Map.Entry<DN, C>> out = new ArrayList<>();
        byDN.forEach((dn, set) -> {
            if (dn.isSubordinateOrEqualTo(base)) {
                for (C c : set) {
                    out.add(Map.entry(dn, c));
                }
            }
        });
        return out;
    }

    /** Removes every registration of connections that match {@code which}; for tests and shutdown. */
    public void removeIf(Predicate<C> which) {
        for (DN dn : byDN.keySet()) {
            byDN.computeIfPresent(dn, (k, set) -> {
                set.removeIf(which);
                return set.isEmpty() ? null : set;
            });
        }
    }

    /** How many distinct DNs have at least one connection. */
    public int size() {
        return byDN.size();
    }

    public boolean isEmpty() {
        return byDN.isEmpty();
    }
}
