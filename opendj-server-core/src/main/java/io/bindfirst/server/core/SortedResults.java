package io.bindfirst.server.core;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

import org.forgerock.i18n.LocalizedIllegalArgumentException;
import org.forgerock.opendj.ldap.Attribute;
import org.forgerock.opendj.ldap.AttributeDescription;
import org.forgerock.opendj.ldap.ByteString;
import org.forgerock.opendj.ldap.DecodeException;
import org.forgerock.opendj.ldap.Entry;
import org.forgerock.opendj.ldap.ResultCode;
import org.forgerock.opendj.ldap.SortKey;
import org.forgerock.opendj.ldap.controls.Control;
import org.forgerock.opendj.ldap.controls.ServerSideSortRequestControl;
import org.forgerock.opendj.ldap.controls.ServerSideSortResponseControl;
import org.forgerock.opendj.ldap.schema.MatchingRule;
import org.forgerock.opendj.ldap.schema.Schema;

/**
 * The Server-Side Sort control (RFC 2891) of one search: its keys checked against the schema, and the matching
 * entries it holds until the walk ends. Sorting happens in memory, so at most {@code limit} entries are held
 * (the server's {@code ds-cfg-sort-limit}); beyond, the sort gives up with {@code adminLimitExceeded} as its
 * sortResult. Keys compare the values normalized by the key's ordering rule (the one named, else the attribute's
 * ordering rule, else its equality rule); a multi-valued attribute sorts by its least value (its greatest in
 * reverse order), and an entry without the attribute sorts after all the others (before them in reverse order),
 * as RFC 2891 2.2 says.
 */
final class SortedResults {
    /** One key, resolved. */
    private record Key(AttributeDescription attribute, MatchingRule rule, boolean reverse) {
    }

    /** An entry held for sorting, its key values computed once, with what computes its virtual attributes. */
    record Item(Entry entry, AttributeSelection.SubordinateCheck subordinates, ByteString[] keys) {
    }

    private final List<Key> keys = new ArrayList<>();
    private final boolean critical;
    private final int limit;
    private final String identity;
    /** Why the keys cannot be used (noSuchAttribute, inappropriateMatching), and the attribute; or null. */
    private ResultCode problem;
    private String problemAttribute;
    private final List<Item> items = new ArrayList<>();

    private SortedResults(ServerSideSortRequestControl control, Schema schema, int limit) {
        this.critical = control.isCritical();
        this.limit = limit;
        StringBuilder id = new StringBuilder();
        for (SortKey k : control.getSortKeys()) {
            id.append(k).append(' ');
            if (problem == null) {
                resolve(k, schema);
            }
        }
        this.identity = id.toString();
    }

    /** The request's sort, or {@code null} without the control. */
    static SortedResults of(ServerSideSortRequestControl control, Schema schema, int limit) {
        return control == null ? null : new SortedResults(control, schema, limit);
    }

    private void resolve(SortKey k, Schema schema) {
        AttributeDescription ad;
        try {
            ad = AttributeDescription.valueOf(k.getAttributeDescription(), schema);
        } catch (LocalizedIllegalArgumentException e) {
            fail(ResultCode.NO_SUCH_ATTRIBUTE, k.getAttributeDescription());
            return;
        }
        MatchingRule rule;
        if (k.getOrderingMatchingRule() != null) {
            try {
                rule = schema.getMatchingRule(k.getOrderingMatchingRule());
            } catch (LocalizedIllegalArgumentException e) {
                fail(ResultCode.INAPPROPRIATE_MATCHING, k.getAttributeDescription());
                return;
            }
        } else {
            rule = ad.getAttributeType().getOrderingMatchingRule();
            if (rule == null) {
                rule = ad.getAttributeType().getEqualityMatchingRule();
            }
        }
        if (rule == null) {
            fail(ResultCode.INAPPROPRIATE_MATCHING, k.getAttributeDescription());
            return;
        }
        keys.add(new Key(ad, rule, k.isReverseOrder()));
    }

    private void fail(ResultCode code, String attribute) {
        problem = code;
        problemAttribute = attribute;
    }

    /** Whether the keys can be used; else the search answers as RFC 2891 1.2 says (see {@link #critical()}). */
    boolean usable() {
        return problem == null;
    }

    /** Whether the control was critical: a sort that cannot be done then fails the search, else it is unsorted. */
    boolean critical() {
        return critical;
    }

    /** What the paged results cookie's digest includes, so a page of another order is refused. */
    String identity() {
        return identity;
    }

    /** Holds {@code entry}; {@code false} (and nothing held) once the limit is reached. */
    boolean add(Entry entry, AttributeSelection.SubordinateCheck subordinates) {
        if (limit > 0 && items.size() >= limit) {
            problem = ResultCode.ADMIN_LIMIT_EXCEEDED;
            return false;
        }
        ByteString[] values = new ByteString[keys.size()];
        for (int i = 0; i < values.length; i++) {
            values[i] = keyValue(entry, keys.get(i));
        }
        items.add(new Item(entry, subordinates, values));
        return true;
    }

    /** The entries held, in the order asked for; emptied of them. */
    List<Item> sorted() {
        List<Item> out = new ArrayList<>(items);
        out.sort(order());
        items.clear();
        return out;
    }

    /** The entries held, in the order they came (a non-critical sort that gave up); emptied of them. */
    List<Item> unsorted() {
        List<Item> out = new ArrayList<>(items);
        items.clear();
        return out;
    }

    /**
     * The response control: success, or why the sort was not done (its keys, its limit, or {@code stopped}: what
     * stopped the search before it could sort, a time or lookthrough limit; {@code null} if nothing did).
     */
    Control response(ResultCode stopped) {
        if (problem != null) {
            return problemAttribute == null ? ServerSideSortResponseControl.newControl(problem)
                    : ServerSideSortResponseControl.newControl(problem, problemAttribute);
        }
        if (stopped != null) {
            boolean known = stopped.equals(ResultCode.TIME_LIMIT_EXCEEDED)
                    || stopped.equals(ResultCode.ADMIN_LIMIT_EXCEEDED);
            return ServerSideSortResponseControl.newControl(known ? stopped : ResultCode.OTHER);
        }
        return ServerSideSortResponseControl.newControl(ResultCode.SUCCESS);
    }

    int limit() {
        return limit;
    }

    private Comparator<Item> order() {
        return (a, b) -> {
            for (int i = 0; i < keys.size(); i++) {
                int c = compare(a.keys()[i], b.keys()[i]);
                if (c != 0) {
                    return keys.get(i).reverse() ? -c : c;
                }
            }
            return 0;
        };
    }

    /** A missing value sorts after every value. */
    private static int compare(ByteString a, ByteString b) {
        if (a == null || b == null) {
            return a == null ? (b == null ? 0 : 1) : -1;
        }
        return a.compareTo(b);
    }

    /** The least normalized value (the greatest for a reverse key), or {@code null} when the entry has none. */
    private static ByteString keyValue(Entry entry, Key key) {
        ByteString best = null;
        for (Attribute a : entry.getAllAttributes(key.attribute())) {
            for (ByteString v : a) {
                ByteString normalized;
                try {
                    normalized = key.rule().normalizeAttributeValue(v);
                } catch (DecodeException e) {
                    continue; // a value the rule cannot order: as if absent
                }
                if (best == null || (key.reverse() ? normalized.compareTo(best) > 0 : normalized.compareTo(best) < 0)) {
                    best = normalized;
                }
            }
        }
        return best;
    }
}
