package io.bindfirst.bench;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.Predicate;

import org.forgerock.opendj.ldap.DN;

/**
 * Baseline for {@link AuthenticatedUsersBenchmark}: the registry design that
 * {@link io.bindfirst.server.auth.AuthenticatedUsers} replaced, one {@link HashMap} of DN to connections
 * guarded by a single {@link ReentrantReadWriteLock}. Every bind (put) and unbind (remove) takes the
 * write lock, so all binds of the server serialise on it whatever DN they are for.
 *
 * <p>Same operations and semantics as {@code AuthenticatedUsers}: keys are dropped with their last
 * connection, readers get snapshots. The per-DN sets are plain {@link HashSet}s, only touched under the
 * lock, so the comparison isolates the locking scheme. (OpenDJ's registry kept copy-on-write sets in a
 * DN-tree map; copy-on-write makes a put or remove cost O(connections of that DN) on top of the lock, so
 * this baseline is the kinder one in the service-account shape.) Written for the benchmark, not copied.
 */
public final class RwLockAuthenticatedUsers<C> {
    private final Map<DN, Set<C>> byDN = new HashMap<>();
    /** Non-fair, like OpenDJ's and like {@code new ReentrantReadWriteLock()} anywhere. */
    private final ReentrantReadWriteLock lock = new ReentrantReadWriteLock();

    public void put(DN dn, C connection) {
        lock.writeLock().lock();
        try {
            byDN.computeIfAbsent(dn, k -> new HashSet<>()).add(connection);
        } finally {
            lock.writeLock().unlock();
        }
    }

    public void remove(DN dn, C connection) {
        lock.writeLock().lock();
        try {
            Set<C> set = byDN.get(dn);
            if (set != null && set.remove(connection) && set.isEmpty()) {
                byDN.remove(dn);
            }
        } finally {
            lock.writeLock().unlock();
        }
    }

    public List<C> connectionsOf(DN dn) {
        lock.readLock().lock();
        try {
            Set<C> set = byDN.get(dn);
            return set == null ? List.of() : List.copyOf(set);
        } finally {
            lock.readLock().unlock();
        }
    }

    public List<Map.Entry<DN, C>> connectionsAtOrBelow(DN base) {
        List<Map.Entry<DN, C>> out = new ArrayList<>();
        lock.readLock().lock();
        try {
            for (Map.Entry<DN, Set<C>> e : byDN.entrySet()) {
                if (e.getKey().isSubordinateOrEqualTo(base)) {
                    for (C c : e.getValue()) {
                        out.add(Map.entry(e.getKey(), c));
                    }
                }
            }
        } finally {
            lock.readLock().unlock();
        }
        return out;
    }

    public void removeIf(Predicate<C> which) {
        lock.writeLock().lock();
        try {
            byDN.values().removeIf(set -> {
                set.removeIf(which);
                return set.isEmpty();
            });
        } finally {
            lock.writeLock().unlock();
        }
    }

    public int size() {
        lock.readLock().lock();
        try {
            return byDN.size();
        } finally {
            lock.readLock().unlock();
        }
    }

    public boolean isEmpty() {
        return size() == 0;
    }
}
