package io.bindfirst.backend.je;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import org.forgerock.opendj.ldap.ByteString;
import org.forgerock.opendj.ldap.DN;
import org.forgerock.opendj.ldap.Entry;

import io.bindfirst.server.backend.BackendException;

/**
 * What {@code Backend.verify} checks of a JE backend: every dn2id key names an entry of id2entry stored under
 * that DN, whose parent has a key (base DNs excepted), and no two keys name one entry; every id2entry entry has
 * a key; every index of every kind holds each key of each entry, and nothing else. Reads committed data without a
 * snapshot, so it is meant for a backend that nothing writes to meanwhile (a stopped server's, offline).
 */
final class StorageCheck {
    /** Problems beyond this many are counted, not listed: one broken subtree can break thousands of entries. */
    static final int MOST_LISTED = 1_000;

    private final Entries entries;
    private final Indexes indexes;
    private final Set<ByteString> baseKeys = new HashSet<>();
    private final List<String> problems = new ArrayList<>();
    private long unlisted;

    StorageCheck(Entries entries, Indexes indexes, List<DN> canonicalBaseDNs) {
        this.entries = entries;
        this.indexes = indexes;
        for (DN base : canonicalBaseDNs) {
            baseKeys.add(ByteString.wrap(DnKeys.keyOfCanonical(base)));
        }
    }

    List<String> run() throws BackendException {
        long[] named = namedIds();
        List<AttributeIndex> all = indexes.all();
        // The pairs the entries call for that each index holds, and the keys it keeps as over the limit (one record
        // each, for all of their entries): any record beyond those is one too many.
        long[] present = new long[all.size()];
        List<Set<ByteString>> overLimit = new ArrayList<>();
        all.forEach(index -> overLimit.add(new HashSet<>()));
        entries.forEachEntry((entry, id) -> {
            if (Arrays.binarySearch(named, id) < 0) {
                problem("id2entry holds entry " + id + (entry == null ? "" : " (" + entry.getName() + ")")
                        + ", which no dn2id key names");
            }
            if (entry == null) {
                problem("id2entry holds entry " + id + ", which does not decode");
                return;
            }
            List<Set<ByteString>> keys = indexes.keys(entry);
            for (int i = 0; i < all.size(); i++) {
                for (ByteString key : keys.get(i)) {
                    if (all.get(i).holds(key, id)) {
                        present[i]++;
                    } else if (overLimit.get(i).contains(key) || all.get(i).holds(key, Ids.OVER_LIMIT)) {
                        overLimit.get(i).add(key);
                    } else {
                        problem("index " + all.get(i).dbName() + " lacks the value " + printable(key) + " of "
                                + entry.getName());
                    }
                }
            }
        });
        for (int i = 0; i < all.size(); i++) {
            AttributeIndex index = all.get(i);
            if (index.records() != present[i] + overLimit.get(i).size()) {
                int n = i;
                index.forEachRecord((key, id) -> {
                    if (id == Ids.OVER_LIMIT) {
                        return; // kept for entries that may since have gone: harmless, searches walk the scope
                    }
                    Entry entry = entries.entry(null, id);
                    if (entry == null || !indexes.keys(entry).get(n).contains(key)) {
                        problem("index " + index.dbName() + " names entry " + id + " under " + printable(key)
                                + (entry == null ? ", which id2entry does not hold"
                                        : ", a value " + entry.getName() + " does not hold"));
                    }
                });
            }
        }
        if (unlisted > 0) {
            problems.add(unlisted + " more problems");
        }
        return problems;
    }

    /** Checks dn2id; returns the ids its keys name, sorted. */
    private long[] namedIds() throws BackendException {
        long[][] ids = {new long[1024]};
        int[] n = {0};
        entries.forEachKey((key, id) -> {
            if (n[0] == ids[0].length) {
                ids[0] = Arrays.copyOf(ids[0], n[0] * 2);
            }
            ids[0][n[0]++] = id;
            Entry entry = entries.entry(null, id);
            if (entry == null) {
                problem("dn2id key " + printable(key) + " names entry " + id + ", which id2entry does not hold");
                return;
            }
            if (!Arrays.equals(DnKeys.keyOfCanonical(entry.getName()), key)) {
                problem("dn2id key " + printable(key) + " names entry " + id + ", stored as " + entry.getName());
                return;
            }
            if (!baseKeys.contains(ByteString.wrap(key))) {
                DN parent = entry.getName().parent();
                if (parent == null || entries.id(null, DnKeys.keyOfCanonical(parent)) < 0) {
                    problem(entry.getName() + " has no parent entry: it cannot be reached from a base DN");
                }
            }
        });
        long[] sorted = Arrays.copyOf(ids[0], n[0]);
        Arrays.sort(sorted);
        for (int i = 1; i < sorted.length; i++) {
            if (sorted[i] == sorted[i - 1]) {
                problem("two dn2id keys name entry " + sorted[i]);
            }
        }
        return sorted;
    }

    private void problem(String text) {
        if (problems.size() < MOST_LISTED) {
            problems.add(text);
        } else {
            unlisted++;
        }
    }

    /** A key's bytes as text where they are text (normalized values and DN keys mostly are). */
    private static String printable(byte[] key) {
        return "'" + new String(key, StandardCharsets.UTF_8).replace('\0', '/') + "'";
    }

    private static String printable(ByteString key) {
        return printable(key.toByteArray());
    }
}
