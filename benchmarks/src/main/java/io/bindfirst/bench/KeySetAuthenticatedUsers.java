package io.bindfirst.bench;

import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import org.forgerock.opendj.ldap.DN;

/**
 * Baseline for {@link AuthenticatedUsersBenchmark}: the registry as it was before its values became small
 * arrays, a {@link ConcurrentHashMap} of DN to a concurrent key set per DN (created with room for two),
 * changed only inside {@code compute}/{@code computeIfPresent}. Kept to measure what the arrays changed:
 * per registration a set costs four objects (view, map, table, node) and two atomic updates.
 */
public final class KeySetAuthenticatedUsers<C> {
    private final ConcurrentHashMap<DN, Set<C>> byDN = new ConcurrentHashMap<>();

    public void put(DN dn, C connection) {
        byDN.compute(dn, (k, set) -> {
            Set<C> s = set != null ? set : ConcurrentHashMap.newKeySet(2);
            s.add(connection);
            return s;
        });
    }

    public void remove(DN dn, C connection) {
        byDN.computeIfPresent(dn, (k, set) -> {
            set.remove(connection);
            return set.isEmpty() ? null : set;
        });
    }

    public List<C> connectionsOf(DN dn) {
        Set<C> set = byDN.get(dn);
        return set == null ? List.of() : List.copyOf(set);
    }
}
