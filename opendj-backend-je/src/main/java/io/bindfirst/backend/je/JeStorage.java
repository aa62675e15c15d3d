package io.bindfirst.backend.je;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import org.forgerock.opendj.ldap.ResultCode;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import com.sleepycat.je.CacheMode;
import com.sleepycat.je.Database;
import com.sleepycat.je.DatabaseConfig;
import com.sleepycat.je.DatabaseException;
import com.sleepycat.je.DiskLimitException;
import com.sleepycat.je.Durability;
import com.sleepycat.je.Environment;
import com.sleepycat.je.EnvironmentConfig;
import com.sleepycat.je.EnvironmentLockedException;
import com.sleepycat.je.LockConflictException;
import com.sleepycat.je.Transaction;
import com.sleepycat.je.TransactionConfig;
import com.sleepycat.je.DatabaseNotFoundException;
import com.sleepycat.je.dbi.DbEnvPool;
import com.sleepycat.je.rep.InsufficientAcksException;
import com.sleepycat.je.rep.InsufficientLogException;
import com.sleepycat.je.rep.ReplicaConsistencyException;
import com.sleepycat.je.util.DbBackup;

import io.bindfirst.server.backend.BackendConfig;
import io.bindfirst.server.backend.BackendException;
import io.bindfirst.server.backend.BackendMaintenance;
import io.bindfirst.server.backend.BackupManifest;
import io.bindfirst.server.backend.Replication;
import io.bindfirst.server.backend.ReplicationSettings;

/**
 * The JE environment of one backend and the single place where JE work is run: {@link #write} and
 * {@link #read} retry lock conflicts and deadlocks and turn every JE exception into a
 * {@link BackendException} that carries the JE exception only as its cause.
 *
 * <p>Opened for a bulk load ({@code import-ldif --clearBackend}), the environment has no transactions and no
 * locks, and its databases are deferred-write: they reach the disk when the import ends
 * ({@link #writeOutBulkLoad()}) or at {@link #close()}, not record by record. That is safe only because the loading
 * process owns the environment (its lock file keeps every other process out) and stores entries from one thread
 * (at the end, each index is written and each database synced by one thread of its own: {@link BulkWriteOut}). Until
 * everything is written, a marker file in the directory says the load is unfinished, and an ordinary open refuses
 * the environment: a load cut short by a crash or a kill is never served half-done, and the next
 * {@code --clearBackend} import starts it again.
 *
 * <p>A full disk: JE keeps {@code freeDiskBytes} free on the volume ({@link EnvironmentConfig#FREE_DISK}) by refusing
 * writes below it ({@link DiskLimitException}, before anything is written), which clears by itself once space is
 * freed; such a write is refused with {@code unavailable} and the environment stays valid, reads go on. If the disk
 * fills anyway (space taken faster than JE checks it), a log write fails and JE invalidates the environment: then
 * every operation is refused, saying the server must be restarted.
 */
final class JeStorage implements AutoCloseable {
    /** Work done inside one transaction; run again from the start if it hits a lock conflict. */
    @FunctionalInterface
    interface TxnWork<T> {
        T run(Transaction txn) throws BackendException;
    }

    /** Work done without a transaction (each read commits on its own); also retried on conflicts. */
    @FunctionalInterface
    interface ReadWork<T> {
        T run() throws BackendException;
    }

    static final long DEFAULT_CACHE_BYTES = 64L << 20;
    /** Present in the directory while a bulk load has not been written out completely. */
    static final String LOAD_MARKER = "bulk-load-unfinished";
    /** The file whose lock JE holds while the environment is open (its log files are the {@code *.jdb}). */
    private static final String JE_LOCK_FILE = "je.lck";
    /** JE refuses caches below about 96 KiB; a few MiB is the least that performs at all. */
    private static final long MIN_CACHE_BYTES = 4L << 20;
    private static final int MAX_ATTEMPTS = 10;
    private static final Logger LOG = LoggerFactory.getLogger(JeStorage.class);

