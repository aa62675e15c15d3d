package io.bindfirst.backend.je;

import java.util.Arrays;

import org.forgerock.opendj.ldap.Entry;

import com.sleepycat.je.Cursor;
import com.sleepycat.je.CursorConfig;
import com.sleepycat.je.Database;
import com.sleepycat.je.DatabaseEntry;
import com.sleepycat.je.LockMode;
import com.sleepycat.je.OperationStatus;
import com.sleepycat.je.Transaction;

import io.bindfirst.server.backend.BackendException;

/**
 * The two main databases: dn2id (DN key from {@link DnKeys} to id) and id2entry (id to
 * {@link EntryCodec} bytes). Callers run these methods inside {@link JeStorage#read}/{@link JeStorage#write}.
 * Without a transaction, reads use READ_COMMITTED: they see only committed entries and keep no locks.
 * Writers lock an entry's dn2id record before its id2entry record (see {@link Writes}).
 */
final class Entries {
    /** What to do with each dn2id record of a subtree walk ({@link #forEachBelow}). */
    @FunctionalInterface
    interface RecordAction {
        /** @return whether to delete this dn2id record */
        boolean visit(byte[] key, long id) throws BackendException;
    }

    static final String DN2ID = "dn2id";
    static final String ID2ENTRY = "id2entry";

    private final Database dn2id;
    private final Database id2entry;
    private final EntryCodec codec;

    Entries(Database dn2id, Database id2entry, EntryCodec codec) {
        this.dn2id = dn2id;
        this.id2entry = id2entry;
        this.codec = codec;
    }

    /** The id stored under {@code key}, or -1. */
    long id(Transaction txn, byte[] key) {
        DatabaseEntry data = new DatabaseEntry();
        OperationStatus status = dn2id.get(txn, new DatabaseEntry(key), data, lockMode(txn));
        return status == OperationStatus.SUCCESS ? Ids.of(data) : -1;
    }

    /** The entry with this id, or {@code null} (an index may name an entry that is being added). */
    Entry entry(Transaction txn, long id) throws BackendException {
        DatabaseEntry data = new DatabaseEntry();
        OperationStatus status = id2entry.get(txn, Ids.entry(id), data, lockMode(txn));
        return status == OperationStatus.SUCCESS ? codec.decode(data.getData()) : null;
    }

    /**
     * The entry whose DN has this dn2id key, or {@code null}. The two reads are not one snapshot: a rename
     * committed between them leaves the id holding the entry under its new DN. The key had no entry by the
     * time id2entry was read, so that is what is reported: a reader never sees a DN that disagrees with it.
     */
    Entry entryAt(byte[] key) throws BackendException {
        long id = id(null, key);
        Entry entry = id < 0 ? null : entry(null, id);
        return entry != null && Arrays.equals(DnKeys.keyOfCanonical(entry.getName()), key) ? entry : null;
    }

    /** Like {@link #entryAt(byte[])}, with only the named attributes decoded (the bind path). */
    Entry entryAt(byte[] key, org.forgerock.opendj.ldap.DN expected, java.util.Set<String> names)
            throws BackendException {
        long id = id(null, key);
        if (id < 0) {
            return null;
        }
        DatabaseEntry data = new DatabaseEntry();
        OperationStatus status = id2entry.get(null, Ids.entry(id), data, lockMode(null));
        return status == OperationStatus.SUCCESS ? codec.decodeSome(data.getData(), names, expected, key) : null;
    }

    /** Whether any key lies strictly inside the subtree of {@code key}. */
    boolean hasChildren(Transaction txn, byte[] key) {
        try (Cursor cursor = dn2id.openCursor(txn, txn == null ? CursorConfig.READ_COMMITTED : null)) {
            DatabaseEntry found = new DatabaseEntry(DnKeys.childrenStart(key));
            DatabaseEntry data = new DatabaseEntry();
            data.setPartial(0, 0, true);
            return cursor.getSearchKeyRange(found, data, null) == OperationStatus.SUCCESS
                    && DnKeys.compare(found.getData(), DnKeys.subtreeEnd(key)) < 0;
        }
    }

    /**
     * The id under {@code key}, or -1, write-locked (RMW) until {@code txn} ends. Taking the write lock at
     * once, rather than a read lock upgraded later, makes two writers of one entry queue here instead of
     * deadlocking, and keeps readers from seeing the entry until the writer commits.
     */
    long lockId(Transaction txn, byte[] key) {
        DatabaseEntry data = new DatabaseEntry();
        OperationStatus status = dn2id.get(txn, new DatabaseEntry(key), data, LockMode.RMW);
        return status == OperationStatus.SUCCESS ? Ids.of(data) : -1;
    }

