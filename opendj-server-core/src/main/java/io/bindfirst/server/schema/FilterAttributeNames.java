package io.bindfirst.server.schema;

import java.util.List;
import java.util.function.Predicate;

import org.forgerock.opendj.ldap.ByteString;
import org.forgerock.opendj.ldap.Filter;
import org.forgerock.opendj.ldap.FilterVisitor;

/**
 * Walks a search filter and hands each attribute description one of its components tests to a predicate, as
 * the client wrote it, stopping at the first that answers true. A component that may test any attribute (an
 * extensible match without an attribute, which applies its rule to every attribute of the entry, or a filter
 * of a type the SDK does not know) is handed {@code null}. The one walk behind every question of the form
 * "which attributes does this filter look at" (access control's search rights, the password's masking).
 */
public final class FilterAttributeNames implements FilterVisitor<Boolean, Void> {
    private final Predicate<String> stop;

    private FilterAttributeNames(Predicate<String> stop) {
        this.stop = stop;
    }

    /**
     * Whether {@code test} answers true for an attribute description of {@code filter} ({@code null}: any
     * attribute). The filter's depth is bounded where it is decoded, so the recursion is too.
     */
    public static boolean anyMatch(Filter filter, Predicate<String> test) {
        return filter.accept(new FilterAttributeNames(test), null);
    }

    private boolean any(List<Filter> subFilters) {
        for (Filter f : subFilters) {
            if (f.accept(this, null)) {
                return true;
            }
        }
        return false;
    }

    @Override
    public Boolean visitAndFilter(Void p, List<Filter> subFilters) {
        return any(subFilters);
    }

    @Override
    public Boolean visitOrFilter(Void p, List<Filter> subFilters) {
        return any(subFilters);
    }

    @Override
    public Boolean visitNotFilter(Void p, Filter subFilter) {
        return subFilter.accept(this, null);
    }

    @Override
    public Boolean visitApproxMatchFilter(Void p, String attributeDescription, ByteString assertionValue) {
        return stop.test(attributeDescription);
    }

    @Override
    public Boolean visitEqualityMatchFilter(Void p, String attributeDescription, ByteString assertionValue) {
        return stop.test(attributeDescription);
    }

    @Override
    public Boolean visitGreaterOrEqualFilter(Void p, String attributeDescription, ByteString assertionValue) {
        return stop.test(attributeDescription);
    }

    @Override
    public Boolean visitLessOrEqualFilter(Void p, String attributeDescription, ByteString assertionValue) {
        return stop.test(attributeDescription);
    }

    @Override
    public Boolean visitPresentFilter(Void p, String attributeDescription) {
        return stop.test(attributeDescription);
    }

    @Override
    public Boolean visitSubstringsFilter(Void p, String attributeDescription, ByteString initialSubstring,
                                         List<ByteString> anySubstrings, ByteString finalSubstring) {
        return stop.test(attributeDescription);
    }

    @Override
    public Boolean visitExtensibleMatchFilter(Void p, String matchingRule, String attributeDescription,
                                              ByteString assertionValue, boolean dnAttributes) {
        return stop.test(attributeDescription);
    }

    @Override
    public Boolean visitUnrecognizedFilter(Void p, byte filterTag, ByteString filterBytes) {
        return stop.test(null);
    }
}