    /** How long a replica waits for a database the master has not yet created to reach it. */
    private static final long DATABASE_WAIT_MILLIS = 60_000;

    private final String backendId;
    private final Environment env;
    private final TransactionConfig txnConfig;
    /** This node of a replication group, or {@code null} for storage of its own. */
    private final ReplicaNode replica;
    /** Set on a thread while it writes through {@link #write}: the replay trigger passes such writes over. */
    private final ThreadLocal<Boolean> writing = new ThreadLocal<>();
    private final List<Database> databases = new CopyOnWriteArrayList<>();
    private final Path marker;
    private final boolean bulk;
    /** A bulk load's write failed part way: what is stored may be half an entry, so the marker stays. */
    private volatile boolean damaged;
    /** The marker is on disk: from before a bulk load's first write until everything it wrote is. */
    private volatile boolean marked;
    private volatile boolean open = true;
    /** Writes are being refused for lack of disk space: logged once when it starts and once when it ends. */
    private final AtomicBoolean diskFull = new AtomicBoolean();
    /** The environment was invalidated: its cause is logged (with JE's trace) once. */
    private final AtomicBoolean failureLogged = new AtomicBoolean();
    private final long freeDiskBytes;

    JeStorage(String backendId, Path directory, long cacheBytes) throws BackendException {
        this(backendId, directory, cacheBytes, false, BackendConfig.DEFAULT_FREE_DISK_BYTES);
    }

    /** Storage of its own (not replicated); see the full constructor. */
    JeStorage(String backendId, Path directory, long cacheBytes, boolean bulk, long freeDiskBytes)
            throws BackendException {
        this(backendId, directory, cacheBytes, bulk, freeDiskBytes, null, () -> { });
    }

    /**
     * @param bulk whether to open it for a bulk load by this process alone (see the class comment)
     * @param freeDiskBytes the free space to keep on the disk: writes are refused below it
     * @param replication the replication group to join, or {@code null} for storage of its own
     * @param becameMaster run each time this node becomes its group's master
     */
    JeStorage(String backendId, Path directory, long cacheBytes, boolean bulk, long freeDiskBytes,
              ReplicationSettings replication, Runnable becameMaster) throws BackendException {
        this.backendId = backendId;
        this.bulk = bulk;
        this.freeDiskBytes = freeDiskBytes;
        this.marker = directory.resolve(LOAD_MARKER);
        if (bulk && replication != null) {
            throw new BackendException(ResultCode.UNWILLING_TO_PERFORM, "Backend " + backendId + " is replicated: "
                    + "an import that clears it runs on a copy without ds-cfg-replication-* settings, and the other "
                    + "nodes then join that node empty (see docs/REPLICATION.md)");
        }
        this.replica = replication == null ? null : new ReplicaNode(backendId, replication, becameMaster);
        this.txnConfig = new TransactionConfig().setDurability(replica == null ? Durability.COMMIT_SYNC
                : ReplicaNode.durability());
        try {
            Files.createDirectories(directory);
        } catch (IOException e) {
            throw new BackendException(ResultCode.UNAVAILABLE,
                    "Backend " + backendId + " cannot create its directory " + directory, e);
        }
        if (bulk) {
            clearForLoad(directory);
        }
        EnvironmentConfig config = new EnvironmentConfig().setAllowCreate(true);
        if (bulk) {
            config.setTransactional(false).setLocking(false);
            // Checkpoints would write the same growing trees again and again; close() writes them once.
            config.setConfigParam(EnvironmentConfig.ENV_RUN_CHECKPOINTER, "false");
        } else {
            // Short waits: a conflict is retried by write()/read() rather than waited out.
            config.setTransactional(true).setLockTimeout(1, TimeUnit.SECONDS);
            // An acknowledged write must survive kill -9: fsync the log on every commit.
            config.setDurability(Durability.COMMIT_SYNC);
        }
        config.setConfigParam(EnvironmentConfig.FREE_DISK, Long.toString(freeDiskBytes));
        config.setCacheSize(cacheBytes > 0 ? Math.max(cacheBytes, MIN_CACHE_BYTES) : DEFAULT_CACHE_BYTES);
        try {
            env = replica == null ? new Environment(directory.toFile(), config)
                    : replica.open(directory.toFile(), config);
        } catch (EnvironmentLockedException e) {
            throw busy(directory, e);
        } catch (InsufficientLogException e) {
            throw new BackendException(ResultCode.UNAVAILABLE, "Backend " + backendId + ": this node is too far "
                    + "behind its replication group to catch up from the other nodes' logs; empty " + directory
                    + " and start it again to take a full copy from them", e);
        } catch (ReplicaConsistencyException e) {
            throw new BackendException(ResultCode.UNAVAILABLE, "Backend " + backendId + ": this node did not catch "
                    + "up with its replication group's master within " + ReplicaNode.CATCH_UP_SECONDS
                    + " s; check that the master is reachable at its replication address, then start it again", e);
        } catch (DatabaseException | IllegalArgumentException e) {
            throw new BackendException(ResultCode.UNAVAILABLE,
                    "Backend " + backendId + " cannot open its storage in " + directory, e);
        }
        if (replica != null) {
            replica.awaitCatchUp(ReplicaNode.CATCH_UP_SECONDS * 1000L);
        }
        // Only now, holding the environment's lock: a process that lost the race for it has said "busy" above.
        try {
            if (!bulk && Files.exists(marker)) {
                throw new BackendException(ResultCode.UNAVAILABLE, "Backend " + backendId + ": an import into "
                        + directory + " (import-ldif --clearBackend) stopped before it finished, so its data are "
                        + "incomplete; run that import again (or restore a backup)");
            }
        } catch (BackendException e) {
            closeQuietly();
            throw e;
        }
    }

