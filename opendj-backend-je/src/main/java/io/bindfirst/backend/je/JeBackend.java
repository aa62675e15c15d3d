package io.bindfirst.backend.je;

import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.Iterator;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.LongConsumer;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;

import org.forgerock.opendj.ldap.ByteString;
import org.forgerock.opendj.ldap.DN;
import org.forgerock.opendj.ldap.Entry;
import org.forgerock.opendj.ldap.Filter;
import org.forgerock.opendj.ldap.ResultCode;
import org.forgerock.opendj.ldap.SearchScope;
import org.forgerock.opendj.ldap.schema.Schema;

import com.sleepycat.je.Database;
import com.sleepycat.je.Transaction;

import io.bindfirst.server.backend.Backend;
import io.bindfirst.server.backend.BackendConfig;
import io.bindfirst.server.backend.BackendException;
import io.bindfirst.server.backend.BackendMaintenance;
import io.bindfirst.server.backend.BackendStatistics;
import io.bindfirst.server.backend.BackupManifest;
import io.bindfirst.server.backend.EntryChange;
import io.bindfirst.server.backend.EntryUpdate;
import io.bindfirst.server.backend.EntryVisitor;
import io.bindfirst.server.backend.PositionedEntryVisitor;
import io.bindfirst.server.backend.ImportItem;
import io.bindfirst.server.backend.ImportRejects;
import io.bindfirst.server.backend.Replication;

/**
 * A {@link Backend} on Berkeley DB JE: dn2id and id2entry ({@link Entries}) plus attribute indexes. Adds are
 * here; modify, delete and rename are in {@link Writes}. The bind path's reads
 * ({@link #getEntry(DN, Set)}) go through a {@link BindEntryCache} that those writes invalidate.
 */
final class JeBackend implements Backend, BackendMaintenance, BackendStatistics, Replication {
    /** How long replay waits for the server to follow replayed changes before it goes on without it. */
    static final int FOLLOW_WAIT_SECONDS = 60;
    private static final org.slf4j.Logger LOG_REPLICATION = org.slf4j.LoggerFactory.getLogger(JeBackend.class);
    /** Entries per import transaction: large enough to amortize the commit fsync, small enough for locks. */
    static final int IMPORT_BATCH = 2_000;
    /**
     * Batches an import prepares ahead of the one it stores. With one, the preparing thread, and the checking
     * threads feeding it, stood idle whenever the storing thread paused (sorting and spilling index runs, a
     * collection): a core unused on a two-core machine. Three keep them working through those pauses: a million
     * users imported in 15.4 s instead of 16.6 (6 pairs alternating, faster in each; 8 more pairs, 14.1 s instead
     * of 15.4, faster in 5), for a few MB of entries held.
     */
    static final int FILLS_AHEAD = 3;

    /** An entry ready to store: everything computed before its transaction begins. */
    private record Prepared<T>(T item, DN dn, byte[] key, byte[] parentKey, long id, byte[] encoded,
                               List<Set<ByteString>> indexKeys) {
    }

    /** Entries ready to store in one transaction, and the ones refused while preparing them. */
    private record Batch<T>(List<Prepared<T>> entries, List<Refused<T>> refused, boolean last) {
    }

    /** An import's entry that was not stored, and why. */
    private record Refused<T>(T item, BackendException reason) {
    }

    private final BackendConfig config;
    private final List<DN> baseDNs;
    private final JeStorage storage;
    private final DnKeys keys;
    private final EntryCodec codec;
    private final Entries entries;
    /** The most ids a bulk load keeps under one index key (see {@link LimitedKeyWriter}). */
    private final int importKeyLimit;
    /** The databases that are not indexes: a bulk load's end syncs them beside the indexes it writes. */
    private final List<Database> entryDatabases;
    private final Indexes indexes;
    private final Search search;
    private final IndexQuery query;
    private final Writes writes;
    private final AtomicLong nextId;
    private final BindEntryCache bindCache;
    /** Where replayed changes go once the server follows them ({@link #follow}); until then, replay waits. */
    private volatile Consumer<EntryChange> replayed;
    private final CountDownLatch following = new CountDownLatch(1);

