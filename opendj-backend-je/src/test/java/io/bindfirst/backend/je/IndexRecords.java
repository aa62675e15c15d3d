package io.bindfirst.backend.je;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;

import org.forgerock.opendj.ldap.ByteString;

import com.sleepycat.je.Cursor;
import com.sleepycat.je.DatabaseEntry;
import com.sleepycat.je.OperationStatus;

import io.bindfirst.server.backend.BackendException;

/** An index database's records as text, for tests that compare what a bulk load wrote with what it was given. */
final class IndexRecords {
    private IndexRecords() {
    }

    /** The records of the index at {@code position}, in the database's order. */
    static List<String> stored(JeStorage storage, Indexes indexes, int position) throws BackendException {
        return storage.read(() -> {
            List<String> out = new ArrayList<>();
            try (Cursor cursor = indexes.writeCursor(null, position)) {
                DatabaseEntry key = new DatabaseEntry();
                DatabaseEntry data = new DatabaseEntry();
                while (cursor.getNext(key, data, null) == OperationStatus.SUCCESS) {
                    out.add(record(key.getData(), data.getData()));
                }
            }
            return out;
        });
    }

    /** What {@link #addPeople} added: the records each index must hold once written, and the runs spilled. */
    record Added(List<TreeSet<String>> expected, int spills) {
    }

    /**
     * Adds the index records of {@code count} people in no order (ids and keys shuffled by {@code seed}: the sort
     * and the merge must order them), spilling runs as they fill.
     */
    static Added addPeople(Indexes indexes, SortedIndexRuns runs, int count, long seed) throws BackendException {
        List<Integer> order = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            order.add(i);
        }
        Collections.shuffle(order, new Random(seed));
        List<TreeSet<String>> expected = new ArrayList<>();
        indexes.names().forEach(name -> expected.add(new TreeSet<>()));
        int spills = 0;
        for (int i : order) {
            long id = i + 1;
            List<Set<ByteString>> keys = indexes.keys(TestSupport.person(i, TestSupport.PEOPLE));
            runs.add(keys, id);
            for (int x = 0; x < keys.size(); x++) {
                for (ByteString key : keys.get(x)) {
                    expected.get(x).add(record(key.toByteArray(), Ids.entry(id).getData()));
                }
            }
            if (runs.full()) {
                runs.spill();
                spills++;
            }
        }
        return new Added(expected, spills);
    }

    /** A record as text that sorts as the index does: hex of the key (unsigned bytes), then of the id. */
    static String record(byte[] key, byte[] id) {
        return HexFormat.of().formatHex(key) + "/" + HexFormat.of().formatHex(id);
    }
}
