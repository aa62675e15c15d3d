package io.bindfirst.server.auth;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;

import org.forgerock.opendj.ldap.DN;

/**
 * Which connections are authenticated as which entry, so that a change to an entry can reach every
 * connection bound as it (or below it). Generic in the connection type so that it can be tested and
 * benchmarked without sockets; connections are compared by identity and must not be arrays.
 *
 * <p>No lock on the bind path: a {@link ConcurrentHashMap} keyed by DN. A key's connections are changed
 * only inside {@code compute}/{@code computeIfPresent}, which serialise per key, so a put racing with the
 * removal of the last connection can never add to a value that was just dropped from the map.
 *
 * <p>The value of a key takes the smallest of three shapes. One connection (most DNs): the connection
 * itself, so a bind as a DN nobody else is bound as allocates nothing but the map's node, and leaving a
 * DN that keeps one other connection (a re-bind among thousands of idle bound users) allocates nothing.
 * Two to {@value #ARRAY_LIMIT}: an immutable array, replaced whole on every change. More: a concurrent
 * set ({@link Many}), changed in place, because a copy-on-write array degrades when hundreds of pooled
 * connections bind as one service account; a key keeps its set until its last connection goes. Readers
 * take snapshots whatever the shape: callbacks may re-enter (OpenDJ #857 looped forever iterating a live
 * set while it changed).
 */
public final class AuthenticatedUsers<C> {
    /** The most connections of one DN kept in a copied array; more go to a concurrent set. */
    static final int ARRAY_LIMIT = 8;

    /** Values: a connection, an {@code Object[]} of 2..ARRAY_LIMIT connections, or a non-empty {@link Many}. */
    private final ConcurrentHashMap<DN, Object> byDN = new ConcurrentHashMap<>();

    /** More than {@link #ARRAY_LIMIT} connections of one DN. */
    private static final class Many {
        /** Identity-keyed through {@link Identity}: a connection's own equals is never called. */
        final Set<Identity> connections = ConcurrentHashMap.newKeySet(4 * ARRAY_LIMIT);
    }

    /** Wraps a connection so that a set compares it by identity. */
    private record Identity(Object connection) {
        @Override
        public boolean equals(Object o) {
            return o instanceof Identity other && other.connection == connection;
        }

        @Override
        public int hashCode() {
            return System.identityHashCode(connection);
        }
    }

    /** Records that {@code connection} is now authenticated as {@code dn}. */
    public void put(DN dn, C connection) {
        if (connection instanceof Object[]) {
            throw new IllegalArgumentException("a connection cannot be an array");
        }
        byDN.compute(dn, (k, value) -> {
            if (value == null || value == connection) {
                return connection;
            }
            if (value instanceof Many many) {
                many.connections.add(new Identity(connection));
                return many;
            }
            Object[] array = value instanceof Object[] a ? a : new Object[] {value};
            if (indexOf(array, connection) >= 0) {
                return value;
            }
            if (array.length < ARRAY_LIMIT) {
                Object[] grown = Arrays.copyOf(array, array.length + 1);
                grown[array.length] = connection;
                return grown;
            }
            Many many = new Many();
            for (Object c : array) {
                many.connections.add(new Identity(c));
            }
            many.connections.add(new Identity(connection));
            return many;
        });
    }

    /** Forgets that {@code connection} is authenticated as {@code dn}; drops the key with its last connection. */
    public void remove(DN dn, C connection) {
        byDN.computeIfPresent(dn, (k, value) -> {
            if (value == connection) {
                return null;
            }
            if (value instanceof Many many) {
                many.connections.remove(new Identity(connection));
                return many.connections.isEmpty() ? null : many;
            }
            if (!(value instanceof Object[] array)) {
                return value;
            }
            int i = indexOf(array, connection);
            if (i < 0) {
                return array;
            }
            if (array.length == 2) {
                return array[1 - i];
            }
            Object[] shrunk = new Object[array.length - 1];
            System.arraycopy(array, 0, shrunk, 0, i);
            System.arraycopy(array, i + 1, shrunk, i, array.length - 1 - i);
            return shrunk;
        });
    }

    /** A snapshot of the connections authenticated exactly as {@code dn}. */
    public List<C> connectionsOf(DN dn) {
        Object value = byDN.get(dn);
        return value == null ? List.of() : snapshot(value);
    }

    /**
     * A snapshot of the connections authenticated as {@code base} or any entry below it, with the DN each
     * is registered under. For delete and rename of a subtree: a full walk, which is fine there (writes are
     * rare next to binds) and keeps the bind path to one hash lookup.
     */
    public List<Map.Entry<DN, C>> connectionsAtOrBelow(DN base) {
        List<Map.Entry<DN, C>> out = new ArrayList<>();
        byDN.forEach((dn, value) -> {
            if (dn.isSubordinateOrEqualTo(base)) {
                for (C c : snapshot(value)) {
                    out.add(Map.entry(dn, c));
                }
            }
        });
        return out;
    }

    /** Removes every registration of connections that match {@code which}; for tests and shutdown. */
    public void removeIf(Predicate<C> which) {
        for (DN dn : byDN.keySet()) {
            byDN.computeIfPresent(dn, (k, value) -> {
                if (value instanceof Many many) {
                    many.connections.removeIf(id -> which.test(cast(id.connection())));
                    return many.connections.isEmpty() ? null : many;
                }
                List<C> kept = new ArrayList<>(snapshot(value));
                if (!kept.removeIf(which)) {
                    return value;
                }
                return kept.isEmpty() ? null : kept.size() == 1 ? kept.get(0) : kept.toArray();
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

    private List<C> snapshot(Object value) {
        if (value instanceof Many many) {
            List<C> out = new ArrayList<>(many.connections.size());
            for (Identity id : many.connections) {
                out.add(cast(id.connection()));
            }
            return List.copyOf(out);
        }
        if (value instanceof Object[] array) {
            List<C> out = new ArrayList<>(array.length);
            for (Object c : array) {
                out.add(cast(c));
            }
            return List.copyOf(out);
        }
        return List.of(cast(value));
    }

    @SuppressWarnings("unchecked")
    private C cast(Object connection) {
        return (C) connection;
    }

    private static int indexOf(Object[] array, Object connection) {
        for (int i = 0; i < array.length; i++) {
            if (array[i] == connection) {
                return i;
            }
        }
        return -1;
    }
}