    /**
     * Empties the directory for a bulk load before its environment opens: marks the load unfinished, then deletes
     * JE's log files, which hold every database. Removing the databases through JE instead left their records in
     * the log: JE's extinction scan read them all back during the load (a re-import of a million users took 2-5 s
     * more CPU) and their files stayed until a server's cleaner came round (each re-import added 556 MB). Done
     * holding JE's lock file exclusively, as an open of the environment holds it, so no other process has the
     * environment open meanwhile; one that opens it after the files go and before this load's own open finds it
     * empty and marked unfinished, and this load is then refused as busy. An environment this process has open is
     * asked of JE first, and the lock file left alone: closing a second channel to it would drop the lock JE holds
     * (the system keeps one set of locks per process and file), letting another process in beside JE.
     */
    private void clearForLoad(Path directory) throws BackendException {
        if (DbEnvPool.getInstance().isOpen(directory.toFile())) {
            throw busy(directory, null);
        }
        try (FileChannel lockFile = FileChannel.open(directory.resolve(JE_LOCK_FILE), StandardOpenOption.CREATE,
                StandardOpenOption.WRITE)) {
            FileLock lock;
            try {
                lock = lockFile.tryLock();
            } catch (OverlappingFileLockException e) {
                lock = null; // this process opened the environment since JE was asked
            }
            if (lock == null) {
                throw busy(directory, null);
            }
            markUnfinished();
            try (DirectoryStream<Path> logs = Files.newDirectoryStream(directory, "*.jdb")) {
                for (Path log : logs) {
                    Files.delete(log);
                }
            }
            force(directory);
        } catch (IOException e) {
            throw new BackendException(ResultCode.UNAVAILABLE, "Backend " + backendId + " cannot empty its database "
                    + "directory " + directory + " for the import: " + e.getMessage(), e);
        }
    }

