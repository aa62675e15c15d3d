package io.bindfirst.backend.je;

import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

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

    /** A record as text that sorts as the index does: hex of the key (unsigned bytes), then of the id. */
    static String record(byte[] key, byte[] id) {
        return HexFormat.of().formatHex(key) + "/" + HexFormat.of().formatHex(id);
    }
}
