package io.bindfirst.server.access.aci;

import java.util.List;

import org.forgerock.opendj.ldap.ConditionResult;
import org.forgerock.opendj.ldap.DN;
import org.forgerock.opendj.ldap.Entry;
import org.forgerock.opendj.ldap.SearchScope;
import org.forgerock.opendj.ldap.schema.AttributeType;

import io.bindfirst.server.filter.FilterMatcher;

/**
 * One access control instruction, compiled: where it applies (the entry holding it, {@code target},
 * {@code targetscope}, {@code targetfilter}, {@code targetattr}) and its permissions. Immutable.
 *
 * @param name the ACI's {@code acl} name, for messages
 * @param text the ACI as written
 * @param holder the entry holding it, or {@code null} for a global ACI (the whole directory)
 * @param target the {@code target} DN pattern, or {@code null}
 * @param targetNegated {@code target !=}
 * @param scope {@code targetscope} (subtree unless given)
 * @param targetFilter the {@code targetfilter} matcher, or {@code null}
 * @param targetFilterNegated {@code targetfilter !=}
 * @param attributes {@code targetattr}, or {@code null}: the ACI then grants or denies entry rights only
 * @param permissions its allow and deny clauses, in order
 */
record Aci(String name, String text, DN holder, DnPattern target, boolean targetNegated, SearchScope scope,
                  FilterMatcher targetFilter, boolean targetFilterNegated, Targets attributes,
                  List<Permission> permissions) {

    /** An {@code allow} or {@code deny} clause: these rights, when the bind rule matches. */
    record Permission(boolean allow, int rights, BindRule rule) {
    }

    /** The same ACI held by another entry (its holder was renamed or moved). */
    Aci heldBy(DN newHolder) {
        return new Aci(name, text, newHolder, target, targetNegated, scope, targetFilter, targetFilterNegated,
                attributes, permissions);
    }

    /** Whether the ACI applies to {@code entry}: holder's scope, target, target filter. */
    boolean appliesTo(Entry entry) {
        DN dn = entry.getName();
        DN base = holder != null ? holder : target != null && !targetNegated ? target.dn() : DN.rootDN();
        if (!inScope(dn, base)) {
            return false;
        }
        if (target != null && target.matchesAtOrBelow(dn) == targetNegated) {
            return false;
        }
        return targetFilter == null
                || (targetFilter.matches(entry) == ConditionResult.TRUE) != targetFilterNegated;
    }

    private boolean inScope(DN dn, DN base) {
        if (!dn.isSubordinateOrEqualTo(base)) {
            return false;
        }
        if (scope.equals(SearchScope.BASE_OBJECT)) {
            return dn.size() == base.size();
        }
        if (scope.equals(SearchScope.SINGLE_LEVEL)) {
            return dn.size() == base.size() + 1;
        }
        return !scope.equals(SearchScope.SUBORDINATES) || dn.size() > base.size();
    }

    /**
     * Whether this ACI speaks of {@code type} ({@code null}: of the entry itself) for {@code right}. Attribute rights
     * need a {@code targetattr} that covers the type. For the entry itself, an allow applies whatever its
     * {@code targetattr} (who may read some attribute may see the entry), a deny only without one or with
     * {@code *}, so that denying one attribute does not hide whole entries.
     */
    boolean speaksOf(AttributeType type, int right, boolean allow) {
        if (type == null) {
            return allow || attributes == null || attributes.coversAllUserAttributes()
                    || !Rights.onAttributes(right);
        }
        return attributes != null && attributes.covers(type);
    }
}