    /** BUSY, not UNAVAILABLE: restore tells "another process has it" from "it does not open" by the code. */
    private BackendException busy(Path directory, Exception cause) {
        return new BackendException(ResultCode.BUSY, "Backend " + backendId + ": its database directory " + directory
                + " is in use by another process (a running server, or import-ldif or export-ldif): stop that process "
                + "first", cause);
    }

    /** Writes the marker and makes it durable before the load changes anything. */
    private void markUnfinished() throws BackendException {
        Path directory = marker.getParent();
        try {
            Files.write(marker, ("A bulk load into this environment has not finished; the server will not open it "
                    + "until import-ldif --clearBackend runs to the end.\n").getBytes(StandardCharsets.UTF_8));
            force(marker);
            force(directory);
            marked = true;
        } catch (IOException e) {
            throw new BackendException(ResultCode.UNAVAILABLE, "Backend " + backendId + " cannot write " + marker
                    + ": " + e.getMessage(), e);
        }
    }

    private static void force(Path path) throws IOException {
        try (FileChannel channel = FileChannel.open(path, StandardOpenOption.READ)) {
            channel.force(true);
        }
    }

    /** Whether this environment was opened for a bulk load. */
    boolean bulk() {
        return bulk;
    }

    /** Whether this environment is a bulk load whose data will not be written out: see {@link #bulkWrite}. */
    boolean damaged() {
        return damaged;
    }

    /**
     * Opens (creating if missing) a database, closed again by {@link #close()}: transactional, or deferred-write
     * in a bulk load (the property is not kept: the next ordinary open makes it transactional).
     */
    Database openDatabase(String name, boolean sortedDuplicates) throws BackendException {
        return open(name, config(sortedDuplicates));
    }

    /**
     * Opens the database of the entries themselves, as {@link #openDatabase}, except that in a bulk load each
     * record goes to the log as it is stored and its data leave the cache at once (JE's {@code EVICT_LN}). A load
     * never reads an entry back, and kept in the cache until the write-out, a million entries held about 0.3 GB more
     * of the import's heap (1.8 against 1.5 GB resident) for no gain in time: the same bytes are logged either way.
     */
    Database openEntryDatabase(String name) throws BackendException {
        DatabaseConfig config = config(false);
        if (bulk) {
            config.setCacheMode(CacheMode.EVICT_LN);
        }
        return open(name, config);
    }

    /**
     * Every database keys its tree nodes by a common prefix and the rest of each key (JE's key prefixing, which the
     * indexes' sorted duplicates imply and JE recommends for all): dn2id's keys are DNs from the suffix down, so the
     * keys of a node share most of their bytes. A bulk load of a million users with it on dn2id and id2entry: peak
     * resident memory 0.06-0.11 GB less in each of 6 rounds alternating, the database 667 MB instead of 713, the time
     * lower in 4 of the 6 (medians 25.8 -> 24.4 s, on a busy machine). The setting is kept with each database and
     * may change: a database made without it gets it at its next open, and its nodes take the new form as they are
     * written again.
     */
    private DatabaseConfig config(boolean sortedDuplicates) {
        return new DatabaseConfig()
                .setAllowCreate(true)
                .setTransactional(!bulk)
                .setDeferredWrite(bulk)
                .setKeyPrefixing(true)
                .setSortedDuplicates(sortedDuplicates);
    }

    private Database open(String name, DatabaseConfig config) throws BackendException {
        Database db = canWrite() ? read(() -> env.openDatabase(null, name, config)) : openReplicated(name, config);
        databases.add(db);
        return db;
    }

