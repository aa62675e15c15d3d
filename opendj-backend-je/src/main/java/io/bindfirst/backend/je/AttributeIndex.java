package io.bindfirst.backend.je;

import java.util.Arrays;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import org.forgerock.opendj.ldap.Attribute;
import org.forgerock.opendj.ldap.ByteString;
import org.forgerock.opendj.ldap.DecodeException;
import org.forgerock.opendj.ldap.schema.AttributeType;
import org.forgerock.opendj.ldap.schema.MatchingRule;

import com.sleepycat.je.Cursor;
import com.sleepycat.je.CursorConfig;
import com.sleepycat.je.Database;
import com.sleepycat.je.DatabaseEntry;
import com.sleepycat.je.LockMode;
import com.sleepycat.je.OperationStatus;
import com.sleepycat.je.Transaction;

import io.bindfirst.server.backend.BackendException;
import io.bindfirst.server.backend.IndexType;
import io.bindfirst.server.schema.SubstringPreparation;

/**
 * One attribute index: a sorted-duplicates database from a key to the ids of the entries whose attribute (or
 * a subtype of it) yields that key. Ids are big-endian longs, so each key's ids come back in ascending order,
 * ready to intersect or merge. What a key is depends on the kind:
 * <ul>
 * <li>equality: the value normalized by the type's equality rule;</li>
 * <li>presence: one key, {@link #PRESENT}, for every entry that holds the attribute;</li>
 * <li>substring: every three-character piece (trigram) of the value prepared for substrings (RFC 4518, as
 * {@link SubstringPreparation} does for the filter evaluation, spaces at both ends included, so an initial
 * or final component's pieces anchor it). Trigrams rather than OpenDJ's keys of up to six characters: one
 * key length serves every component of three characters or more, wherever it sits, by intersection;</li>
 * <li>ordering: the value normalized by the type's ordering rule, whose bytes sort in the rule's order, so
 * a range of keys is a range of values.</li>
 * </ul>
 */
final class AttributeIndex {
    /** The one presence key. */
    static final ByteString PRESENT = ByteString.valueOfBytes(new byte[] {0});
    static final int GRAM = 3;
    /** The object-identifier equality rule (objectClass's): its values name a few classes, over and over. */
    private static final String OID_MATCH = "2.5.13.0";
    /** Most values whose keys {@link #remembered} keeps: the classes of a schema, with room to spare. */
    static final int REMEMBERED_LIMIT = 1024;

    private final IndexType kind;
    private final String name;
    private final AttributeType type;
    private final MatchingRule rule;
    private final boolean significantSpaces;
    private final Database db;
    /**
     * Keys of values already normalized, for an object-identifier equality index, else {@code null}. Such a rule
     * turns a class name into its OID through the schema (lower-casing and looking it up each time), and every
     * entry lists the same few classes: an import of a million entries normalized four million values to about
     * five keys. Filled up to {@link #REMEMBERED_LIMIT} values, so odd data cannot grow it without bound.
     */
    private final ConcurrentHashMap<ByteString, ByteString> remembered;

    AttributeIndex(IndexType kind, String name, AttributeType type, Database db) {
        this.kind = kind;
        this.name = name;
        this.type = type;
        this.rule = switch (kind) {
            case EQUALITY -> type.getEqualityMatchingRule();
            case ORDERING -> type.getOrderingMatchingRule();
            case SUBSTRING -> type.getSubstringMatchingRule();
            case PRESENCE -> null;
        };
        this.significantSpaces = kind == IndexType.SUBSTRING && SubstringPreparation.significantSpaces(rule);
        this.db = db;
        this.remembered = kind == IndexType.EQUALITY && rule != null && OID_MATCH.equals(rule.getOID())
                ? new ConcurrentHashMap<>() : null;
    }

    /** The database name for an index of {@code kind} on {@code name}: "eq.cn", "pres.cn", "sub.cn", "ord.cn". */
    static String dbName(IndexType kind, String name) {
        return prefix(kind) + name;
    }

    static String prefix(IndexType kind) {
        return switch (kind) {
            case EQUALITY -> "eq.";
            case PRESENCE -> "pres.";
            case SUBSTRING -> "sub.";
            case ORDERING -> "ord.";
        };
    }

    IndexType kind() {
        return kind;
    }

    String name() {
        return name;
    }

