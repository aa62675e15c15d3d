package io.bindfirst.backend.je;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.LongConsumer;

import org.forgerock.opendj.ldap.Attribute;
import org.forgerock.opendj.ldap.ByteString;
import org.forgerock.opendj.ldap.Entry;
import org.forgerock.opendj.ldap.ResultCode;
import org.forgerock.opendj.ldap.schema.AttributeType;
import org.forgerock.opendj.ldap.schema.Schema;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import com.sleepycat.je.Cursor;
import com.sleepycat.je.Database;
import com.sleepycat.je.DatabaseEntry;
import com.sleepycat.je.OperationStatus;
import com.sleepycat.je.Transaction;

import io.bindfirst.server.backend.BackendException;
import io.bindfirst.server.backend.IndexType;
import io.bindfirst.server.schema.SubstringPreparation;

/**
 * The configured attribute indexes (equality, presence, substring, ordering). An index database is trusted
 * only once a "ready" marker for it is in the meta database: one added to the configuration of a backend
 * that already holds entries (or whose build was interrupted) is rebuilt from id2entry at open, and one
 * dropped from the configuration is removed, so re-adding it later cannot leave it stale.
 */
final class Indexes {
    private static final Logger LOG = LoggerFactory.getLogger(Indexes.class);
    private static final int REBUILD_BATCH = 2_000;
    private static final byte[] READY = {1};

    private final List<AttributeIndex> all;
    private final IndexedTypes allTypes;
    private final Map<IndexType, Map<String, AttributeIndex>> byKind;
    private final Schema schema;
    private final JeStorage storage;
    private final Database meta;
    private final Database id2entry;
    private final EntryCodec codec;

    private Indexes(List<AttributeIndex> all, Schema schema, JeStorage storage, Database meta, Database id2entry,
            EntryCodec codec) {
        this.all = List.copyOf(all);
        this.allTypes = new IndexedTypes(this.all);
        this.schema = schema;
        this.storage = storage;
        this.meta = meta;
        this.id2entry = id2entry;
        this.codec = codec;
        Map<IndexType, Map<String, AttributeIndex>> map = new EnumMap<>(IndexType.class);
        for (IndexType kind : IndexType.values()) {
            Map<String, AttributeIndex> oids = new HashMap<>();
            for (AttributeIndex index : all) {
                if (index.kind() == kind) {
                    oids.put(index.type().getOID(), index);
                }
            }
            map.put(kind, Map.copyOf(oids));
        }
        this.byKind = map;
    }

    /** Equality indexes only, on the attribute names given. */
    static Indexes open(JeStorage storage, Database meta, Database id2entry, EntryCodec codec,
            Set<String> names, Schema schema) throws BackendException {
        return open(storage, meta, id2entry, codec, Map.of(IndexType.EQUALITY, names), schema);
    }

    static Indexes open(JeStorage storage, Database meta, Database id2entry, EntryCodec codec,
            Map<IndexType, Set<String>> namesByKind, Schema schema) throws BackendException {
        Schema nonStrict = schema.asNonStrictSchema();
        List<String> existing = storage.databaseNames();
        Set<String> wanted = new TreeSet<>();
        List<AttributeIndex> indexes = new ArrayList<>();
        List<AttributeIndex> toBuild = new ArrayList<>();
        for (IndexType kind : IndexType.values()) {
            for (String name : new TreeSet<>(namesByKind.getOrDefault(kind, Set.of()))) {
                String lower = name.toLowerCase(Locale.ROOT);
                AttributeType type = nonStrict.getAttributeType(lower);
                if (!usable(kind, type)) {
                    LOG.warn("Attribute {} has no {} matching rule: its {} index is ignored", name,
                            kind.name().toLowerCase(Locale.ROOT), kind.name().toLowerCase(Locale.ROOT));
                    continue;
                }
                if (indexes.stream().anyMatch(index -> index.kind() == kind && index.type().equals(type))) {
                    continue; // two names (aliases) of one attribute type: one index serves both
                }
                if (type.isPlaceHolder()) {
                    LOG.warn("Attribute {} is not in the schema: its index compares values byte for byte", name);
                }
                String dbName = AttributeIndex.dbName(kind, lower);
                wanted.add(dbName);
                if (!storage.canWrite() && !existing.contains(dbName)) {
                    LOG.warn("Attribute {}: this replication group's master has no {} index of it; searches here walk "
                            + "the entries (configure the same indexes on every node)", name,
                            kind.name().toLowerCase(Locale.ROOT));
                    continue;
                }
                boolean ready = isReady(storage, meta, dbName);
                if (!ready && !storage.canWrite()) {
                    // A replica builds nothing: the index is the master's to build, and reaches it from there.
                    LOG.warn("Attribute {}: its {} index is not built on this replication group's master; searches "
                            + "here walk the entries until it is and this server restarts (configure the same "
                            + "indexes on every node)", name, kind.name().toLowerCase(Locale.ROOT));
                    continue;
                }
                if (!ready && existing.contains(dbName)) {
                    storage.removeDatabase(dbName); // a partial build from an interrupted run
                }
                AttributeIndex index = new AttributeIndex(kind, lower, type, storage.openDatabase(dbName, true));
                indexes.add(index);
                if (!ready) {
                    toBuild.add(index);
                }
            }
        }
        for (String dbName : existing) {
            if (storage.canWrite() && isIndexDatabase(dbName) && !wanted.contains(dbName)) {
                storage.write(txn -> meta.delete(txn, metaKey(dbName)));
                storage.removeDatabase(dbName);
                LOG.info("Removed index database {}, no longer configured", dbName);
            }
        }
        Indexes out = new Indexes(indexes, nonStrict, storage, meta, id2entry, codec);
        if (!toBuild.isEmpty()) {
            out.build(toBuild, done -> { });
        }
        return out;
    }

