package io.bindfirst.server.core;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import org.forgerock.opendj.ldap.Attribute;
import org.forgerock.opendj.ldap.AttributeDescription;
import org.forgerock.opendj.ldap.DN;
import org.forgerock.opendj.ldap.Entry;
import org.forgerock.opendj.ldap.LinkedAttribute;
import org.forgerock.opendj.ldap.LinkedHashMapEntry;
import org.forgerock.i18n.LocalizedIllegalArgumentException;
import org.forgerock.opendj.ldap.schema.AttributeType;
import org.forgerock.opendj.ldap.schema.Schema;

import io.bindfirst.server.access.AccessPolicy;
import io.bindfirst.server.access.Requester;
import io.bindfirst.server.group.IsMemberOf;
import io.bindfirst.server.virtual.VirtualEntries;

/**
 * Which attributes a search returns (RFC 4511 4.5.1.8, RFC 3673): none listed or {@code *} means every
 * user attribute, {@code +} every operational one, {@code 1.1} none, names select those attributes and
 * their subtypes, each only if the {@link AccessPolicy} lets the requester read it (so {@code userPassword}
 * goes to root users only). For stored entries it adds the virtual operational attributes {@code entryDN},
 * {@code subschemaSubentry}, {@code hasSubordinates} and {@code isMemberOf} (with its alias {@code memberOf}
 * when configured) when they are asked for.
 */
final class AttributeSelection {
    /** Computes {@code hasSubordinates} only when it is asked for: it costs a backend lookup. */
    interface SubordinateCheck {
        boolean hasSubordinates(Entry entry);
    }

    private final boolean allUser;
    private final boolean allOperational;
    private final List<AttributeDescription> named = new ArrayList<>();
    private final boolean typesOnly;
    private final AccessPolicy access;
    private final Requester who;
    private final Schema schema;
    private final IsMemberOf groups;

    AttributeSelection(List<String> requested, boolean typesOnly, AccessPolicy access, Requester who,
                       Schema schema, IsMemberOf groups) {
        this.groups = groups;
        this.typesOnly = typesOnly;
        this.access = access;
        this.who = who;
        this.schema = schema;
        boolean user = requested.isEmpty();
        boolean operational = false;
        for (String r : requested) {
            String name = r.trim();
            if (name.equals("*")) {
                user = true;
            } else if (name.equals("+")) {
                operational = true;
            } else if (name.equals("1.1")) {
                // Alone it selects nothing; with other selectors it is ignored (RFC 4511 4.5.1.8).
                continue;
            } else if (!name.isEmpty()) {
                try {
                    named.add(AttributeDescription.valueOf(name, schema));
                } catch (LocalizedIllegalArgumentException e) {
                    // RFC 4511 4.5.1.8: names that are not attribute descriptions are ignored.
                }
            }
        }
        this.allUser = user;
        this.allOperational = operational;
    }

    /** The entry as the client sees it: selected attributes, values unless types-only. */
    Entry select(Entry entry, SubordinateCheck virtualAttributes) {
        Entry out = new LinkedHashMapEntry(entry.getName());
        for (Attribute a : entry.getAllAttributes()) {
            AttributeDescription ad = a.getAttributeDescription();
            AttributeType type = ad.getAttributeType();
            if (!access.mayRead(who, entry, type).allowed()) {
                continue;
            }
            if (type.isOperational() ? allOperational || isNamed(ad) : allUser || isNamed(ad)) {
                out.addAttribute(typesOnly ? new LinkedAttribute(ad) : a);
            }
        }
        if (virtualAttributes != null) {
            addVirtual(out, entry, virtualAttributes);
        }
        return out;
    }

    /** The operational attributes computed for a stored entry (its group memberships aside). */
    static final List<String> COMPUTED = List.of("entryDN", "subschemaSubentry", "hasSubordinates");

    /** The value of {@code name}, one of {@link #COMPUTED} as spelt there, for {@code entry}; searches and compares. */
    static String computed(String name, Entry entry, SubordinateCheck check) {
        return switch (name) {
            case "entryDN" -> entry.getName().toString();
            case "subschemaSubentry" -> VirtualEntries.SCHEMA_DN.toString();
            case "hasSubordinates" -> check.hasSubordinates(entry) ? "TRUE" : "FALSE";
            default -> throw new IllegalArgumentException(name + " is not computed");
        };
    }

    /**
     * {@code entry} with the values of those of {@link #COMPUTED} that {@code names} (spelt as there) lists: a copy,
     * the stored entry is not changed; {@code entry} itself when {@code names} is empty. Filters and compares test
     * these attributes as a search returns them.
     */
    static Entry withComputed(Entry entry, List<String> names, SubordinateCheck check, Schema schema) {
        if (names.isEmpty()) {
            return entry;
        }
        Entry copy = new LinkedHashMapEntry(entry);
        for (String name : names) {
            copy.replaceAttribute(new LinkedAttribute(AttributeDescription.valueOf(name, schema),
                    computed(name, entry, check)));
        }
        return copy;
    }

    private void addVirtual(Entry out, Entry entry, SubordinateCheck check) {
        for (String name : COMPUTED) {
            if (wants(name)) {
                add(out, name, computed(name, entry, check));
            }
        }
        if (groups != null) {
            addGroups(out, entry);
        }
    }

    /** isMemberOf (and memberOf when aliased): present only on an entry that belongs to some group. */
    private void addGroups(Entry out, Entry entry) {
        Set<DN> of = null;
        for (AttributeType t : groups.types()) {
            if (!(allOperational || isNamedType(t)) || !access.mayRead(who, entry, t).allowed()) {
                continue;
            }
            if (of == null) {
                of = groups.values(entry.getName());
            }
            if (!of.isEmpty()) {
                LinkedAttribute a = new LinkedAttribute(AttributeDescription.create(t));
                if (!typesOnly) {
                    of.forEach(g -> a.add(g.toString()));
                }
                out.addAttribute(a);
            }
        }
    }

    private boolean isNamedType(AttributeType t) {
        for (AttributeDescription ad : named) {
            if (ad.getAttributeType().equals(t)) {
                return true;
            }
        }
        return false;
    }

    private boolean wants(String virtualName) {
        if (allOperational) {
            return true;
        }
        for (AttributeDescription ad : named) {
            if (ad.getAttributeType().hasName(virtualName)) {
                return true;
            }
        }
        return false;
    }

    private void add(Entry out, String name, String value) {
        AttributeDescription ad = AttributeDescription.valueOf(name, schema);
        out.addAttribute(typesOnly ? new LinkedAttribute(ad) : new LinkedAttribute(ad, value));
    }

    private boolean isNamed(AttributeDescription ad) {
        for (AttributeDescription n : named) {
            if (ad.isSubTypeOf(n)) {
                return true;
            }
        }
        return false;
    }
}
