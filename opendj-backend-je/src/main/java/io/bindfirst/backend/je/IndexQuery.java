package io.bindfirst.backend.je;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

import org.forgerock.i18n.LocalizedIllegalArgumentException;
import org.forgerock.opendj.ldap.AttributeDescription;
import org.forgerock.opendj.ldap.ByteString;
import org.forgerock.opendj.ldap.Filter;
import org.forgerock.opendj.ldap.FilterVisitor;
import org.forgerock.opendj.ldap.schema.Schema;

import io.bindfirst.server.backend.BackendException;

/**
 * Turns a filter into candidate entry ids using the equality indexes. First a plan is built from the
 * filter without touching storage; then it is evaluated. {@code null} means "not indexed": the search
 * walks the scope instead. Candidates may be a superset of the matches (the caller re-filters) but never
 * miss one.
 */
final class IndexQuery {
    /** Beyond this many ids a key is too broad to help; reading it would cost more than a scope walk. */
    static final int ENTRY_LIMIT = 50_000;
    /** An AND stops intersecting once this few candidates remain: fetching them is cheaper. */
    private static final int GOOD_ENOUGH = 16;
    private static final long[] NONE = new long[0];

    private interface Plan {
    }

    private record Lookup(EqualityIndex index, ByteString key) implements Plan {
    }

    private record And(List<Plan> parts) implements Plan {
    }

    private record Or(List<Plan> parts) implements Plan {
    }

    private final Schema schema;
    private final Map<String, EqualityIndex> indexesByOid;
    private final JeStorage storage;

    IndexQuery(Schema schema, Map<String, EqualityIndex> indexesByOid, JeStorage storage) {
        this.schema = schema.asNonStrictSchema();
        this.indexesByOid = indexesByOid;
        this.storage = storage;
    }

    /** Whether the indexes can narrow {@code filter}'s candidates; decided without reading storage. */
    boolean canUse(Filter filter) {
        return filter.accept(planner, null) != null;
    }

    /** Ascending, distinct candidate ids for {@code filter}, or {@code null} if the indexes cannot help. */
    long[] candidates(Filter filter) throws BackendException {
        Plan plan = filter.accept(planner, null);
        return plan == null ? null : storage.read(() -> evaluate(plan));
    }

    private long[] evaluate(Plan plan) {
        if (plan instanceof Lookup lookup) {
            return lookup.index().read(lookup.key(), ENTRY_LIMIT);
        }
        if (plan instanceof Or or) {
            long[] result = NONE;
            for (Plan part : or.parts()) {
                long[] ids = evaluate(part);
                if (ids == null) {
                    return null; // one unindexable branch makes the whole OR a scope walk
                }
                result = union(result, ids);
            }
            return result;
        }
        // AND: the most selective lookups first (JE's per-key estimate), nested plans last.
        List<Plan> parts = new ArrayList<>(((And) plan).parts());
        parts.sort(Comparator.comparingLong(part -> part instanceof Lookup l
                ? l.index().estimate(l.key()) : Long.MAX_VALUE));
        long[] result = null;
        for (Plan part : parts) {
            long[] ids = evaluate(part);
            if (ids != null) {
                result = result == null ? ids : intersect(result, ids);
                if (result.length <= GOOD_ENOUGH) {
                    break;
                }
            }
        }
        return result;
    }

    static long[] intersect(long[] a, long[] b) {
        long[] out = new long[Math.min(a.length, b.length)];
        int i = 0, j = 0, n = 0;
        while (i < a.length && j < b.length) {
            if (a[i] < b[j]) {
                i++;
            } else if (a[i] > b[j]) {
                j++;
            } else {
                out[n++] = a[i];
                i++;
                j++;
            }
        }
        return Arrays.copyOf(out, n);
    }

    static long[] union(long[] a, long[] b) {
        long[] out = new long[a.length + b.length];
        int i = 0, j = 0, n = 0;
        while (i < a.length || j < b.length) {
            long next;
            if (j >= b.length || (i < a.length && a[i] < b[j])) {
                next = a[i++];
            } else if (i >= a.length || b[j] < a[i]) {
                next = b[j++];
            } else {
                next = a[i++];
                j++;
            }
            out[n++] = next;
        }
        return Arrays.copyOf(out, n);
    }

    private Plan equality(String attribute, ByteString value) {
        EqualityIndex index;
        try {
            index = indexesByOid.get(AttributeDescription.valueOf(attribute, schema).getAttributeType().getOID());
        } catch (LocalizedIllegalArgumentException e) {
            return null;
        }
        ByteString key = index == null ? null : index.normalize(value);
        return key == null ? null : new Lookup(index, key);
    }

    private final FilterVisitor<Plan, Void> planner = new FilterVisitor<>() {
        @Override
        public Plan visitEqualityMatchFilter(Void p, String attribute, ByteString value) {
            return equality(attribute, value);
        }

        @Override
        public Plan visitAndFilter(Void p, List<Filter> components) {
            List<Plan> parts = new ArrayList<>();
            for (Filter component : components) {
                Plan part = component.accept(this, null);
                if (part != null) {
                    parts.add(part); // unindexed components are left to the caller's re-filtering
                }
            }
            return parts.isEmpty() ? null : parts.size() == 1 ? parts.get(0) : new And(parts);
        }

        @Override
        public Plan visitOrFilter(Void p, List<Filter> components) {
            if (components.isEmpty()) {
                return null; // (|) is "false", but let the caller decide
            }
            List<Plan> parts = new ArrayList<>();
            for (Filter component : components) {
                Plan part = component.accept(this, null);
                if (part == null) {
                    return null;
                }
                parts.add(part);
            }
            return parts.size() == 1 ? parts.get(0) : new Or(parts);
        }

        @Override
        public Plan visitApproxMatchFilter(Void p, String attribute, ByteString value) {
            return null;
        }

        @Override
        public Plan visitExtensibleMatchFilter(Void p, String rule, String attribute, ByteString value,
                boolean dnAttributes) {
            return null;
        }

        @Override
        public Plan visitGreaterOrEqualFilter(Void p, String attribute, ByteString value) {
            return null;
        }

        @Override
        public Plan visitLessOrEqualFilter(Void p, String attribute, ByteString value) {
            return null;
        }

        @Override
        public Plan visitNotFilter(Void p, Filter subFilter) {
            return null;
        }

        @Override
        public Plan visitPresentFilter(Void p, String attribute) {
            return null;
        }

        @Override
        public Plan visitSubstringsFilter(Void p, String attribute, ByteString initial, List<ByteString> any,
                ByteString fin) {
            return null;
        }

        @Override
        public Plan visitUnrecognizedFilter(Void p, byte tag, ByteString value) {
            return null;
        }
    };
}