    String dbName() {
        return dbName(kind, name);
    }

    Database database() {
        return db;
    }

    AttributeType type() {
        return type;
    }

    /** Adds the keys of {@code attribute}'s values, whose type is this index's type or a subtype of it. */
    void collectKeys(Attribute attribute, Set<ByteString> into) {
        if (kind == IndexType.PRESENCE) {
            into.add(PRESENT);
            return;
        }
        for (ByteString value : attribute) {
            if (kind == IndexType.SUBSTRING) {
                try {
                    grams(SubstringPreparation.value(rule, significantSpaces, value), into);
                } catch (DecodeException e) {
                    // an invalid value matches no substrings filter either
                }
            } else {
                ByteString key = normalize(value);
                if (key != null) {
                    into.add(key);
                }
            }
        }
    }

    /** The key for an assertion value (equality, ordering), or {@code null} if it is invalid for the syntax. */
    ByteString normalize(ByteString value) {
        ByteString known = remembered != null ? remembered.get(value) : null;
        if (known != null) {
            return known;
        }
        try {
            ByteString key = rule.normalizeAttributeValue(value);
            if (remembered != null && remembered.size() < REMEMBERED_LIMIT) {
                remembered.put(value, key);
            }
            return key;
        } catch (DecodeException e) {
            // An invalid value cannot be indexed; the caller falls back to a scope walk.
            return null;
        }
    }

    /** The trigrams of a substrings component, prepared as the values are; empty if it is too short. */
    Set<ByteString> componentGrams(ByteString part, boolean initial, boolean fin) {
        Set<ByteString> out = new java.util.HashSet<>();
        try {
            grams(SubstringPreparation.component(rule, significantSpaces, part, initial, fin), out);
        } catch (DecodeException e) {
            // no keys: the component alone does not narrow anything
        }
        return out;
    }

    /** Every run of {@link #GRAM} code points of {@code text}, as UTF-8. */
    static void grams(String text, Set<ByteString> into) {
        int[] cps = text.codePoints().toArray();
        for (int i = 0; i + GRAM <= cps.length; i++) {
            into.add(ByteString.valueOfUtf8(new String(cps, i, GRAM)));
        }
    }

    /** Adds {@code id} under each of {@code keys}, except keys kept as over the limit ({@link Ids#OVER_LIMIT}). */
    void insert(Transaction txn, Set<ByteString> keys, long id) {
        DatabaseEntry data = Ids.entry(id);
        try (Cursor cursor = db.openCursor(txn, null)) {
            for (ByteString key : keys) {
                DatabaseEntry k = new DatabaseEntry(key.toByteArray());
                if (cursor.getSearchBoth(k, Ids.entry(Ids.OVER_LIMIT), null) != OperationStatus.SUCCESS) {
                    cursor.put(k, data);
                }
            }
        }
    }

    /** A cursor to add records with ({@code cursor.put(key, id)}): one for many puts, as a bulk load does. */
    Cursor writeCursor(Transaction txn) {
        return db.openCursor(txn, null);
    }

    /**
     * Removes {@code id} from each of {@code keys}. Only the one (key, id) pair goes: the key's other ids
     * stay. A pair that is not there is skipped, since the goal (it is absent) already holds.
     */
    void delete(Transaction txn, Set<ByteString> keys, long id) {
        if (keys.isEmpty()) {
            return;
        }
        DatabaseEntry data = Ids.entry(id);
        try (Cursor cursor = db.openCursor(txn, null)) {
            for (ByteString key : keys) {
                if (cursor.getSearchBoth(new DatabaseEntry(key.toByteArray()), data, LockMode.RMW)
                        == OperationStatus.SUCCESS) {
                    cursor.delete();
                }
            }
        }
    }

    /** A cheap estimate of how many entries hold {@code key}, used to order AND components. */
    long estimate(ByteString key) {
        try (Cursor cursor = db.openCursor(null, CursorConfig.READ_COMMITTED)) {
            DatabaseEntry data = new DatabaseEntry();
            if (cursor.getSearchKey(new DatabaseEntry(key.toByteArray()), data, null) != OperationStatus.SUCCESS) {
                return 0;
            }
            return Ids.of(data) == Ids.OVER_LIMIT ? Long.MAX_VALUE : cursor.countEstimate();
        }
    }

