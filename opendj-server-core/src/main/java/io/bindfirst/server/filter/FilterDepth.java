package io.bindfirst.server.filter;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;

import org.forgerock.opendj.ldap.ByteString;
import org.forgerock.opendj.ldap.Filter;
import org.forgerock.opendj.ldap.FilterVisitor;

/**
 * How deep a filter nests, measured without recursion: the SDK decodes a filter of any depth a request's size
 * allows (hundreds of thousands of NOTs fit in the 5 MiB limit), and every recursive walk of it after that (the
 * matcher, the password check, {@code toString} for the log) would overflow the thread's stack. A search checks
 * this first and refuses what no real client sends.
 */
public final class FilterDepth {
    /** Deeper than any filter a directory client builds; OpenLDAP's own nesting limit is of this order. */
    public static final int MAX = 100;

    private FilterDepth() {
    }

    /**
     * Whether a filter in its string form (RFC 4515) nests more than {@link #MAX} levels: a scan of its
     * parentheses, for text to check before the SDK's parser, which recurses once a level and overflows the
     * stack on a deep enough string (an ACI's targetfilter, a filter in an LDAP URL). A parenthesis inside an
     * assertion value is escaped (\\28, \\29), so the raw ones are the structure.
     */
    public static boolean tooDeep(String filter) {
        int depth = 0;
        for (int i = 0; i < filter.length(); i++) {
            char c = filter.charAt(i);
            if (c == '(' && ++depth > MAX) {
                return true;
            } else if (c == ')') {
                depth--;
            }
        }
        return false;
    }

    /** Whether {@code filter} nests (AND, OR, NOT) more than {@link #MAX} levels deep. */
    public static boolean tooDeep(Filter filter) {
        Deque<Filter> level = new ArrayDeque<>();
        level.add(filter);
        for (int depth = 1; !level.isEmpty(); depth++) {
            if (depth > MAX) {
                return true;
            }
            Deque<Filter> next = new ArrayDeque<>();
            for (Filter f : level) {
                next.addAll(f.accept(CHILDREN, null));
            }
            level = next;
        }
        return false;
    }

    /** The filters one level down: a visitor that does not descend by itself. */
    private static final FilterVisitor<List<Filter>, Void> CHILDREN = new FilterVisitor<>() {
        @Override
        public List<Filter> visitAndFilter(Void p, List<Filter> subFilters) {
            return subFilters;
        }

        @Override
        public List<Filter> visitOrFilter(Void p, List<Filter> subFilters) {
            return subFilters;
        }

        @Override
        public List<Filter> visitNotFilter(Void p, Filter subFilter) {
            return List.of(subFilter);
        }

        @Override
        public List<Filter> visitApproxMatchFilter(Void p, String attributeDescription, ByteString assertionValue) {
            return List.of();
        }

        @Override
        public List<Filter> visitEqualityMatchFilter(Void p, String attributeDescription, ByteString assertionValue) {
            return List.of();
        }

        @Override
        public List<Filter> visitExtensibleMatchFilter(Void p, String matchingRule, String attributeDescription,
                                                       ByteString assertionValue, boolean dnAttributes) {
            return List.of();
        }

        @Override
        public List<Filter> visitGreaterOrEqualFilter(Void p, String attributeDescription,
                                                      ByteString assertionValue) {
            return List.of();
        }

        @Override
        public List<Filter> visitLessOrEqualFilter(Void p, String attributeDescription, ByteString assertionValue) {
            return List.of();
        }

        @Override
        public List<Filter> visitPresentFilter(Void p, String attributeDescription) {
            return List.of();
        }

        @Override
        public List<Filter> visitSubstringsFilter(Void p, String attributeDescription, ByteString initialSubstring,
                                                  List<ByteString> anySubstrings, ByteString finalSubstring) {
            return List.of();
        }

        @Override
        public List<Filter> visitUnrecognizedFilter(Void p, byte filterTag, ByteString filterBytes) {
            return List.of();
        }
    };
}
