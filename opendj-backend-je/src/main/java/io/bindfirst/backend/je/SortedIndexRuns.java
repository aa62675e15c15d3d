package io.bindfirst.backend.je;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;

import org.forgerock.opendj.ldap.ByteString;

import com.sleepycat.je.Transaction;

/**
 * A bulk load's index records, gathered in memory and written index by index in key order, a run at a time,
 * rather than entry by entry: records inserted in key order go to the B-tree node the one before went to,
 * where entry by entry each of an entry's keys lands in a different part of a different index. That was most
 * of a bulk load's time. Bounded: {@link #full()} says when a run is worth writing.
 */
final class SortedIndexRuns {
    /** Records per run: about 60 MB of heap, and runs long enough that most keys of a run share nodes. */
    private static final int RUN_RECORDS = 1 << 20;
    /** The order of the index databases: keys as unsigned bytes (as ByteString compares them), then ids. */
    private static final Comparator<Record> ORDER = (a, b) -> {
        int c = a.key().compareTo(b.key());
        return c != 0 ? c : Long.compare(a.id(), b.id()); // ids are positive: their big-endian bytes sort so too
    };

    /** One index record: a key and an entry holding it. */
    private record Record(ByteString key, long id) {
    }

    private final Indexes indexes;
    private final List<List<Record>> pending = new ArrayList<>();
    private int size;

    SortedIndexRuns(Indexes indexes) {
        this.indexes = indexes;
        for (int i = 0; i < indexes.names().size(); i++) {
            pending.add(new ArrayList<>());
        }
    }

    /** Holds the records of one stored entry: {@code keys} as {@link Indexes#keys} gives them. */
    void add(List<Set<ByteString>> keys, long id) {
        for (int i = 0; i < keys.size(); i++) {
            for (ByteString key : keys.get(i)) {
                pending.get(i).add(new Record(key, id));
            }
            size += keys.get(i).size();
        }
    }

    boolean full() {
        return size >= RUN_RECORDS;
    }

    /** Writes every record held, in key order, and forgets them. */
    void flush(Transaction txn) {
        for (int i = 0; i < pending.size(); i++) {
            List<Record> records = pending.get(i);
            records.sort(ORDER);
            for (Record r : records) {
                indexes.insert(txn, i, r.key(), r.id());
            }
            records.clear();
        }
        size = 0;
    }
}