    /**
     * The ascending ids of the entries holding {@code key}, or {@code null} if there are more than
     * {@code limit} or the key is kept as over the limit (too broad to be worth reading: the caller walks the
     * scope instead).
     */
    long[] read(ByteString key, int limit) {
        long[] ids = new long[16];
        int count = 0;
        try (Cursor cursor = db.openCursor(null, CursorConfig.READ_COMMITTED)) {
            DatabaseEntry data = new DatabaseEntry();
            OperationStatus status = cursor.getSearchKey(new DatabaseEntry(key.toByteArray()), data, null);
            while (status == OperationStatus.SUCCESS) {
                long id = Ids.of(data);
                if (count == limit || id == Ids.OVER_LIMIT) {
                    return null;
                }
                if (count == ids.length) {
                    ids = Arrays.copyOf(ids, count * 2);
                }
                ids[count++] = id;
                status = cursor.getNextDup(new DatabaseEntry(), data, null);
            }
        }
        return Arrays.copyOf(ids, count);
    }

    /**
     * The ascending, distinct ids of the entries with a key in the range ({@code null} bounds are open ends;
     * both bounds inclusive), or {@code null} if there are more than {@code limit} or a key in the range is kept
     * as over the limit.
     */
    long[] readRange(ByteString from, ByteString to, int limit) {
        long[] ids = new long[16];
        int count = 0;
        byte[] end = to == null ? null : to.toByteArray();
        try (Cursor cursor = db.openCursor(null, CursorConfig.READ_COMMITTED)) {
            DatabaseEntry key = from == null ? new DatabaseEntry() : new DatabaseEntry(from.toByteArray());
            DatabaseEntry data = new DatabaseEntry();
            OperationStatus status = from == null ? cursor.getFirst(key, data, null)
                    : cursor.getSearchKeyRange(key, data, null);
            while (status == OperationStatus.SUCCESS) {
                if (end != null && Arrays.compareUnsigned(key.getData(), key.getOffset(),
                        key.getOffset() + key.getSize(), end, 0, end.length) > 0) {
                    break;
                }
                long id = Ids.of(data);
                if (count == limit || id == Ids.OVER_LIMIT) {
                    return null;
                }
                if (count == ids.length) {
                    ids = Arrays.copyOf(ids, count * 2);
                }
                ids[count++] = id;
                status = cursor.getNext(key, data, null);
            }
        }
        long[] sorted = Arrays.copyOf(ids, count);
        Arrays.sort(sorted);
        return Arrays.stream(sorted).distinct().toArray();
    }

    /**
     * Deletes every record, {@code batch} per transaction (one transaction for a large index would hold every
     * record's lock at once). For a rebuild, when nothing else uses the index.
     */
    void clear(JeStorage storage, int batch) throws BackendException {
        boolean more = true;
        while (more) {
            more = storage.write(txn -> {
                int deleted = 0;
                try (Cursor cursor = db.openCursor(txn, null)) {
                    DatabaseEntry key = new DatabaseEntry();
                    DatabaseEntry data = new DatabaseEntry();
                    while (deleted < batch && cursor.getNext(key, data, LockMode.RMW) == OperationStatus.SUCCESS) {
                        cursor.delete();
                        deleted++;
                    }
                }
                return deleted == batch;
            });
        }
    }

    /** Whether the index holds the pair ({@code key}, {@code id}). */
    boolean holds(ByteString key, long id) {
        try (Cursor cursor = db.openCursor(null, CursorConfig.READ_COMMITTED)) {
            return cursor.getSearchBoth(new DatabaseEntry(key.toByteArray()), Ids.entry(id), null)
                    == OperationStatus.SUCCESS;
        }
    }

    /** How many (key, id) pairs the index holds. */
    long records() {
        return db.count();
    }

    /** Every (key, id) pair, in key order. */
    void forEachRecord(Entries.RecordVisitor<ByteString> visitor) throws BackendException {
        try (Cursor cursor = db.openCursor(null, CursorConfig.READ_COMMITTED)) {
            DatabaseEntry key = new DatabaseEntry();
            DatabaseEntry data = new DatabaseEntry();
            while (cursor.getNext(key, data, null) == OperationStatus.SUCCESS) {
                visitor.visit(ByteString.wrap(key.getData()), Ids.of(data));
            }
        }
    }
}
