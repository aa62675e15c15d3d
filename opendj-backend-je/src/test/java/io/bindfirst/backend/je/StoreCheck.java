package io.bindfirst.backend.je;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

import org.forgerock.opendj.ldap.ByteString;
import org.forgerock.opendj.ldap.DN;
import org.forgerock.opendj.ldap.Entry;
import org.forgerock.opendj.ldap.schema.Schema;

import com.sleepycat.je.Cursor;
import com.sleepycat.je.Database;
import com.sleepycat.je.DatabaseEntry;
import com.sleepycat.je.OperationStatus;

import io.bindfirst.server.backend.BackendException;
import io.bindfirst.server.backend.IndexType;

/**
 * Reads a closed backend's databases directly and checks every invariant the writes must keep: each dn2id
 * key names an id2entry record whose stored DN has exactly that key, and no other id2entry record exists;
 * every entry's parent is in dn2id (no orphans); the index databases hold exactly the (key, id) pairs the
 * stored entries call for (no stale ids, none missing). Search results cannot show stale index records
 * (a dangling id is skipped), hence this.
 */
final class StoreCheck {
    private StoreCheck() {
    }

    /**
     * @return how many entries the store holds, after checking it; throws AssertionError on a violation. A key an
     *         index keeps as over the limit must hold that marker alone, and some entry must have the key.
     */
    static int check(Path dir) throws BackendException {
        return check(dir, TestSupport.SCHEMA, Map.of(IndexType.EQUALITY, TestSupport.SERVER_INDEXES));
    }

    /** As {@link #check(Path)}, for a store opened with {@code schema} and these indexes. */
    static int check(Path dir, Schema schema, Map<IndexType, Set<String>> configured) throws BackendException {
        List<String> problems = new ArrayList<>();
        int count;
        try (JeStorage storage = new JeStorage("check", dir, 0)) {
            Database dn2id = storage.openDatabase(Entries.DN2ID, false);
            Database id2entry = storage.openDatabase(Entries.ID2ENTRY, false);
            EntryCodec codec = new EntryCodec(schema);
            Indexes indexes = Indexes.open(storage, storage.openDatabase("meta", false), id2entry, codec,
                    configured, schema);
            List<String> names = indexes.names();

            TreeMap<Long, Entry> byId = new TreeMap<>();
            scan(id2entry, (key, data) -> byId.put(Ids.of(key), codec.decode(data.getData())));
            TreeMap<String, Long> keys = new TreeMap<>();
            scan(dn2id, (key, data) -> keys.put(hex(key.getData()), Ids.of(data)));
            count = keys.size();

            Set<Long> named = new TreeSet<>();
            for (var record : keys.entrySet()) {
                long id = record.getValue();
                Entry entry = byId.get(id);
                if (!named.add(id)) {
                    problems.add("id " + id + " has two dn2id keys");
                }
                if (entry == null) {
                    problems.add("dn2id key " + record.getKey() + " names id " + id + " which has no entry");
                    continue;
                }
                DN name = entry.getName();
                if (!hex(DnKeys.keyOfCanonical(name)).equals(record.getKey())) {
                    problems.add("entry " + id + " is stored as " + name + " but keyed " + record.getKey());
                }
                if (!name.equals(TestSupport.dn(TestSupport.SUFFIX))
                        && !keys.containsKey(hex(DnKeys.keyOfCanonical(name.parent())))) {
                    problems.add("orphan: " + name + " has no parent entry");
                }
            }
            for (long id : byId.keySet()) {
                if (!named.contains(id)) {
                    problems.add("id2entry " + id + " (" + byId.get(id).getName() + ") has no dn2id key");
                }
            }

            for (int i = 0; i < names.size(); i++) {
                Set<String> actual = new TreeSet<>();
                Set<String> overLimit = new TreeSet<>(); // keys a bulk load kept as one marker, not their ids
                Database index = storage.openDatabase(names.get(i), true);
                scan(index, (key, data) -> {
                    actual.add(hex(key.getData()) + "/" + Ids.of(data));
                    if (Ids.of(data) == Ids.OVER_LIMIT) {
                        overLimit.add(hex(key.getData()));
                    }
                });
                Set<String> expected = new TreeSet<>();
                for (var stored : byId.entrySet()) {
                    for (ByteString key : indexes.keys(stored.getValue()).get(i)) {
                        String hexKey = hex(key.toByteArray());
                        expected.add(hexKey + "/" + (overLimit.contains(hexKey) ? Ids.OVER_LIMIT : stored.getKey()));
                    }
                }
                if (!expected.equals(actual)) {
                    Set<String> stale = new TreeSet<>(actual);
                    stale.removeAll(expected);
                    Set<String> missing = new TreeSet<>(expected);
                    missing.removeAll(actual);
                    problems.add("index " + names.get(i) + ": stale " + stale + ", missing " + missing);
                }
            }
        }
        if (!problems.isEmpty()) {
            throw new AssertionError("store at " + dir + " is inconsistent: " + problems);
        }
        return count;
    }

    private interface RecordConsumer {
        void accept(DatabaseEntry key, DatabaseEntry data) throws BackendException;
    }

    private static void scan(Database db, RecordConsumer consumer) throws BackendException {
        try (Cursor cursor = db.openCursor(null, null)) {
            DatabaseEntry key = new DatabaseEntry();
            DatabaseEntry data = new DatabaseEntry();
            while (cursor.getNext(key, data, null) == OperationStatus.SUCCESS) {
                consumer.accept(key, data);
            }
        }
    }

    private static String hex(byte[] bytes) {
        return HexFormat.of().formatHex(bytes);
    }
}