    private JeBackend(BackendConfig config, Schema schema, JeStorage storage, int importKeyLimit)
            throws BackendException {
        this.config = config;
        this.importKeyLimit = importKeyLimit;
        this.storage = storage;
        this.keys = new DnKeys(schema);
        this.codec = new EntryCodec(schema);
        List<DN> canonicalBases = new ArrayList<>();
        for (DN base : config.baseDNs()) {
            canonicalBases.add(keys.canonical(base));
        }
        this.baseDNs = List.copyOf(canonicalBases);
        Database dn2id = storage.openDatabase(Entries.DN2ID, false);
        Database id2entry = storage.replicated()
                ? storage.openEntryDatabase(Entries.ID2ENTRY, new ReplayedChanges(storage::writingHere, this::replay))
                : storage.openEntryDatabase(Entries.ID2ENTRY);
        Database meta = storage.openDatabase("meta", false);
        this.entryDatabases = List.of(dn2id, id2entry, meta);
        this.entries = new Entries(dn2id, id2entry, codec);
        this.indexes = Indexes.open(storage, meta, id2entry, codec, config.indexes(), schema);
        this.query = new IndexQuery(schema, indexes, storage);
        this.search = new Search(storage, entries, keys, query);
        this.bindCache = new BindEntryCache(config.bindCacheEntries());
        this.writes = new Writes(config.id(), baseDNs, keys, codec, storage, entries, indexes, bindCache);
        this.nextId = new AtomicLong(storage.read(entries::lastId) + 1);
    }

    /** Opens the backend, closing the storage again if anything after the environment fails. */
    static JeBackend open(BackendConfig config, Schema schema) throws BackendException {
        return open(config, schema, false);
    }

    /**
     * @param cleared whether to start from an empty backend (import-ldif --clearBackend): its files are deleted
     *        before the environment opens, under the environment's lock, so no other process can be using the data
     *        removed. A cleared backend is opened for a bulk load by one thread (see {@link JeStorage}): no
     *        transactions or locks, its data written out when the import ends, and refused by ordinary opens until
     *        then
     */
    static JeBackend open(BackendConfig config, Schema schema, boolean cleared) throws BackendException {
        return open(config, schema, cleared, IndexQuery.ENTRY_LIMIT);
    }

    /** As {@link #open(BackendConfig, Schema, boolean)}; a bulk load keeps at most {@code importKeyLimit} ids a key. */
    static JeBackend open(BackendConfig config, Schema schema, boolean cleared, int importKeyLimit)
            throws BackendException {
        // The node may become the master before the backend is built: the hook reaches it once it is.
        JeBackend[] built = {null};
        JeStorage storage = new JeStorage(config.id(), config.directory(), config.cacheBytes(), cleared,
                config.freeDiskBytes(), config.replication(), () -> {
                    if (built[0] != null) {
                        built[0].becameMaster();
                    }
                });
        try {
            built[0] = new JeBackend(config, schema, storage, importKeyLimit);
            return built[0];
        } catch (BackendException | RuntimeException e) {
            storage.close();
            throw e;
        }
    }

    /**
     * This node became its group's master: entries added from now on take ids after the last one replayed here (the
     * next id was computed when the backend opened, and a replica's adds came from another master since).
     */
    private void becameMaster() {
        // Not on JE's thread, which calls this while it makes the node the master: the read may wait for a lock
        // that a transaction the old master left unfinished holds until that transition is over.
        Thread refresh = new Thread(() -> {
            try {
                refreshNextId();
            } catch (BackendException e) {
                // An add that meets an id in use refreshes it again (see addEntry).
                LOG_REPLICATION.warn("Backend {}: could not read its last entry id on becoming master", config.id(),
                        e);
            }
        }, "next-id-" + config.id());
        refresh.setDaemon(true);
        refresh.start();
    }

    private void refreshNextId() throws BackendException {
        long last = storage.read(entries::lastId);
        nextId.accumulateAndGet(last + 1, Math::max);
    }

    /**
     * Cleans the storage's log and checkpoints, so that files JE no longer needs are deleted now (for tests of what
     * a node does once the group's early log is gone; JE's own threads do this as the server runs).
     */
    void compactLog() throws BackendException {
        storage.compactLog();
    }

    /** Hands the master's part to one of {@code candidates} (node names); see {@link ReplicaNode#transferMaster}. */
    String transferMaster(Set<String> candidates, int seconds) throws BackendException {
        return storage.transferMaster(candidates, seconds);
    }

    @Override
    public Replication replication() {
        return storage.replicated() ? this : Replication.NONE;
    }

    @Override
    public Replication.Status status() {
        return storage.replicationStatus();
    }

    @Override
    public void advertise(String ldapUrl) {
        storage.replicaNode().advertise(ldapUrl);
    }