    /**
     * Empties the indexes of the named attributes (every kind configured for each) and builds them again from
     * id2entry (the offline rebuild-index tool). Each loses its ready marker first, so a rebuild cut short is redone
     * from scratch when the backend next opens.
     *
     * @param names configured attribute names, any case; an alias of an indexed type names its indexes
     * @return the entries indexed
     * @throws BackendException {@code UNWILLING_TO_PERFORM} naming the indexed attributes, for a name not among them
     */
    long rebuild(Set<String> names, LongConsumer progress) throws BackendException {
        List<AttributeIndex> chosen = new ArrayList<>();
        for (String name : names) {
            List<AttributeIndex> found = find(name);
            if (found.isEmpty()) {
                throw new BackendException(ResultCode.UNWILLING_TO_PERFORM, "There is no index of '" + name
                        + "' in this backend; its indexed attributes are: " + (all.isEmpty() ? "none"
                        : String.join(", ", new TreeSet<>(all.stream().map(AttributeIndex::name).toList()))));
            }
            for (AttributeIndex index : found) {
                if (!chosen.contains(index)) {
                    chosen.add(index);
                }
            }
        }
        for (AttributeIndex index : chosen) {
            storage.write(txn -> meta.delete(txn, metaKey(index.dbName())));
            index.clear(storage, REBUILD_BATCH);
        }
        return build(chosen, progress);
    }

    /** The indexes of this attribute name (its configured name, another name of its type, or its OID). */
    private List<AttributeIndex> find(String name) {
        String lower = name.toLowerCase(Locale.ROOT);
        AttributeType type = schema.getAttributeType(lower);
        List<AttributeIndex> out = new ArrayList<>();
        for (AttributeIndex index : all) {
            if (index.name().equals(lower) || index.type().equals(type)) {
                out.add(index);
            }
        }
        return out;
    }

    /** Indexes every stored entry into {@code indexes}, then marks each ready. */
    private long build(List<AttributeIndex> indexes, LongConsumer progress) throws BackendException {
        long done = rebuild(storage, id2entry, codec, indexes, schema, progress);
        for (AttributeIndex index : indexes) {
            storage.write(txn -> meta.put(txn, metaKey(index.dbName()), new DatabaseEntry(READY)));
        }
        return done;
    }

    /**
     * Whether the type has the rule an index of this kind needs. Ordering and substring indexes need a
     * declared rule: a filter on a type without one is Undefined (RFC 4511 4.5.1.7), so nothing to index.
     */
    private static boolean usable(IndexType kind, AttributeType type) {
        return switch (kind) {
            case EQUALITY -> type.getEqualityMatchingRule() != null;
            case PRESENCE -> true;
            case ORDERING -> SubstringPreparation.declares(type, "ORDERING") && type.getOrderingMatchingRule() != null;
            case SUBSTRING -> SubstringPreparation.declares(type, "SUBSTR") && type.getSubstringMatchingRule() != null;
        };
    }

    private static boolean isIndexDatabase(String dbName) {
        for (IndexType kind : IndexType.values()) {
            if (dbName.startsWith(AttributeIndex.prefix(kind))) {
                return true;
            }
        }
        return false;
    }

    /** The indexes of one kind, by attribute type OID. */
    Map<String, AttributeIndex> byOid(IndexType kind) {
        return byKind.get(kind);
    }

    /** The equality indexes, by attribute type OID. */
    Map<String, AttributeIndex> byOid() {
        return byKind.get(IndexType.EQUALITY);
    }

