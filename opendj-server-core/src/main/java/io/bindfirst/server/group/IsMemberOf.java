package io.bindfirst.server.group;

import java.util.List;
import java.util.Set;

import org.forgerock.i18n.LocalizedIllegalArgumentException;
import org.forgerock.opendj.ldap.AttributeDescription;
import org.forgerock.opendj.ldap.ByteString;
import org.forgerock.opendj.ldap.DN;
import org.forgerock.opendj.ldap.Entry;
import org.forgerock.opendj.ldap.Filter;
import org.forgerock.opendj.ldap.FilterVisitor;
import org.forgerock.opendj.ldap.LinkedAttribute;
import org.forgerock.opendj.ldap.LinkedHashMapEntry;
import org.forgerock.opendj.ldap.schema.AttributeType;
import org.forgerock.opendj.ldap.schema.Schema;

/**
 * OpenDJ's virtual attribute {@code isMemberOf}: on any entry of the user backends, the DNs of the groups it
 * belongs to, directly or through nested groups. Operational and never stored (its type is NO-USER-MODIFICATION,
 * so adds and modifies that name it are refused with {@code constraintViolation}, as OpenDJ refuses them);
 * returned when asked for by name or with {@code +}, and usable in filters. With {@code ds-cfg-member-of-alias}
 * the same values are served as {@code memberOf} too, for clients written for OpenLDAP's or Active Directory's.
 */
public final class IsMemberOf {
    private final Groups groups;
    private final Schema schema;
    private final AttributeType type;
    private final AttributeType alias;

    IsMemberOf(Groups groups, Schema schema, boolean memberOfAlias) {
        this.groups = groups;
        this.schema = schema;
        this.type = schema.getAttributeType("isMemberOf");
        this.alias = memberOfAlias ? schema.getAttributeType("memberOf") : null;
    }

    /** The virtual attribute types served: isMemberOf, and memberOf when the alias is on. */
    public List<AttributeType> types() {
        return alias == null ? List.of(type) : List.of(type, alias);
    }

    /** The values of each of {@link #types()} for the entry {@code dn}: the groups it belongs to. */
    public Set<DN> values(DN dn) {
        return groups.groupsOf(dn);
    }

    /**
     * {@code entry} with its virtual attributes added, for a filter that tests them; the entry itself when it
     * belongs to no group (the attributes are then absent, as OpenDJ leaves them).
     */
    public Entry withValues(Entry entry) {
        Set<DN> of = groups.groupsOf(entry.getName());
        if (of.isEmpty()) {
            return entry;
        }
        Entry out = new LinkedHashMapEntry(entry);
        for (AttributeType t : types()) {
            LinkedAttribute a = new LinkedAttribute(AttributeDescription.create(t));
            for (DN g : of) {
                a.add(g.toString());
            }
            out.addAttribute(a);
        }
        return out;
    }

    /**
     * The only entries that can match {@code filter}, when it says they must be members of a group: an equality
     * on isMemberOf (or its alias), alone or in an AND. Their DNs, from the group index (nested members included);
     * {@code null} when the filter does not narrow the candidates so, and they are the backend's to choose.
     */
    public List<DN> candidates(Filter filter) {
        return filter.accept(new Candidates(), null);
    }

    private boolean isVirtual(String attributeDescription) {
        try {
            AttributeDescription ad = AttributeDescription.valueOf(attributeDescription, schema);
            return !ad.hasOptions() && types().contains(ad.getAttributeType());
        } catch (LocalizedIllegalArgumentException e) {
            return false;
        }
    }

    /** Visits only as deep as AND nests equalities: the depth is already bounded by the search. */
    private final class Candidates implements FilterVisitor<List<DN>, Void> {
        @Override
        public List<DN> visitAndFilter(Void p, List<Filter> subFilters) {
            List<DN> smallest = null;
            for (Filter f : subFilters) {
                List<DN> c = f.accept(this, null);
                if (c != null && (smallest == null || c.size() < smallest.size())) {
                    smallest = c;
                }
            }
            return smallest;
        }

        @Override
        public List<DN> visitEqualityMatchFilter(Void p, String attributeDescription, ByteString assertionValue) {
            if (!isVirtual(attributeDescription)) {
                return null;
            }
            try {
                return groups.membersOf(DN.valueOf(assertionValue.toString(), schema));
            } catch (LocalizedIllegalArgumentException e) {
                return List.of(); // not a DN: nothing matches
            }
        }

        @Override
        public List<DN> visitApproxMatchFilter(Void p, String attributeDescription, ByteString assertionValue) {
            return null;
        }

        @Override
        public List<DN> visitExtensibleMatchFilter(Void p, String matchingRule, String attributeDescription,
                                                   ByteString assertionValue, boolean dnAttributes) {
            return null;
        }

        @Override
        public List<DN> visitGreaterOrEqualFilter(Void p, String attributeDescription, ByteString assertionValue) {
            return null;
        }

        @Override
        public List<DN> visitLessOrEqualFilter(Void p, String attributeDescription, ByteString assertionValue) {
            return null;
        }

        @Override
        public List<DN> visitNotFilter(Void p, Filter subFilter) {
            return null;
        }

        @Override
        public List<DN> visitOrFilter(Void p, List<Filter> subFilters) {
            return null;
        }

        @Override
        public List<DN> visitPresentFilter(Void p, String attributeDescription) {
            return null;
        }

        @Override
        public List<DN> visitSubstringsFilter(Void p, String attributeDescription, ByteString initialSubstring,
                                              List<ByteString> anySubstrings, ByteString finalSubstring) {
            return null;
        }

        @Override
        public List<DN> visitUnrecognizedFilter(Void p, byte filterTag, ByteString filterBytes) {
            return null;
        }
    }
}