    /**
     * Opens a database on a node that is not the master: it cannot create one, so it waits (a bounded time) for
     * the master's creation of it to be replayed here, as on a node joining a new group.
     */
    private Database openReplicated(String name, DatabaseConfig config) throws BackendException {
        DatabaseConfig existing = config.clone().setAllowCreate(false);
        long deadline = System.currentTimeMillis() + DATABASE_WAIT_MILLIS;
        while (true) {
            Database db = read(() -> {
                try {
                    return env.openDatabase(null, name, existing);
                } catch (DatabaseNotFoundException e) {
                    return null;
                }
            });
            if (db != null) {
                return db;
            }
            if (System.currentTimeMillis() > deadline) {
                throw new BackendException(ResultCode.UNAVAILABLE, "Backend " + backendId + ": its database " + name
                        + " has not reached this replica from the master in " + DATABASE_WAIT_MILLIS / 1000
                        + " s; is the master running?");
            }
            try {
                Thread.sleep(100);
            } catch (InterruptedException ie) {
                Thread.currentThread().interrupt();
                throw new BackendException(ResultCode.OTHER, "Backend " + backendId + ": open interrupted", ie);
            }
        }
    }

    /** Whether this node can write now: storage of its own, or the master of its group. */
    boolean canWrite() {
        return replica == null || replica.isMaster();
    }

    /**
     * Runs JE's log cleaner until it finds nothing to clean, then a forced checkpoint, after which the files it
     * cleaned can go (as far as replication and the disk limits let them).
     */
    void compactLog() throws BackendException {
        read(() -> {
            while (env.cleanLog() > 0) {
                // each pass cleans some files; the next may find more
            }
            env.checkpoint(new com.sleepycat.je.CheckpointConfig().setForce(true));
            return null;
        });
    }

    /** See {@link ReplicaNode#transferMaster}. */
    String transferMaster(Set<String> candidates, int seconds) throws BackendException {
        if (replica == null) {
            throw new BackendException(ResultCode.UNWILLING_TO_PERFORM, "Backend " + backendId + " is not replicated");
        }
        return read(() -> replica.transferMaster(candidates, seconds));
    }

    /** This storage's node of its replication group, or {@code null} if it is not replicated. */
    ReplicaNode replicaNode() {
        return replica;
    }

    /** Whether this storage is a node of a replication group. */
    boolean replicated() {
        return replica != null;
    }

    /** Where this node stands in its group; {@link Replication.Role#STANDALONE} for storage of its own. */
    Replication.Status replicationStatus() {
        return replica == null ? Replication.NONE.status() : replica.status();
    }

    /** Whether the calling thread is inside {@link #write} (a write of this node's own, not a replayed one). */
    boolean writingHere() {
        return writing.get() != null;
    }

    /**
     * Opens the entries' database with {@code trigger} on it, which JE then calls for every change to it, replayed
     * or made here (see {@link ReplayedChanges}).
     */
    Database openEntryDatabase(String name, ReplayedChanges trigger) throws BackendException {
        DatabaseConfig config = config(false);
        config.setTriggers(List.of(trigger));
        return open(name, config);
    }

    List<String> databaseNames() throws BackendException {
        return read(env::getDatabaseNames);
    }

    /** Removes a database that is not open. */
    void removeDatabase(String name) throws BackendException {
        write(txn -> {
            env.removeDatabase(txn, name);
            return null;
        });
    }

    /**
     * A client's write that this node committed but a majority of its replication group did not confirm in time
     * ({@link #writeConfirmed}): the change stands here, with what the work returned.
     */
    static final class UnconfirmedCommit extends RuntimeException {
        private static final long serialVersionUID = 1L;
        private final transient Object result;

        UnconfirmedCommit(Object result, InsufficientAcksException cause) {
            super(cause.getMessage(), cause, false, false);
            this.result = result;
        }

        Object result() {
            return result;
        }
    }

    /**
     * Runs {@code work} in a transaction and commits it durably; retries the whole work on a lock
     * conflict or deadlock (after aborting), a bounded number of times with a short random backoff. In a
     * replication group, a commit that a majority did not confirm in time stands on this node and is taken as
     * done, with a warning (the server's own upkeep: index states, an import's batches).
     */
    <T> T write(TxnWork<T> work) throws BackendException {
        return write(work, false);
    }

