package io.bindfirst.server.access.aci;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

import org.forgerock.opendj.ldap.DN;

/**
 * The compiled ACIs at one moment: the global ones, and those held by entries, by holder DN. Immutable: a write
 * that changes ACIs builds the next set and publishes it (ACIs change rarely; reads happen per operation).
 */
final class AciSet {
    static final AciSet EMPTY = new AciSet(List.of(), Map.of());

    private final List<Aci> global;
    private final Map<DN, List<Aci>> byHolder;

    AciSet(List<Aci> global, Map<DN, List<Aci>> byHolder) {
        this.global = List.copyOf(global);
        this.byHolder = Map.copyOf(byHolder);
    }

    /** Every ACI that may apply to the entry {@code dn}: the global ones, then those of its superiors and its own. */
    void forEachCandidate(DN dn, Consumer<Aci> action) {
        global.forEach(action);
        if (byHolder.isEmpty()) {
            return;
        }
        for (DN d = dn; d != null && !d.isRootDN(); d = d.parent()) {
            List<Aci> held = byHolder.get(d);
            if (held != null) {
                held.forEach(action);
            }
        }
    }

    private boolean holdsAtOrBelow(DN dn) {
        for (DN d : byHolder.keySet()) {
            if (d.isSubordinateOrEqualTo(dn)) {
                return true;
            }
        }
        return false;
    }

    int size() {
        int n = global.size();
        for (List<Aci> l : byHolder.values()) {
            n += l.size();
        }
        return n;
    }

    /** This set with the global ACIs replaced. */
    AciSet withGlobal(List<Aci> newGlobal) {
        return new AciSet(newGlobal, byHolder);
    }

    /** This set with the ACIs held by {@code holder} replaced by {@code acis} (none: removed). */
    AciSet withHeld(DN holder, List<Aci> acis) {
        Map<DN, List<Aci>> next = new HashMap<>(byHolder);
        if (acis.isEmpty()) {
            next.remove(holder);
        } else {
            next.put(holder, List.copyOf(acis));
        }
        return new AciSet(global, next);
    }

    /** This set without the ACIs held at or below {@code dn} (a subtree deleted). */
    AciSet withoutSubtree(DN dn) {
        if (!holdsAtOrBelow(dn)) {
            return this; // the common delete: nothing to copy
        }
        Map<DN, List<Aci>> next = new HashMap<>(byHolder);
        next.keySet().removeIf(d -> d.isSubordinateOrEqualTo(dn));
        return new AciSet(global, next);
    }

    /**
     * This set after the subtree at {@code from} moved to {@code to}: held ACIs below it are re-held under their
     * new DN ({@code recompile} builds an ACI for its new holder).
     */
    AciSet withSubtreeMoved(DN from, DN to, java.util.function.BiFunction<Aci, DN, Aci> recompile) {
        if (!holdsAtOrBelow(from)) {
            return this; // the common rename: nothing to copy
        }
        Map<DN, List<Aci>> next = new HashMap<>();
        for (Map.Entry<DN, List<Aci>> e : byHolder.entrySet()) {
            DN d = e.getKey();
            if (!d.isSubordinateOrEqualTo(from)) {
                next.put(d, e.getValue());
                continue;
            }
            DN moved = d.rename(from, to);
            List<Aci> re = new ArrayList<>(e.getValue().size());
            for (Aci a : e.getValue()) {
                re.add(recompile.apply(a, moved));
            }
            next.put(moved, re);
        }
        return new AciSet(global, next);
    }
}
