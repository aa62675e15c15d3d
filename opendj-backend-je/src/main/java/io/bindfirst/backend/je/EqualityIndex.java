package io.bindfirst.backend.je;

import java.util.Arrays;
import java.util.Set;

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

/**
 * An equality index: a sorted-duplicates database mapping the equality-normalized value of an attribute
 * (or of any of its subtypes) to the ids of the entries holding it. Ids are big-endian longs, so each
 * key's ids come back in ascending order, ready to intersect or merge.
 */
final class EqualityIndex {
    /** Prefix of index database names; the rest is the configured attribute name. */
    static final String DB_PREFIX = "eq.";

    private final String name;
    private final AttributeType type;
    private final MatchingRule rule;
    private final Database db;

    EqualityIndex(String name, AttributeType type, Database db) {
        this.name = name;
        this.type = type;
        this.rule = type.getEqualityMatchingRule();
        this.db = db;
    }

    String name() {
        return name;
    }

    AttributeType type() {
        return type;
    }

    /** Adds the keys of {@code attribute}'s values, whose type is this index's type or a subtype of it. */
    void collectKeys(Attribute attribute, Set<ByteString> into) {
        for (ByteString value : attribute) {
            ByteString key = normalize(value);
            if (key != null) {
                into.add(key);
            }
        }
    }

    /** The key for an assertion value, or {@code null} if the value is invalid for the syntax. */
    ByteString normalize(ByteString value) {
        try {
            return rule.normalizeAttributeValue(value);
        } catch (DecodeException e) {
            // An invalid value cannot be indexed; the caller falls back to a scope walk.
            return null;
        }
    }

    void insert(Transaction txn, Set<ByteString> keys, long id) {
        DatabaseEntry data = Ids.entry(id);
        for (ByteString key : keys) {
            db.put(txn, new DatabaseEntry(key.toByteArray()), data);
        }
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

    /** A cheap estimate of how many entries hold {@code key}, used to order AND components. */
    long estimate(ByteString key) {
        try (Cursor cursor = db.openCursor(null, CursorConfig.READ_COMMITTED)) {
            DatabaseEntry data = new DatabaseEntry();
            data.setPartial(0, 0, true);
            if (cursor.getSearchKey(new DatabaseEntry(key.toByteArray()), data, null) != OperationStatus.SUCCESS) {
                return 0;
            }
            return cursor.countEstimate();
        }
    }

    /**
     * The ascending ids of the entries holding {@code key}, or {@code null} if there are more than
     * {@code limit} (too broad to be worth reading: the caller walks the scope instead).
     */
    long[] read(ByteString key, int limit) {
        long[] ids = new long[16];
        int count = 0;
        try (Cursor cursor = db.openCursor(null, CursorConfig.READ_COMMITTED)) {
            DatabaseEntry data = new DatabaseEntry();
            OperationStatus status = cursor.getSearchKey(new DatabaseEntry(key.toByteArray()), data, null);
            while (status == OperationStatus.SUCCESS) {
                if (count == limit) {
                    return null;
                }
                if (count == ids.length) {
                    ids = Arrays.copyOf(ids, count * 2);
                }
                ids[count++] = Ids.of(data);
                status = cursor.getNextDup(new DatabaseEntry(), data, null);
            }
        }
        return Arrays.copyOf(ids, count);
    }
}