    /**
     * As {@link #write}, for a write a client waits for: a commit that a majority of the replication group did not
     * confirm in time throws {@link UnconfirmedCommit} (with what the work returned), so that the client is not
     * told a change is safe that a failover could still lose.
     */
    <T> T writeConfirmed(TxnWork<T> work) throws BackendException {
        return write(work, true);
    }

    private <T> T write(TxnWork<T> work, boolean confirmed) throws BackendException {
        if (bulk) {
            return bulkWrite(work);
        }
        for (int attempt = 1; ; attempt++) {
            ensureOpen();
            Transaction txn = null;
            // Only the outermost write marks and unmarks the thread: one nested in another must not unmark it.
            boolean marks = replica != null && writing.get() == null;
            if (marks) {
                writing.set(Boolean.TRUE);
            }
            try {
                txn = env.beginTransaction(null, txnConfig);
                T result = work.run(txn);
                InsufficientAcksException unconfirmed = commit(txn);
                txn = null;
                if (unconfirmed != null && confirmed) {
                    throw new UnconfirmedCommit(result, unconfirmed);
                }
                if (diskFull.compareAndSet(true, false)) {
                    LOG.warn("Backend {}: there is disk space again, writes are accepted", backendId);
                }
                return result;
            } catch (LockConflictException e) {
                abort(txn); // release our locks before sleeping, so the other party can finish
                txn = null;
                backoff(attempt, e);
            } catch (DatabaseException | IllegalStateException | IllegalArgumentException e) {
                throw storageError(e);
            } finally {
                abort(txn);
                if (marks) {
                    writing.remove();
                }
            }
        }
    }

    /**
     * Commits; in a replication group, waits for a majority of its nodes to have the change. JE raises
     * {@link InsufficientAcksException} once the transaction is committed here but not confirmed by enough nodes
     * within its timeout: the change stands on this node and reaches the others as they catch up, unless this node
     * fails first. Returns that exception, or {@code null} once confirmed.
     */
    private InsufficientAcksException commit(Transaction txn) {
        try {
            txn.commit();
            return null;
        } catch (InsufficientAcksException e) {
            LOG.warn("Backend {}: a write committed on this master was not confirmed by a majority of replication "
                    + "group nodes in time; it reaches them as they catch up, unless this node fails first: {}",
                    backendId, e.getMessage());
            return e;
        }
    }

    /**
     * A bulk load's write: no transaction (the work gets {@code null}), nothing to retry (no locks) and nothing
     * to roll back, so a failure part way through the work leaves the load {@link #damaged}. Work that refuses
     * an entry must do so before it writes any of it, as the import's parent and DN checks do.
     */
    private <T> T bulkWrite(TxnWork<T> work) throws BackendException {
        ensureOpen();
        if (!marked) {
            markUnfinished(); // more writes after a write-out: unfinished again
        }
        try {
            return work.run(null);
        } catch (DatabaseException | IllegalStateException | IllegalArgumentException e) {
            damaged = true;
            throw storageError(e);
        } catch (BackendException e) {
            damaged |= !BackendMaintenance.isEntryRefusal(e); // a refusal comes before the entry's first write
            throw e;
        } catch (RuntimeException | Error e) {
            damaged = true;
            throw e;
        }
    }

    /** Runs read-only {@code work} outside any transaction, retrying it on lock conflicts. */
    <T> T read(ReadWork<T> work) throws BackendException {
        for (int attempt = 1; ; attempt++) {
            ensureOpen();
            try {
                return work.run();
            } catch (LockConflictException e) {
                backoff(attempt, e);
            } catch (DatabaseException | IllegalStateException | IllegalArgumentException e) {
                throw storageError(e);
            }
        }
    }

    void ensureOpen() throws BackendException {
        if (!open) {
            throw new BackendException(ResultCode.UNAVAILABLE, "Backend " + backendId + " is closed");
        }
        if (!env.isValid()) {
            throw failed(null);
        }
    }

