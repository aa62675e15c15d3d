package io.bindfirst.backend.je;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import org.forgerock.i18n.LocalizedIllegalArgumentException;
import org.forgerock.opendj.ldap.AttributeDescription;
import org.forgerock.opendj.ldap.ByteString;
import org.forgerock.opendj.ldap.Filter;
import org.forgerock.opendj.ldap.FilterVisitor;
import org.forgerock.opendj.ldap.schema.Schema;

import io.bindfirst.server.backend.BackendException;
import io.bindfirst.server.backend.IndexType;

/**
 * Turns a filter into candidate entry ids using the attribute indexes: equality and presence keys are
 * looked up, a substrings filter intersects the trigrams of its components, an ordering filter scans a
 * range of its ordering index. First a plan is built from the
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

    private record Lookup(AttributeIndex index, ByteString key) implements Plan {
    }

    /** Keys from {@code from} to {@code to}, both inclusive; {@code null} is an open end. */
    private record Range(AttributeIndex index, ByteString from, ByteString to) implements Plan {
    }

    private record And(List<Plan> parts) implements Plan {
    }

    private record Or(List<Plan> parts) implements Plan {
    }

    private final Schema schema;
    private final Indexes indexes;
    private final JeStorage storage;

    IndexQuery(Schema schema, Indexes indexes, JeStorage storage) {
        this.schema = schema.asNonStrictSchema();
        this.indexes = indexes;
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
        if (plan instanceof Range range) {
            return range.index().readRange(range.from(), range.to(), ENTRY_LIMIT);
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

    /** The index of {@code kind} on the filter's attribute type, or {@code null}. */
    private AttributeIndex index(IndexType kind, String attribute) {
        try {
            return indexes.byOid(kind).get(AttributeDescription.valueOf(attribute, schema).getAttributeType().getOID());
        } catch (LocalizedIllegalArgumentException e) {
            return null;
        }
    }

    private Plan equality(String attribute, ByteString value) {
        AttributeIndex index = index(IndexType.EQUALITY, attribute);
        ByteString key = index == null ? null : index.normalize(value);
        return key == null ? null : new Lookup(index, key);
    }

    private Plan ordering(String attribute, ByteString value, boolean greater) {
        AttributeIndex index = index(IndexType.ORDERING, attribute);
        ByteString key = index == null ? null : index.normalize(value);
        if (key == null) {
            return null;
        }
        return greater ? new Range(index, key, null) : new Range(index, null, key);
    }

    /** Every trigram of every component: a value holding the components holds them all. */
    private Plan substrings(String attribute, ByteString initial, List<ByteString> any, ByteString fin) {
        AttributeIndex index = index(IndexType.SUBSTRING, attribute);
        if (index == null) {
            return null;
        }
        Set<ByteString> grams = new TreeSet<>();
        if (initial != null) {
            grams.addAll(index.componentGrams(initial, true, false));
        }
        for (ByteString part : any) {
            grams.addAll(index.componentGrams(part, false, false));
        }
        if (fin != null) {
            grams.addAll(index.componentGrams(fin, false, true));
        }
        List<Plan> parts = new ArrayList<>();
        for (ByteString gram : grams) {
            parts.add(new Lookup(index, gram));
        }
        return parts.isEmpty() ? null : parts.size() == 1 ? parts.get(0) : new And(parts);
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
            return ordering(attribute, value, true);
        }

        @Override
        public Plan visitLessOrEqualFilter(Void p, String attribute, ByteString value) {
            return ordering(attribute, value, false);
        }

        @Override
        public Plan visitNotFilter(Void p, Filter subFilter) {
            return null;
        }

        @Override
        public Plan visitPresentFilter(Void p, String attribute) {
            AttributeIndex index = index(IndexType.PRESENCE, attribute);
            return index == null ? null : new Lookup(index, AttributeIndex.PRESENT);
        }

        @Override
        public Plan visitSubstringsFilter(Void p, String attribute, ByteString initial, List<ByteString> any,
                ByteString fin) {
            return substrings(attribute, initial, any, fin);
        }

        @Override
        public Plan visitUnrecognizedFilter(Void p, byte tag, ByteString value) {
            return null;
        }
    };
}
