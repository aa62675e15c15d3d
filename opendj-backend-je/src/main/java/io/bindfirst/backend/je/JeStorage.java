package io.bindfirst.backend.je;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

import org.forgerock.opendj.ldap.ResultCode;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import com.sleepycat.je.Database;
import com.sleepycat.je.DatabaseConfig;
import com.sleepycat.je.DatabaseException;
import com.sleepycat.je.Durability;
import com.sleepycat.je.Environment;
import com.sleepycat.je.EnvironmentConfig;
import com.sleepycat.je.EnvironmentLockedException;
import com.sleepycat.je.LockConflictException;
import com.sleepycat.je.Transaction;
import com.sleepycat.je.TransactionConfig;
import com.sleepycat.je.util.DbBackup;

import io.bindfirst.server.backend.BackendException;
import io.bindfirst.server.backend.BackupManifest;

/**
 * The JE environment of one backend and the single place where JE work is run: {@link #write} and
 * {@link #read} retry lock conflicts and deadlocks and turn every JE exception into a
 * {@link BackendException} that carries the JE exception only as its cause.
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
    /** JE refuses caches below about 96 KiB; a few MiB is the least that performs at all. */
    private static final long MIN_CACHE_BYTES = 4L << 20;
    private static final int MAX_ATTEMPTS = 10;
    private static final Logger LOG = LoggerFactory.getLogger(JeStorage.class);

    private final String backendId;
    private final Environment env;
    private final TransactionConfig txnConfig = new TransactionConfig().setDurability(Durability.COMMIT_SYNC);
    private final List<Database> databases = new CopyOnWriteArrayList<>();
    private volatile boolean open = true;

    JeStorage(String backendId, Path directory, long cacheBytes) throws BackendException {
        this.backendId = backendId;
        try {
            Files.createDirectories(directory);
        } catch (IOException e) {
            throw new BackendException(ResultCode.UNAVAILABLE,
                    "Backend " + backendId + " cannot create its directory " + directory, e);
        }
        EnvironmentConfig config = new EnvironmentConfig()
                .setAllowCreate(true)
                .setTransactional(true)
                // Short waits: a conflict is retried by write()/read() rather than waited out.
                .setLockTimeout(1, TimeUnit.SECONDS);
        // An acknowledged write must survive kill -9: fsync the log on every commit.
        config.setDurability(Durability.COMMIT_SYNC);
        config.setCacheSize(cacheBytes > 0 ? Math.max(cacheBytes, MIN_CACHE_BYTES) : DEFAULT_CACHE_BYTES);
        try {
            env = new Environment(directory.toFile(), config);
        } catch (EnvironmentLockedException e) {
            // BUSY, not UNAVAILABLE: restore tells "another process has it" from "it does not open" by the code.
            throw new BackendException(ResultCode.BUSY,
                    "Backend " + backendId + ": its database directory " + directory + " is in use by another "
                    + "process (a running server, or import-ldif or export-ldif): stop that process first", e);
        } catch (DatabaseException | IllegalArgumentException e) {
            throw new BackendException(ResultCode.UNAVAILABLE,
                    "Backend " + backendId + " cannot open its storage in " + directory, e);
        }
    }

    /** Opens (creating if missing) a transactional database, closed again by {@link #close()}. */
    Database openDatabase(String name, boolean sortedDuplicates) throws BackendException {
        DatabaseConfig config = new DatabaseConfig()
                .setAllowCreate(true)
                .setTransactional(true)
                .setSortedDuplicates(sortedDuplicates);
        Database db = read(() -> env.openDatabase(null, name, config));
        databases.add(db);
        return db;
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
     * Runs {@code work} in a transaction and commits it durably; retries the whole work on a lock
     * conflict or deadlock (after aborting), a bounded number of times with a short random backoff.
     */
    <T> T write(TxnWork<T> work) throws BackendException {
        for (int attempt = 1; ; attempt++) {
            ensureOpen();
            Transaction txn = null;
            try {
                txn = env.beginTransaction(null, txnConfig);
                T result = work.run(txn);
                txn.commit();
                txn = null;
                return result;
            } catch (LockConflictException e) {
                abort(txn); // release our locks before sleeping, so the other party can finish
                txn = null;
                backoff(attempt, e);
            } catch (DatabaseException | IllegalStateException | IllegalArgumentException e) {
                throw storageError(e);
            } finally {
                abort(txn);
            }
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
        LOG.error("Storage error in backend {}", backendId, e);
        return new BackendException(ResultCode.OTHER, "Storage error in backend " + backendId, e);
    }

    private void abort(Transaction txn) {
        if (txn != null) {
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

    /** Closes every database opened here, then the environment (which checkpoints). Idempotent. */
    @Override
    public synchronized void close() {
        if (!open) {
            return;
        }
        open = false;
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