    /** The entry with this id, write-locked until {@code txn} ends, or {@code null}. */
    Entry lockEntry(Transaction txn, long id) throws BackendException {
        DatabaseEntry data = new DatabaseEntry();
        OperationStatus status = id2entry.get(txn, Ids.entry(id), data, LockMode.RMW);
        return status == OperationStatus.SUCCESS ? codec.decode(data.getData()) : null;
    }

    /** Replaces the stored content of entry {@code id}. */
    void replace(Transaction txn, long id, byte[] encoded) {
        id2entry.put(txn, Ids.entry(id), new DatabaseEntry(encoded));
    }

    /** Points a new dn2id key at {@code id}; {@code false} (and nothing written) if the key is taken. */
    boolean insertKey(Transaction txn, byte[] key, long id) {
        return dn2id.putNoOverwrite(txn, new DatabaseEntry(key), Ids.entry(id)) == OperationStatus.SUCCESS;
    }

    void deleteKey(Transaction txn, byte[] key) {
        dn2id.delete(txn, new DatabaseEntry(key));
    }

    void deleteEntry(Transaction txn, long id) {
        id2entry.delete(txn, Ids.entry(id));
    }

    /**
     * Calls {@code action} for every dn2id record strictly below {@code key}, in key order, each
     * write-locked (RMW) as the walk reaches it, and deletes the records the action asks to. The caller
     * holds the write lock on {@code key} itself. A concurrent add cannot slip in behind the walk: it must
     * read-lock its parent, which is {@code key} or a record before its own key, so either it waits for this
     * transaction or the walk waits at the parent for it to commit and then finds its record ahead. The
     * action may write outside the range (a move's new keys) as the walk goes.
     */
    void forEachBelow(Transaction txn, byte[] key, RecordAction action) throws BackendException {
        byte[] end = DnKeys.subtreeEnd(key);
        try (Cursor cursor = dn2id.openCursor(txn, null)) {
            DatabaseEntry found = new DatabaseEntry(DnKeys.childrenStart(key));
            DatabaseEntry data = new DatabaseEntry();
            OperationStatus status = cursor.getSearchKeyRange(found, data, LockMode.RMW);
            while (status == OperationStatus.SUCCESS && DnKeys.compare(found.getData(), end) < 0) {
                if (action.visit(found.getData(), Ids.of(data))) {
                    cursor.delete();
                }
                status = cursor.getNext(found, data, LockMode.RMW);
            }
        }
    }

    /** What {@link #forEachKey} and {@link #forEachEntry} call with each record. */
    @FunctionalInterface
    interface RecordVisitor<T> {
        void visit(T key, long id) throws BackendException;
    }

    /** Every dn2id record, in key order (read committed: meant for a backend no one writes to meanwhile). */
    void forEachKey(RecordVisitor<byte[]> visitor) throws BackendException {
        try (Cursor cursor = dn2id.openCursor(null, CursorConfig.READ_COMMITTED)) {
            DatabaseEntry key = new DatabaseEntry();
            DatabaseEntry data = new DatabaseEntry();
            while (cursor.getNext(key, data, null) == OperationStatus.SUCCESS) {
                visitor.visit(key.getData(), Ids.of(data));
            }
        }
    }

    /** Every id2entry record decoded, in id order; an entry that does not decode is given as {@code null}. */
    void forEachEntry(RecordVisitor<Entry> visitor) throws BackendException {
        try (Cursor cursor = id2entry.openCursor(null, CursorConfig.READ_COMMITTED)) {
            DatabaseEntry key = new DatabaseEntry();
            DatabaseEntry data = new DatabaseEntry();
            while (cursor.getNext(key, data, null) == OperationStatus.SUCCESS) {
                Entry entry;
                try {
                    entry = codec.decode(data.getData());
                } catch (BackendException | RuntimeException undecodable) {
                    entry = null;
                }
                visitor.visit(entry, Ids.of(key));
            }
        }
    }

    /** Stores a new entry; {@code false} (and nothing written) if its DN already exists. */
    boolean insert(Transaction txn, byte[] key, long id, byte[] encoded) {
        if (dn2id.putNoOverwrite(txn, new DatabaseEntry(key), Ids.entry(id)) != OperationStatus.SUCCESS) {
            return false;
        }
        if (id2entry.putNoOverwrite(txn, Ids.entry(id), new DatabaseEntry(encoded)) != OperationStatus.SUCCESS) {
            throw new IdInUse(id);
        }
        return true;
    }

