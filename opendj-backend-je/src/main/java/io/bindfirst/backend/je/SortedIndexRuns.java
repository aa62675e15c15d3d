package io.bindfirst.backend.je;

import java.io.BufferedOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import org.forgerock.opendj.ldap.ByteString;
import org.forgerock.opendj.ldap.ResultCode;

import com.sleepycat.je.Cursor;
import com.sleepycat.je.DatabaseEntry;
import com.sleepycat.je.Transaction;

import io.bindfirst.server.backend.BackendException;

/**
 * A bulk load's index records, written to each index once, in key order, when the load ends. Entry by entry,
 * each of an entry's keys lands in a different part of a different index; and runs written one after another
 * into a growing tree (as before) revisit every node of it per run, splitting them half full, and at a million
 * entries re-read nodes evicted since. Here the records are gathered in memory ({@link PackedRecords}); a full
 * run is sorted and written to a file of its own per index ({@link #spill}); {@link #writeAll} merges the files
 * and the records still held ({@link IndexRunMerge}), so each index's B-tree is filled from its smallest key to
 * its largest, one leaf after the other. The run files live in a folder of the database directory and go once
 * written. Records are added from one thread; the indexes may then be written from several, one thread an index.
 */
final class SortedIndexRuns {
    /** Records held before a run is sorted and spilled: about 30 MB of heap. */
    static final int RUN_RECORDS = 1 << 20;
    /** Key bytes held before a run is spilled, whatever the count: long keys fill the heap sooner. */
    private static final int RUN_BYTES = 256 << 20;
    /** The folder of the run files, in the database directory (JE ignores it). */
    static final String FOLDER = "import-runs";

    private final Indexes indexes;
    private final Path folder;
    private final int runRecords;
    private final int keyLimit;
    private final List<PackedRecords> pending = new ArrayList<>();
    /** Per index, the keys whose records are no longer held (see {@link OverLimitKeys}). */
    private final List<OverLimitKeys> overLimit = new ArrayList<>();
    /** Per spilled run, its file per index (in index order). */
    private final List<List<Path>> spilled = new ArrayList<>();
    /** Per index, records held since the last write (spilled or still in memory). */
    private final long[] added;
    private int size;
    private long bytes;

    /** @param directory the database directory, where the run files go */
    SortedIndexRuns(Indexes indexes, Path directory) {
        this(indexes, directory, RUN_RECORDS, IndexQuery.ENTRY_LIMIT);
    }

    /**
     * @param runRecords records held before a run is spilled (small in tests, to get several runs)
     * @param keyLimit the most ids an index key keeps: one with more is written as over the limit
     *        ({@link LimitedKeyWriter}); a search never reads more than {@link IndexQuery#ENTRY_LIMIT} of them
     */
    SortedIndexRuns(Indexes indexes, Path directory, int runRecords, int keyLimit) {
        this.indexes = indexes;
        this.folder = directory.resolve(FOLDER);
        this.runRecords = runRecords;
        this.keyLimit = keyLimit;
        for (int i = 0; i < indexes.names().size(); i++) {
            pending.add(new PackedRecords());
            overLimit.add(new OverLimitKeys(keyLimit));
        }
        this.added = new long[pending.size()];
    }

    /** Holds the records of one stored entry: {@code keys} as {@link Indexes#keys} gives them. */
    void add(List<Set<ByteString>> keys, long id) {
        for (int i = 0; i < keys.size(); i++) {
            PackedRecords records = pending.get(i);
            OverLimitKeys over = overLimit.get(i);
            for (ByteString key : keys.get(i)) {
                if (over.hold(key)) {
                    records.add(key, id);
                    bytes += key.length() + 12;
                    size++;
                    added[i]++;
                }
            }
        }
    }

    boolean full() {
        return size >= runRecords || bytes >= RUN_BYTES;
    }

    /** Sorts the records held and writes them to run files (one per index), then forgets them. */
    void spill() throws BackendException {
        try {
            if (spilled.isEmpty()) {
                clearFolder(); // what an import stopped by a crash left
                Files.createDirectories(folder);
            }
            List<Path> files = new ArrayList<>();
            for (int i = 0; i < pending.size(); i++) {
                PackedRecords records = pending.get(i);
                records.sort();
                Path file = folder.resolve("run-" + spilled.size() + "-index-" + i);
                try (OutputStream os = Files.newOutputStream(file);
                        DataOutputStream out = new DataOutputStream(new BufferedOutputStream(os, 1 << 16))) {
                    records.writeTo(out);
                }
                files.add(file);
                records.clear();
            }
            spilled.add(files);
            size = 0;
            bytes = 0;
        } catch (IOException e) {
            throw new BackendException(ResultCode.OTHER, "The import cannot write its index records to " + folder
                    + ": " + e.getMessage(), e);
        }
    }

    /**
     * Writes every record, spilled and held, index by index, each index in key order, and forgets them all (the
     * run files go). Several calls write what was added between them. A bulk load's end writes the indexes side
     * by side instead ({@link BulkWriteOut}), through {@link #writeIndex} and {@link #finish}.
     */
    void writeAll(Transaction txn) throws BackendException {
        for (int i = 0; i < pending.size(); i++) {
            writeIndex(i, txn);
        }
        finish();
    }

    /** How many indexes this holds records for (those of {@link Indexes#names()}, in that order). */
    int indexCount() {
        return pending.size();
    }

    /** Records held for the {@code index}th index since the last write: what writing it will cost. */
    long records(int index) {
        return added[index];
    }

    /**
     * Writes the records of the {@code index}th index, spilled and held, in key order, and deletes its run files.
     * Calls for different indexes may run at the same time: each reads only its own records and files.
     */
    void writeIndex(int index, Transaction txn) throws BackendException {
        PackedRecords held = pending.get(index);
        held.sort();
        List<Path> files = new ArrayList<>();
        for (List<Path> run : spilled) {
            files.add(run.get(index));
        }
        try {
            try (IndexRunMerge merge = new IndexRunMerge(files, held);
                    Cursor cursor = indexes.writeCursor(txn, index)) {
                DatabaseEntry key = new DatabaseEntry();
                DatabaseEntry id = new DatabaseEntry(new byte[8]);
                LimitedKeyWriter writer = new LimitedKeyWriter(cursor, keyLimit);
                while (merge.next(key, id.getData())) {
                    writer.add(key, Ids.of(id));
                }
                writer.finish();
            }
            held.clear();
            added[index] = 0;
            overLimit.get(index).reset();
            for (Path file : files) {
                Files.deleteIfExists(file);
            }
        } catch (IOException e) {
            throw new BackendException(ResultCode.OTHER, "The import cannot read its index records back from "
                    + folder + ": " + e.getMessage(), e);
        }
    }

    /** Forgets the runs once every index is written ({@link #writeIndex}), and removes their folder. */
    void finish() throws BackendException {
        spilled.clear();
        size = 0;
        bytes = 0;
        try {
            clearFolder();
        } catch (IOException e) {
            throw new BackendException(ResultCode.OTHER, "The import cannot remove its index records' folder "
                    + folder + ": " + e.getMessage(), e);
        }
    }

    private void clearFolder() throws IOException {
        if (Files.isDirectory(folder)) {
            try (var files = Files.list(folder)) {
                for (Path file : (Iterable<Path>) files::iterator) {
                    Files.deleteIfExists(file);
                }
            }
            Files.deleteIfExists(folder);
        }
    }
}