    @Override
    public String masterLdapUrl() {
        return storage.replicaNode().masterLdapUrl();
    }

    @Override
    public long lagMillis() {
        return storage.replicaNode().lagMillis();
    }

    @Override
    public void whenRestartRequired(java.util.function.Consumer<String> action) {
        storage.replicaNode().whenRestartRequired(action);
    }

    @Override
    public boolean awaitMaster(long timeoutMillis) {
        return storage.replicaNode().awaitMaster(timeoutMillis);
    }

    @Override
    public void follow(Consumer<EntryChange> sink) {
        replayed = Objects.requireNonNull(sink, "sink");
        following.countDown();
    }

    /**
     * A transaction replayed from the master committed on this node (see {@link ReplayedChanges}): each entry it
     * wrote leaves the bind cache, then goes to the server's listeners, in order. Until the server follows the
     * changes, replay waits here (a bounded time): the change is already visible, and the server may have read it
     * or not, so it is handed on once the server listens rather than dropped.
     */
    private void replay(List<ReplayedChanges.Record> records) {
        Consumer<EntryChange> sink = replayed;
        if (sink == null) {
            try {
                if (!following.await(FOLLOW_WAIT_SECONDS, TimeUnit.SECONDS)) {
                    LOG_REPLICATION.warn("Backend {}: changes replayed from the master are not followed by any "
                            + "server (an offline tool has this backend open?); replay goes on without waiting",
                            config.id());
                    following.countDown();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            sink = replayed;
        }
        for (ReplayedChanges.Record r : records) {
            Entry before = decodeQuietly(r.before());
            Entry after = decodeQuietly(r.after());
            for (Entry e : new Entry[] {before, after}) {
                if (e != null) {
                    invalidate(e.getName());
                }
            }
            if (r.beforeUnknown()) {
                bindCache.invalidateAll();
            }
            if (sink != null && (before != null || after != null)) {
                sink.accept(new EntryChange(before, after));
            }
        }
    }

    private Entry decodeQuietly(byte[] data) {
        if (data == null) {
            return null;
        }
        try {
            return codec.decode(data);
        } catch (BackendException | RuntimeException e) {
            LOG_REPLICATION.error("Backend {}: an entry replayed from the master does not decode", config.id(), e);
            return null;
        }
    }

    private void invalidate(DN dn) {
        try {
            bindCache.invalidate(keys.canonical(dn).toNormalizedByteString());
        } catch (BackendException e) {
            bindCache.invalidateAll();
        }
    }

    @Override
    public List<String> verify() throws BackendException {
        return storage.read(() -> new StorageCheck(entries, indexes, baseDNs).run());
    }

    @Override
    public List<DN> baseDNs() {
        return config.baseDNs();
    }

    @Override
    public Entry getEntry(DN dn) throws BackendException {
        byte[] key = keys.key(dn);
        return storage.read(() -> entries.entryAt(key));
    }

    @Override
    public Entry getEntry(DN dn, Set<String> attributeNames) throws BackendException {
        DN canonical = keys.canonical(dn);
        ByteString key = canonical.toNormalizedByteString();
        Entry cached = bindCache.get(key, attributeNames);
        if (cached != null) {
            return cached;
        }
        bindCache.missed();
        long seen = bindCache.generation();
        byte[] keyBytes = key.toByteArray();
        Entry read = storage.read(() -> entries.entryAt(keyBytes, canonical, attributeNames));
        return read == null ? null : bindCache.admit(key, attributeNames, read, seen);
    }

    @Override
    public Entry cachedEntry(DN dn, Set<String> attributeNames) {
        try {
            return bindCache.get(keys.canonical(dn).toNormalizedByteString(), attributeNames);
        } catch (BackendException e) {
            return null; // not a DN of this schema: getEntry will say so
        }
    }

    @Override
    public boolean entryExists(DN dn) throws BackendException {
        byte[] key = keys.key(dn);
        return storage.read(() -> entries.id(null, key) >= 0);
    }

    @Override
    public boolean hasSubordinates(DN dn) throws BackendException {
        byte[] key = keys.key(dn);
        return storage.read(() -> entries.hasChildren(null, key));
    }

    @Override
    public void search(DN base, SearchScope scope, Filter filter, EntryVisitor visitor) throws BackendException {
        search.run(base, scope, filter, null, (entry, position) -> visitor.visit(entry));
    }

    @Override
    public void search(DN base, SearchScope scope, Filter filter, ByteString after, PositionedEntryVisitor visitor)
            throws BackendException {
        search.run(base, scope, filter, after, visitor);
    }

    /** The index candidates for {@code filter}, or {@code null} if it walks (for tests of the indexes). */
    long[] candidates(Filter filter) throws BackendException {
        return query.candidates(filter);
    }

    @Override
    public boolean isUnindexed(Filter filter) {
        return !query.canUse(filter);
    }

    /**
     * Adds in one transaction. An id already in use (this node became the master and has not yet moved its next id
     * past the entries replayed here) refreshes the next id and tries again, a bounded number of times.
     */
    @Override
    public void addEntry(Entry entry) throws BackendException {
        for (int attempt = 1; ; attempt++) {
            Prepared<Entry> prepared = prepare(entry, entry);
            try {
                storage.writeConfirmed(txn -> {
                    store(txn, prepared, null);
                    return null;
                });
                return;
            } catch (JeStorage.UnconfirmedCommit e) {
                throw unconfirmed(new EntryChange(null, entry), e);
            } catch (Entries.IdInUse e) {
                if (attempt >= 3) {
                    throw new BackendException(ResultCode.BUSY, "Backend " + config.id() + " could not give the "
                            + "entry " + entry.getName() + " an id; try again", e);
                }
                refreshNextId();
            }
        }
    }

    @Override
    public EntryChange modifyEntry(DN dn, EntryUpdate update) throws BackendException {
        try {
            return writes.modify(dn, update);
        } catch (JeStorage.UnconfirmedCommit e) {
            throw unconfirmed((EntryChange) e.result(), e);
        }
    }

    @Override
    public Entry deleteEntry(DN dn, boolean subtree) throws BackendException {
        try {
            return writes.delete(dn, subtree);
        } catch (JeStorage.UnconfirmedCommit e) {
            throw unconfirmed(new EntryChange((Entry) e.result(), null), e);
        }
    }

    @Override
    public EntryChange renameEntry(DN dn, DN newDN, EntryUpdate update) throws BackendException {
        try {
            return writes.rename(dn, newDN, update);
        } catch (JeStorage.UnconfirmedCommit e) {
            throw unconfirmed((EntryChange) e.result(), e);
        }
    }

    /**
     * A client's change that stands on this master but that a majority of the group did not confirm in time: the
     * server's listeners see it at once (as a replayed change: this node's caches, registry and rules must follow
     * what it holds), and the client is answered {@code unavailable}, since a failover before the others have it
     * would lose it.
     */
    private BackendException unconfirmed(EntryChange change, JeStorage.UnconfirmedCommit e) {
        Consumer<EntryChange> sink = replayed;
        if (sink != null) {
            sink.accept(change);
        }
        return new BackendException(ResultCode.UNAVAILABLE, "The change was made on this server, but a majority of "
                + "its replication group did not confirm it in time: it stands if this server keeps running until "
                + "the others have it, and is lost if it fails before; read the entry to see", e);
    }

    /**
     * Imports in transactions of {@link #IMPORT_BATCH} entries, each committed durably before the next
     * starts. On an error, the batches already committed stay and the failing batch is rolled back. In a bulk
     * load (a backend opened cleared) nothing is rolled back: every entry stored before the error stays, with
     * its index records, and all of it is written out before the error is thrown.
     */
    @Override
    public long importEntries(Iterator<Entry> source) throws BackendException {
        Iterator<ImportItem> items = new Iterator<>() {
            @Override
            public boolean hasNext() {
                return source.hasNext();
            }

            @Override
            public ImportItem next() {
                Entry entry = source.next();
                return () -> entry;
            }
        };
        return importBatches(items, null);
    }

    /**
     * Imports as {@link #importEntries(Iterator)} does, but an entry refused for where it would go is left
     * out of its batch (it wrote nothing: the parent check and the dn2id insert come before any other write)
     * and reported to {@code rejects} once its batch has committed, so a retried batch reports it once.
     */
    @Override
    public <T extends ImportItem> long importEntries(Iterator<T> items, ImportRejects<? super T> rejects)
            throws BackendException {
        return importBatches(items, Objects.requireNonNull(rejects, "rejects"));
    }

    /**
     * The batches are filled (read from the source, encoded, their index keys computed) on a helper thread,
     * up to {@link #FILLS_AHEAD} batches ahead of the transaction that stores the one before: filling costs
     * about a third of what storing does, and an import is otherwise bound by this one thread. Only the helper
     * reads the source, in order (one batch after the other); a batch says whether the source ended with it.
     *
     * @param rejects where refused entries go, or {@code null} to stop the import at the first one
     */
    private <T extends ImportItem> long importBatches(Iterator<T> source, ImportRejects<? super T> rejects)
            throws BackendException {
        ExecutorService filler = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "import-prepare-" + config.id());
            t.setDaemon(true);
            return t;
        });
        long imported = 0;
        // A bulk load writes index records at its end, each index once in key order (see SortedIndexRuns).
        SortedIndexRuns runs = storage.bulk() ? new SortedIndexRuns(indexes, config.directory(),
                SortedIndexRuns.RUN_RECORDS, importKeyLimit) : null;
        // Entries of the batch being stored that are in place: a bulk load does not roll a failed batch back.
        long[] storing = {0};
        try {
            Deque<Future<Batch<T>>> ahead = new ArrayDeque<>();
            for (int i = 0; i < FILLS_AHEAD; i++) {
                ahead.add(filler.submit(() -> fill(source, rejects)));
            }
            boolean last = false;
            while (!last) {
                Batch<T> batch = filled(ahead.remove());
                last = batch.last();
                if (!last) {
                    ahead.add(filler.submit(() -> fill(source, rejects)));
                }
                List<Refused<T>> refused = batch.refused();
                int preparedRefusals = refused.size();
                imported += storage.write(txn -> {
                    refused.subList(preparedRefusals, refused.size()).clear(); // from an attempt retried
                    byte[][] lastParent = {null}; // siblings usually follow each other: check their parent once
                    long count = 0;
                    storing[0] = 0;
                    try (Entries.Inserter inserter = entries.inserter(txn)) {
                        for (Prepared<T> prepared : batch.entries()) {
                            try {
                                store(txn, prepared, lastParent, runs, inserter);
                                storing[0] = ++count;
                            } catch (BackendException e) {
                                if (rejects == null || !BackendMaintenance.isEntryRefusal(e)) {
                                    throw e;
                                }
                                refused.add(new Refused<>(prepared.item(), e));
                            }
                        }
                    }
                    return count;
                });
                storing[0] = 0;
                if (rejects != null) {
                    refused.forEach(r -> rejects.rejected(r.item(), r.reason()));
                }
                if (runs != null && runs.full()) {
                    spill(runs);
                }
            }
            if (runs != null) {
                writeRuns(runs);
                storage.writeOutBulkLoad(); // done means on disk, not waiting for the close
            }
        } catch (BackendException e) {
            writeRunsAfter(runs, e);
            long kept = imported + (storage.bulk() ? storing[0] : 0);
            throw new BackendException(e.resultCode(), "Import stopped after " + kept + (storage.damaged()
                    ? " entries (the backend will not open until an import with --clearBackend finishes): "
                    : " entries (those were kept): ") + e.getMessage(), e);
        } catch (RuntimeException | Error e) {
            writeRunsAfter(runs, e);
            throw e;
        } finally {
            filler.shutdownNow();
        }
        return imported;
    }

    private void writeRuns(SortedIndexRuns runs) throws BackendException {
        new BulkWriteOut(storage, indexes, entryDatabases, Runtime.getRuntime().availableProcessors()).run(runs);
    }

    /** Spills a full run, as a write: a failure leaves the load damaged (its entries would lack index records). */
    private void spill(SortedIndexRuns runs) throws BackendException {
        storage.write(txn -> {
            runs.spill();
            return null;
        });
    }

    /**
     * Writes the runs held when an import stops on {@code failure}, and writes the load out: the entries stored so
     * far stay, so their index records must go in too. Not after a failed write (the load is damaged: it will not
     * be opened).
     */
    private void writeRunsAfter(SortedIndexRuns runs, Throwable failure) {
        if (runs == null || storage.damaged()) {
            return;
        }
        try {
            writeRuns(runs);
            storage.writeOutBulkLoad();
        } catch (BackendException | RuntimeException e) {
            failure.addSuppressed(e); // the write failed: storage.damaged() now holds, so the marker stays
        }
    }

    /** Up to {@link #IMPORT_BATCH} entries from {@code source}, prepared, and those refused on the way. */
    private <T extends ImportItem> Batch<T> fill(Iterator<T> source, ImportRejects<? super T> rejects)
            throws BackendException {
        List<Prepared<T>> prepared = new ArrayList<>(IMPORT_BATCH);
        List<Refused<T>> refused = new ArrayList<>();
        while (prepared.size() < IMPORT_BATCH && source.hasNext()) {
            T item = source.next();
            try {
                prepared.add(prepare(item.entry(), item));
            } catch (BackendException e) {
                if (rejects == null || !BackendMaintenance.isEntryRefusal(e)) {
                    throw e;
                }
                refused.add(new Refused<>(item, e));
            }
        }
        return new Batch<>(prepared, refused, !source.hasNext());
    }

    /** The batch the helper filled, or what it threw (the source's own unchecked exceptions included). */
    private static <T> Batch<T> filled(Future<Batch<T>> future) throws BackendException {
        try {
            return future.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new BackendException(ResultCode.OTHER, "The import was interrupted", e);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof BackendException be) {
                throw be;
            }
            if (e.getCause() instanceof RuntimeException re) {
                throw re;
            }
            if (e.getCause() instanceof Error error) {
                throw error;
            }
            throw new BackendException(ResultCode.OTHER, "The import failed: " + e.getCause(), e.getCause());
        }
    }

    /** The JE storage serves the tools itself. */
    @Override
    public BackendMaintenance maintenance() {
        return this;
    }

    /** Its bind entry cache's figures. */
    @Override
    public BackendStatistics statistics() {
        return this;
    }

    @Override
    public long bindCacheEntries() {
        return bindCache.size();
    }

    @Override
    public long rebuildIndexes(Set<String> names, LongConsumer progress) throws BackendException {
        return indexes.rebuild(names, progress);
    }

    @Override
    public long bindCacheHits() {
        return bindCache.hits();
    }

    @Override
    public long bindCacheMisses() {
        return bindCache.misses();
    }

    @Override
    public BackupManifest backup(Path dir) throws BackendException {
        return storage.backup(dir);
    }

    @Override
    public long entryCount() throws BackendException {
        return storage.read(entries::count);
    }

    @Override
    public void close() {
        storage.close();
    }

    /** Checks what can be checked without storage and computes the keys and bytes to write. */
    private <T> Prepared<T> prepare(Entry entry, T item) throws BackendException {
        storage.ensureOpen();
        DN dn = keys.canonical(entry.getName());
        byte[] parentKey = null;
        if (!baseDNs.contains(dn)) {
            if (baseDNs.stream().noneMatch(dn::isSubordinateOrEqualTo)) {
                throw new BackendException(ResultCode.NO_SUCH_OBJECT, "The entry " + entry.getName()
                        + " cannot be added because it is not under a base DN of backend " + config.id());
            }
            parentKey = DnKeys.keyOfCanonical(dn.parent());
        }
        return new Prepared<>(item, entry.getName(), DnKeys.keyOfCanonical(dn), parentKey, nextId.getAndIncrement(),
                codec.encode(entry), indexes.keys(entry));
    }

    /**
     * Writes one prepared entry in {@code txn}: parent check, dn2id, id2entry, indexes.
     *
     * @param lastParent a one-slot cache of the last parent found in this transaction, or {@code null}
     */
    private void store(Transaction txn, Prepared<?> p, byte[][] lastParent) throws BackendException {
        store(txn, p, lastParent, null, null);
    }

    /**
     * As {@link #store(Transaction, Prepared, byte[][])}, the index records held in {@code runs} if not null, the
     * entry inserted through {@code inserter} if not null.
     */
    private void store(Transaction txn, Prepared<?> p, byte[][] lastParent, SortedIndexRuns runs,
            Entries.Inserter inserter) throws BackendException {
        if (p.parentKey() != null && !(lastParent != null && Arrays.equals(lastParent[0], p.parentKey()))) {
            if (entries.id(txn, p.parentKey()) < 0) {
                throw new BackendException(ResultCode.NO_SUCH_OBJECT, "The entry " + p.dn()
                        + " cannot be added because its parent entry " + p.dn().parent() + " does not exist");
            }
            if (lastParent != null) {
                lastParent[0] = p.parentKey();
            }
        }
        boolean inserted = inserter != null ? inserter.insert(p.key(), p.id(), p.encoded())
                : entries.insert(txn, p.key(), p.id(), p.encoded());
        if (!inserted) {
            throw new BackendException(ResultCode.ENTRY_ALREADY_EXISTS, "The entry " + p.dn() + " already exists");
        }
        if (runs != null) {
            runs.add(p.indexKeys(), p.id());
        } else {
            indexes.insert(txn, p.indexKeys(), p.id());
        }
    }
}