    /** Every index's keys for {@code entry}, in index order (as {@link #insert} expects them). */
    List<Set<ByteString>> keys(Entry entry) {
        return keys(all, allTypes, entry, schema);
    }

    private static List<Set<ByteString>> keys(List<AttributeIndex> indexes, IndexedTypes types, Entry entry,
            Schema schema) {
        List<Set<ByteString>> keys = new ArrayList<>(indexes.size());
        for (int i = 0; i < indexes.size(); i++) {
            keys.add(new KeySet());
        }
        for (Attribute attribute : entry.getAllAttributes()) {
            AttributeType type = attribute.getAttributeDescription().getAttributeType();
            if (type.isPlaceHolder()) {
                // The caller parsed the entry with a schema that lacks this type; ours may know it.
                type = schema.getAttributeType(type.getNameOrOID());
            }
            for (int i : types.positions(type)) {
                indexes.get(i).collectKeys(attribute, keys.get(i));
            }
        }
        return keys;
    }

    void insert(Transaction txn, List<Set<ByteString>> keys, long id) {
        for (int i = 0; i < all.size(); i++) {
            all.get(i).insert(txn, keys.get(i), id);
        }
    }

    /** A cursor adding records to one index, the {@code position}th of {@link #names()} (a bulk load). */
    Cursor writeCursor(Transaction txn, int position) {
        return all.get(position).writeCursor(txn);
    }

    /** The database of the {@code position}th index of {@link #names()}. */
    Database database(int position) {
        return all.get(position).database();
    }

    /** Removes {@code id} from every index, under the keys {@link #keys} gave for its entry. */
    void delete(Transaction txn, List<Set<ByteString>> keys, long id) {
        for (int i = 0; i < all.size(); i++) {
            all.get(i).delete(txn, keys.get(i), id);
        }
    }

    /**
     * Moves {@code id} from the keys of an entry's old content to those of its new content, touching only
     * the keys that differ: a modify of one attribute leaves the other indexes' records (and locks) alone.
     */
    void update(Transaction txn, List<Set<ByteString>> before, List<Set<ByteString>> after, long id) {
        for (int i = 0; i < all.size(); i++) {
            Set<ByteString> removed = new HashSet<>(before.get(i));
            removed.removeAll(after.get(i));
            Set<ByteString> added = new HashSet<>(after.get(i));
            added.removeAll(before.get(i));
            all.get(i).delete(txn, removed, id);
            all.get(i).insert(txn, added, id);
        }
    }

    /** The indexes, in the order of {@link #keys}' sets. */
    List<AttributeIndex> all() {
        return all;
    }

    /** The index names, in the order of {@link #keys}' sets. */
    List<String> names() {
        return all.stream().map(AttributeIndex::dbName).toList();
    }

    private static boolean isReady(JeStorage storage, Database meta, String dbName) throws BackendException {
        return storage.read(() -> meta.get(null, metaKey(dbName), new DatabaseEntry(), null)
                == OperationStatus.SUCCESS);
    }

    private static DatabaseEntry metaKey(String dbName) {
        return new DatabaseEntry(("index-ready:" + dbName).getBytes(StandardCharsets.UTF_8));
    }

    /** Indexes every stored entry, one transaction per batch, resuming after the last id done. */
    private static long rebuild(JeStorage storage, Database id2entry, EntryCodec codec, List<AttributeIndex> indexes,
            Schema schema, LongConsumer reportDone) throws BackendException {
        long start = System.nanoTime();
        IndexedTypes types = new IndexedTypes(indexes);
        long next = 0;
        long done = 0;
        while (next >= 0) {
            long from = next;
            long[] progress = storage.write(txn -> {
                long count = 0;
                long last = -1;
                try (Cursor cursor = id2entry.openCursor(txn, null)) {
                    DatabaseEntry key = Ids.entry(from);
                    DatabaseEntry data = new DatabaseEntry();
                    OperationStatus status = cursor.getSearchKeyRange(key, data, null);
                    while (status == OperationStatus.SUCCESS && count < REBUILD_BATCH) {
                        Entry entry = codec.decode(data.getData());
                        last = Ids.of(key);
                        List<Set<ByteString>> keys = keys(indexes, types, entry, schema);
                        for (int i = 0; i < indexes.size(); i++) {
                            indexes.get(i).insert(txn, keys.get(i), last);
                        }
                        count++;
                        status = cursor.getNext(key, data, null);
                    }
                }
                return new long[] {count, count < REBUILD_BATCH ? -1 : last + 1};
            });
            done += progress[0];
            next = progress[1];
            reportDone.accept(done);
        }
        LOG.info("Built indexes {} over {} entries in {} ms",
                indexes.stream().map(AttributeIndex::dbName).toList(), done, (System.nanoTime() - start) / 1_000_000);
        return done;
    }
}