    private void backoff(int attempt, LockConflictException e) throws BackendException {
        if (attempt >= MAX_ATTEMPTS) {
            throw new BackendException(ResultCode.BUSY,
                    "Backend " + backendId + " is too busy to complete the operation; try again", e);
        }
        try {
            Thread.sleep(ThreadLocalRandom.current().nextLong(1, 1L + 5L * attempt));
        } catch (InterruptedException ie) {
            Thread.currentThread().interrupt();
            throw new BackendException(ResultCode.OTHER, "Backend " + backendId + ": operation interrupted", ie);
        }
    }

    private BackendException storageError(RuntimeException e) {
        if (!open) {
            return new BackendException(ResultCode.UNAVAILABLE, "Backend " + backendId + " is closed", e);
        }
        if (e instanceof DiskLimitException) {
            if (diskFull.compareAndSet(false, true)) {
                LOG.warn("Backend {}: writes are refused until more than {} MB is free on the disk holding {} "
                        + "(ds-cfg-disk-full-threshold-mb); reads go on, and writes resume without a restart "
                        + "once space is freed. JE says: {}", backendId, freeDiskBytes >> 20, env.getHome(),
                        e.getMessage());
            }
            return new BackendException(ResultCode.UNAVAILABLE, "The disk holding backend " + backendId
                    + " is full: writes are refused until an administrator frees space on it; reads go on", e);
        }
        if (!env.isValid()) {
            return failed(e);
        }
        BackendException refused = replica == null ? null : replica.refusal(e);
        if (refused != null) {
            return refused;
        }
        LOG.error("Storage error in backend {}", backendId, e);
        return new BackendException(ResultCode.OTHER, "Storage error in backend " + backendId, e);
    }

    /**
     * JE invalidated the environment (a log write failed, often for a full disk): nothing more can be read or
     * written through it, and only a new one (a restart) recovers what was committed.
     */
    private BackendException failed(RuntimeException e) {
        if (replica != null
                && env.getInvalidatingException() instanceof com.sleepycat.je.rep.RestartRequiredException) {
            replica.restartIfRequired(); // the server opens everything again (ReplicaNode says why)
            return new BackendException(ResultCode.UNAVAILABLE, "Backend " + backendId + " is opening its storage "
                    + "again to follow its replication group: try again in a moment", e);
        }
        if (failureLogged.compareAndSet(false, true)) {
            LOG.error("Backend {}: its storage in {} failed and refuses every operation; free disk space if the "
                    + "disk is full, then restart the server", backendId, env.getHome(), e);
        }
        return new BackendException(ResultCode.UNAVAILABLE, "Backend " + backendId + " failed to write to its disk "
                + "(is it full?) and refuses every operation until the server is restarted", e);
    }

    private void abort(Transaction txn) {
        // A failed environment cannot log the abort; the next start's recovery drops what was not committed, and
        // the failure itself has been logged once already.
        if (txn != null && env.isValid()) {
            try {
                txn.abort();
            } catch (DatabaseException | IllegalStateException e) {
                LOG.warn("Backend {}: could not abort a transaction", backendId, e);
            }
        }
    }

