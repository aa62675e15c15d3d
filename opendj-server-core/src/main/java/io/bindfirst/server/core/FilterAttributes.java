package io.bindfirst.server.core;

import java.util.ArrayList;
import java.util.List;

import org.forgerock.i18n.LocalizedIllegalArgumentException;
import org.forgerock.opendj.ldap.AttributeDescription;
import org.forgerock.opendj.ldap.Filter;
import org.forgerock.opendj.ldap.schema.AttributeType;
import org.forgerock.opendj.ldap.schema.Schema;

import io.bindfirst.server.schema.FilterAttributeNames;

/**
 * The attribute types a search filter tests, so that a search can ask access control, entry by entry, whether
 * the requester may use each of them ("search" rights), and evaluate the filter as if the others were absent.
 * An extensible match without an attribute, or a filter of an unknown type, may test any attribute:
 * {@link #anyAttribute()}.
 */
final class FilterAttributes {
    private final List<AttributeType> types;
    private final boolean anyAttribute;

    private FilterAttributes(List<AttributeType> types, boolean anyAttribute) {
        this.types = types;
        this.anyAttribute = anyAttribute;
    }

    /** The attributes {@code filter} tests (a walk of the filter; depth already bounded by FilterDepth). */
    static FilterAttributes of(Filter filter, Schema schema) {
        Schema lenient = schema.asNonStrictSchema();
        List<AttributeType> types = new ArrayList<>(4);
        boolean any = FilterAttributeNames.anyMatch(filter, description -> {
            if (description == null) {
                return true; // an extensible match without an attribute, or an unknown filter type
            }
            try {
                AttributeType t = AttributeDescription.valueOf(description, lenient).getAttributeType();
                if (!types.contains(t)) {
                    types.add(t);
                }
            } catch (LocalizedIllegalArgumentException e) {
                // Not an attribute description: the component matches nothing, whatever access allows.
            }
            return false;
        });
        return new FilterAttributes(List.copyOf(types), any);
    }

    boolean anyAttribute() {
        return anyAttribute;
    }

    /**
     * Whether the filter names {@code type} or a supertype of it; unlike {@link #tests}, an extensible match
     * without an attribute does not count (what it costs to compute an attribute is paid only when named).
     */
    boolean names(AttributeType type) {
        for (AttributeType t : types) {
            if (type.isSubTypeOf(t)) {
                return true;
            }
        }
        return false;
    }

    /** Whether the filter may test attributes of {@code type}: named, a subtype of one named, or any. */
    boolean tests(AttributeType type) {
        return anyAttribute || names(type);
    }
}
