package io.bindfirst.server.auth;

import java.util.HashSet;
import java.util.Set;
import java.util.function.LongPredicate;

/**
 * The numbers of the connections bound as one DN, for {@link AuthenticatedUsers}. Most DNs have one (a
 * user) or two (a user's idle connection and a re-bind), held in two {@code long} fields: adding and
 * removing them allocates nothing and stores no reference. A pool bound as one service account spills into
 * a set. Every field is guarded by the monitor.
 *
 * <p>Once a removal empties the group it is retired: it accepts no more connections, and its registry
 * replaces it rather than add to it, because it is about to leave the map.
 */
final class BoundConnections {
    private static final long EMPTY = -1;

    private long first;
    private long second = EMPTY;
    /** Beyond the first two; created on the first spill, then kept. */
    private Set<Long> more;
    private boolean retired;

    /** A group holding connection {@code id} (not negative). */
    BoundConnections(long id) {
        first = id;
    }

    /** @return false if this group is retired (the caller must replace it); true once {@code id} is in */
    synchronized boolean add(long id) {
        if (retired) {
            return false;
        }
        if (first == id || second == id || (more != null && more.contains(id))) {
            return true;
        }
        if (first == EMPTY) {
            first = id;
        } else if (second == EMPTY) {
            second = id;
        } else {
            if (more == null) {
                more = new HashSet<>();
            }
            more.add(id);
        }
        return true;
    }

    /** @return whether removing {@code id} emptied the group, which is then retired */
    synchronized boolean remove(long id) {
        if (first == id) {
            first = EMPTY;
        } else if (second == id) {
            second = EMPTY;
        } else if (more == null || !more.remove(id)) {
            return false;
        }
        return retireIfEmpty();
    }

    /** @return whether this emptied the group, which is then retired (false if it already was) */
    synchronized boolean removeIf(LongPredicate which) {
        if (retired) {
            return false;
        }
        if (first != EMPTY && which.test(first)) {
            first = EMPTY;
        }
        if (second != EMPTY && which.test(second)) {
            second = EMPTY;
        }
        if (more != null) {
            more.removeIf(which::test);
        }
        return retireIfEmpty();
    }

    private boolean retireIfEmpty() {
        if (first == EMPTY && second == EMPTY && (more == null || more.isEmpty())) {
            retired = true;
            return true;
        }
        return false;
    }

    /** The numbers in the group now. */
    synchronized long[] snapshot() {
        int n = (first != EMPTY ? 1 : 0) + (second != EMPTY ? 1 : 0) + (more == null ? 0 : more.size());
        long[] out = new long[n];
        int i = 0;
        if (first != EMPTY) {
            out[i++] = first;
        }
        if (second != EMPTY) {
            out[i++] = second;
        }
        if (more != null) {
            for (long id : more) {
                out[i++] = id;
            }
        }
        return out;
    }
}
