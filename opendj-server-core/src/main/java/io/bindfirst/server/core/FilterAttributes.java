package io.bindfirst.server.core;

import java.util.ArrayList;
import java.util.List;

import org.forgerock.i18n.LocalizedIllegalArgumentException;
import org.forgerock.opendj.ldap.AttributeDescription;
import org.forgerock.opendj.ldap.ByteString;
import org.forgerock.opendj.ldap.Filter;
import org.forgerock.opendj.ldap.FilterVisitor;
import org.forgerock.opendj.ldap.schema.AttributeType;
import org.forgerock.opendj.ldap.schema.Schema;

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
        Collector c = new Collector(schema.asNonStrictSchema());
        filter.accept(c, null);
        return new FilterAttributes(List.copyOf(c.types), c.any);
    }

    boolean anyAttribute() {
        return anyAttribute;
    }

    /** Whether the filter may test attributes of {@code type}: named, a subtype of one named, or any. */
    boolean tests(AttributeType type) {
        if (anyAttribute) {
            return true;
        }
        for (AttributeType t : types) {
            if (type.isSubTypeOf(t)) { // a type is a subtype of itself
                return true;
            }
        }
        return false;
    }

    private static final class Collector implements FilterVisitor<Void, Void> {
        private final Schema schema;
        private final List<AttributeType> types = new ArrayList<>(4);
        private boolean any;

        Collector(Schema schema) {
            this.schema = schema;
        }

        private Void add(String attributeDescription) {
            try {
                AttributeType t = AttributeDescription.valueOf(attributeDescription, schema).getAttributeType();
                if (!types.contains(t)) {
                    types.add(t);
                }
            } catch (LocalizedIllegalArgumentException e) {
                // Not an attribute description: the component matches nothing, whatever access allows.
            }
            return null;
        }

        @Override
        public Void visitAndFilter(Void p, List<Filter> subFilters) {
            subFilters.forEach(f -> f.accept(this, null));
            return null;
        }

        @Override
        public Void visitOrFilter(Void p, List<Filter> subFilters) {
            subFilters.forEach(f -> f.accept(this, null));
            return null;
        }

        @Override
        public Void visitNotFilter(Void p, Filter subFilter) {
            return subFilter.accept(this, null);
        }

        @Override
        public Void visitApproxMatchFilter(Void p, String attributeDescription, ByteString assertionValue) {
            return add(attributeDescription);
        }

        @Override
        public Void visitEqualityMatchFilter(Void p, String attributeDescription, ByteString assertionValue) {
            return add(attributeDescription);
        }

        @Override
        public Void visitGreaterOrEqualFilter(Void p, String attributeDescription, ByteString assertionValue) {
            return add(attributeDescription);
        }

        @Override
        public Void visitLessOrEqualFilter(Void p, String attributeDescription, ByteString assertionValue) {
            return add(attributeDescription);
        }

        @Override
        public Void visitPresentFilter(Void p, String attributeDescription) {
            return add(attributeDescription);
        }

        @Override
        public Void visitSubstringsFilter(Void p, String attributeDescription, ByteString initialSubstring,
                                          List<ByteString> anySubstrings, ByteString finalSubstring) {
            return add(attributeDescription);
        }

        @Override
        public Void visitExtensibleMatchFilter(Void p, String matchingRule, String attributeDescription,
                                               ByteString assertionValue, boolean dnAttributes) {
            if (attributeDescription == null) {
                any = true; // the rule is applied to every attribute of the entry
                return null;
            }
            return add(attributeDescription);
        }

        @Override
        public Void visitUnrecognizedFilter(Void p, byte filterTag, ByteString filterBytes) {
            any = true;
            return null;
        }
    }
}