    /**
     * Copies the log files of a consistent state into the empty directory {@code dir} with JE's hot backup
     * ({@link DbBackup}): writes go on meanwhile, into log files the backup set does not include, and JE
     * deletes none of the set's files until the backup ends. The state is that of the moment the backup
     * started: every transaction committed before it, nothing after. Then the manifest, last.
     * Synchronized with {@link #close()}: the environment must not close under a backup, and one backup at a
     * time is enough.
     */
    synchronized BackupManifest backup(Path dir) throws BackendException {
        ensureOpen();
        BackupManifest.prepareTarget(dir);
        Path home = env.getHome().toPath();
        DbBackup backup;
        String[] files;
        try {
            backup = new DbBackup(env);
            backup.startBackup();
        } catch (DatabaseException | IllegalStateException e) {
            throw storageError(e);
        }
        try {
            files = backup.getLogFilesInBackupSet();
            for (String name : files) {
                Files.copy(home.resolve(name), dir.resolve(name));
            }
        } catch (IOException e) {
            throw new BackendException(ResultCode.OTHER, "Backend " + backendId + ": cannot copy its files to "
                    + dir + ": " + e.getMessage(), e);
        } catch (DatabaseException | IllegalStateException e) {
            throw storageError(e);
        } finally {
            try {
                backup.endBackup();
            } catch (DatabaseException | IllegalStateException e) {
                LOG.warn("Backend {}: could not end the backup", backendId, e);
            }
        }
        return BackupManifest.write(dir, backendId, Arrays.asList(files));
    }

    /**
     * Closes every database opened here, then the environment (which checkpoints). Idempotent. A bulk load not
     * yet written out is written out first; the marker goes only once all of it is on disk.
     */
    @Override
    public synchronized void close() {
        if (!open) {
            return;
        }
        open = false;
        if (bulk && !damaged && marked) {
            writeOut();
        }
        closeQuietly();
        if (marked) {
            LOG.warn("Backend {}: the import did not finish writing; the backend stays closed to the server until "
                    + "import-ldif --clearBackend runs again", backendId);
        }
    }

    /**
     * Writes out a bulk load's databases and syncs the log, so that what it stored survives a crash and the
     * import can say it is done before its backend closes (which then has nothing left to write); the marker goes.
     * A failure, or a load damaged before, leaves the marker. A later write puts it back.
     */
    synchronized void writeOutBulkLoad() throws BackendException {
        ensureOpen();
        if (bulk && (damaged || !writeOut())) {
            throw new BackendException(ResultCode.OTHER, "Backend " + backendId + " cannot write out the imported "
                    + "data: it will not open until an import with --clearBackend runs to the end");
        }
    }

    /**
     * Writes out one database of a bulk load, from any thread: the end of a load syncs its databases side by side
     * ({@link BulkWriteOut}), and {@link #writeOutBulkLoad} then finds them clean. A failure damages the load.
     */
    void writeOutDatabase(Database db) throws BackendException {
        bulkWrite(txn -> {
            db.sync();
            return null;
        });
    }

    /** Syncs every deferred-write database and the log; whether all of it went to disk. */
    private boolean writeOut() {
        try {
            for (Database db : databases) {
                db.sync();
            }
            env.sync();
        } catch (DatabaseException | IllegalStateException e) {
            damaged = true;
            LOG.error("Backend {}: cannot write out the imported data", backendId, e);
            return false;
        }
        try {
            Files.deleteIfExists(marker);
            force(marker.getParent());
            marked = false;
        } catch (IOException e) {
            LOG.warn("Backend {}: the load is written out but {} could not be removed: {}", backendId, marker,
                    e.toString());
        }
        return true;
    }

    private void closeQuietly() {
        if (!env.isValid()) {
            // JE refuses to close the databases of a failed environment, each with the failure's stack; closing the
            // environment releases them. What was committed is recovered from the log on the next start.
            databases.clear();
            try {
                env.close();
            } catch (DatabaseException | IllegalStateException e) {
                LOG.debug("Backend {}: closing its failed storage", backendId, e);
            }
            LOG.warn("Backend {}: closed its failed storage; a restart recovers every committed write", backendId);
            return;
        }
        for (Database db : databases) {
            try {
                db.close();
            } catch (DatabaseException | IllegalStateException e) {
                LOG.warn("Backend {}: error closing database {}", backendId, db.getDatabaseName(), e);
            }
        }
        databases.clear();
        try {
            env.close();
        } catch (DatabaseException | IllegalStateException e) {
            LOG.warn("Backend {}: error closing the storage", backendId, e);
        }
    }
}