    /**
     * The id given to a new entry already has one: a node that became its replication group's master still had the
     * next id it computed before other masters' adds were replayed to it. The transaction is abandoned and the add
     * tried again with a fresh id; a write would otherwise replace another entry.
     */
    static final class IdInUse extends RuntimeException {
        private static final long serialVersionUID = 1L;

        IdInUse(long id) {
            super("Entry id " + id + " is in use", null, false, false);
        }
    }

    /**
     * Inserts of many entries through one cursor per database, for an import's batch: {@link #insert} opens and
     * closes a cursor, with a locker, on each database for every entry (a million-user import took 1.7-3.3 s less
     * CPU without them). Non-sticky: a put does not first copy the cursor to keep its old position. Closed before
     * the transaction ends.
     */
    final class Inserter implements AutoCloseable {
        private final Cursor dn2idCursor;
        private final Cursor id2entryCursor;

        private Inserter(Transaction txn) {
            CursorConfig config = new CursorConfig().setNonSticky(true);
            this.dn2idCursor = dn2id.openCursor(txn, config);
            Cursor entries;
            try {
                entries = id2entry.openCursor(txn, config);
            } catch (RuntimeException e) {
                dn2idCursor.close();
                throw e;
            }
            this.id2entryCursor = entries;
        }

        /** As {@link Entries#insert}. */
        boolean insert(byte[] key, long id, byte[] encoded) {
            if (dn2idCursor.putNoOverwrite(new DatabaseEntry(key), Ids.entry(id)) != OperationStatus.SUCCESS) {
                return false;
            }
            id2entryCursor.put(Ids.entry(id), new DatabaseEntry(encoded));
            return true;
        }

        @Override
        public void close() {
            try {
                id2entryCursor.close();
            } finally {
                dn2idCursor.close();
            }
        }
    }

    /** An {@link Inserter} within {@code txn} ({@code null} in a bulk load, which has no transactions). */
    Inserter inserter(Transaction txn) {
        return new Inserter(txn);
    }

    /** The highest id in use, or 0: ids are handed out from here + 1 after a restart. */
    long lastId() {
        try (Cursor cursor = id2entry.openCursor(null, CursorConfig.READ_COMMITTED)) {
            DatabaseEntry key = new DatabaseEntry();
            DatabaseEntry data = new DatabaseEntry();
            data.setPartial(0, 0, true);
            return cursor.getLast(key, data, null) == OperationStatus.SUCCESS ? Ids.of(key) : 0;
        }
    }

    long count() {
        return id2entry.count();
    }

    /**
     * Up to {@code max} ids read from dn2id, their keys (a search's positions), and the key to continue from
     * ({@code null} at the end).
     */
    record Chunk(long[] ids, byte[][] keys, byte[] resume) {
    }

    /**
     * Reads the ids of up to {@code max} dn2id records with keys in [{@code from}, {@code end}). With
     * {@code skipSubtrees}, after each key the walk jumps past that key's subtree, so it sees only the top
     * level of the range: the children, for a one-level search (as every entry's parent exists, the first
     * key after a skipped subtree is the next sibling).
     */
    Chunk scan(byte[] from, byte[] end, boolean skipSubtrees, int max) {
        long[] ids = new long[max];
        byte[][] keys = new byte[max][];
        int n = 0;
        try (Cursor cursor = dn2id.openCursor(null, CursorConfig.READ_COMMITTED)) {
            DatabaseEntry key = new DatabaseEntry(from);
            DatabaseEntry data = new DatabaseEntry();
            OperationStatus status = cursor.getSearchKeyRange(key, data, null);
            while (status == OperationStatus.SUCCESS && DnKeys.compare(key.getData(), end) < 0) {
                if (n == max) {
                    return new Chunk(ids, keys, key.getData());
                }
                // A copy: the cursor may reuse the entry's buffer for the next key.
                keys[n] = Arrays.copyOfRange(key.getData(), key.getOffset(), key.getOffset() + key.getSize());
                ids[n++] = Ids.of(data);
                if (skipSubtrees) {
                    key = new DatabaseEntry(DnKeys.subtreeEnd(key.getData()));
                    status = cursor.getSearchKeyRange(key, data, null);
                } else {
                    status = cursor.getNext(key, data, null);
                }
            }
        }
        return new Chunk(Arrays.copyOf(ids, n), Arrays.copyOf(keys, n), null);
    }

    private static LockMode lockMode(Transaction txn) {
        // Inside a write transaction, default locking keeps what was checked (e.g. the parent) stable.
        return txn == null ? LockMode.READ_COMMITTED : LockMode.DEFAULT;
    }
}
