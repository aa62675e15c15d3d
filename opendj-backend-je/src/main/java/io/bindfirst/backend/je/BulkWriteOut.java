package io.bindfirst.backend.je;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

import org.forgerock.opendj.ldap.ResultCode;

import com.sleepycat.je.Database;

import io.bindfirst.server.backend.BackendException;

/**
 * The end of a bulk load, on as many threads as there are processors: each index written from its sorted runs
 * and then synced to disk, beside the sync of the entries' own databases. One thread did it all before, while the
 * threads that had parsed and prepared the entries sat idle: at a million entries and six indexes that end took
 * half the import (15 of 28 s). The work goes out largest first (the index with the most records, which alone
 * costs as much as a few of the others, then the entries, then the other indexes by size), so that no thread is
 * left with a long task when the others finish.
 */
final class BulkWriteOut {
    private final JeStorage storage;
    private final Indexes indexes;
    private final List<Database> entryDatabases;
    private final int threads;
    private final AtomicInteger threadNumber = new AtomicInteger();

    /**
     * @param entryDatabases the databases other than the indexes (entries, DNs, meta), synced as one task
     * @param threads at most this many tasks at a time
     */
    BulkWriteOut(JeStorage storage, Indexes indexes, List<Database> entryDatabases, int threads) {
        this.storage = storage;
        this.indexes = indexes;
        this.entryDatabases = List.copyOf(entryDatabases);
        this.threads = Math.max(1, threads);
    }

    /**
     * Writes every index's records and syncs every database; the caller then completes the write-out
     * ({@link JeStorage#writeOutBulkLoad}). Every task runs to its end even when another fails; the first failure
     * is thrown once all are done (the load is then damaged and will not open).
     */
    void run(SortedIndexRuns runs) throws BackendException {
        List<Integer> order = new ArrayList<>();
        for (int i = 0; i < runs.indexCount(); i++) {
            order.add(i);
        }
        order.sort(Comparator.comparingLong(runs::records).reversed());
        List<Callable<Void>> tasks = new ArrayList<>();
        for (int index : order) {
            tasks.add(() -> {
                storage.write(txn -> {
                    runs.writeIndex(index, txn);
                    return null;
                });
                storage.writeOutDatabase(indexes.database(index));
                return null;
            });
        }
        tasks.add(Math.min(1, tasks.size()), () -> {
            for (Database db : entryDatabases) {
                storage.writeOutDatabase(db);
            }
            return null;
        });
        runAll(tasks);
        runs.finish();
    }

    private void runAll(List<Callable<Void>> tasks) throws BackendException {
        ExecutorService pool = Executors.newFixedThreadPool(Math.min(threads, tasks.size()), r -> {
            Thread t = new Thread(r, "import-write-out-" + threadNumber.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
        try {
            Throwable first = null;
            for (Future<Void> done : pool.invokeAll(tasks)) { // in order: the pool's queue is first in, first out
                try {
                    done.get();
                } catch (ExecutionException e) {
                    first = first == null ? e.getCause() : first;
                }
            }
            if (first instanceof BackendException be) {
                throw be;
            }
            if (first instanceof RuntimeException re) {
                throw re;
            }
            if (first instanceof Error error) {
                throw error;
            }
            if (first != null) {
                throw new BackendException(ResultCode.OTHER, "The import could not write its data out: " + first,
                        first);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new BackendException(ResultCode.OTHER, "The import was interrupted while writing its data out", e);
        } finally {
            pool.shutdownNow();
        }
    }
}
