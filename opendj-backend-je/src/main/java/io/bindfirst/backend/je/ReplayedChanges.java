package io.bindfirst.backend.je;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import com.sleepycat.je.DatabaseEntry;
import com.sleepycat.je.Transaction;
import com.sleepycat.je.trigger.ReplicatedDatabaseTrigger;
import com.sleepycat.je.trigger.TransactionTrigger;
import com.sleepycat.je.trigger.Trigger;

/**
 * Learns, on a replica, what each transaction replayed from the master did to the entries: a JE trigger on the
 * entries' database ({@code id2entry}, whose records hold each entry with its DN), which JE calls on the replay
 * thread for every record written and then once the transaction commits or aborts. JE has no other public way to
 * follow replayed changes; its trigger interface is marked as not yet released, but it is what JE documents for
 * keeping a cache true on a replica, and it gives each record's data before and after the change, which is what the
 * server's listeners need.
 *
 * <p>JE calls the trigger after the commit is in place and its locks are released (a read from then on sees the
 * change), and before the replica acknowledges the commit to the master: whatever {@code committed} does is done
 * before the master can count this node's acknowledgement. Writes this node makes itself, as the master, also reach
 * the trigger, on the writing thread: {@code local} says so and they are passed over (the write operation hands them
 * to the server itself).
 *
 * <p>A transaction that JE has to resume after a restart (part of it was in this node's log before it stopped)
 * reports the records it repeats without their data before: such a change is handed on with its before unknown.
 */
final class ReplayedChanges implements ReplicatedDatabaseTrigger, TransactionTrigger {
    /** One record's change: its key and its data before and after; {@code null} for none (or unknown). */
    record Record(byte[] key, byte[] before, byte[] after, boolean beforeUnknown) {
    }

    private static final Logger LOG = LoggerFactory.getLogger(ReplayedChanges.class);

    private final BooleanSupplier local;
    private final Consumer<List<Record>> committed;
    /** The records of each replayed transaction not yet ended, by JE's transaction id. */
    private final ConcurrentHashMap<Long, List<Record>> open = new ConcurrentHashMap<>();
    private volatile String databaseName;

    /**
     * @param local whether the calling thread is writing on this node itself
     * @param committed called on the replay thread with the records of each committed transaction, in order
     */
    ReplayedChanges(BooleanSupplier local, Consumer<List<Record>> committed) {
        this.local = local;
        this.committed = committed;
    }

    @Override
    public void put(Transaction txn, DatabaseEntry key, DatabaseEntry oldData, DatabaseEntry newData) {
        add(txn, key, oldData == null ? null : oldData.getData(), newData.getData(), false);
    }

    @Override
    public void delete(Transaction txn, DatabaseEntry key, DatabaseEntry oldData) {
        add(txn, key, oldData == null ? null : oldData.getData(), null, false);
    }

    @Override
    public void repeatPut(Transaction txn, DatabaseEntry key, DatabaseEntry newData) {
        add(txn, key, null, newData.getData(), true);
    }

    @Override
    public void repeatDelete(Transaction txn, DatabaseEntry key) {
        add(txn, key, null, null, true);
    }

    private void add(Transaction txn, DatabaseEntry key, byte[] before, byte[] after, boolean beforeUnknown) {
        if (txn == null || local.getAsBoolean()) {
            return;
        }
        open.computeIfAbsent(txn.getId(), id -> new ArrayList<>(2))
                .add(new Record(key.getData(), before, after, beforeUnknown));
    }

    @Override
    public void commit(Transaction txn) {
        List<Record> records = open.remove(txn.getId());
        if (records == null) {
            return;
        }
        try {
            committed.accept(records);
        } catch (RuntimeException e) {
            // Thrown into JE's replay, it would stop this node replicating: the change is in place either way.
            LOG.error("A change replayed from the master could not be handed to the server", e);
        }
    }

    @Override
    public void abort(Transaction txn) {
        open.remove(txn.getId());
    }

    @Override
    public void repeatTransaction(Transaction txn) {
        // its records follow, through repeatPut and repeatDelete
    }

    @Override
    public String getName() {
        return "bindfirst-replayed-changes";
    }

    @Override
    public Trigger setDatabaseName(String name) {
        this.databaseName = name;
        return this;
    }

    @Override
    public String getDatabaseName() {
        return databaseName;
    }

    @Override
    public void addTrigger(Transaction txn) {
        // nothing to set up
    }

    @Override
    public void removeTrigger(Transaction txn) {
        // nothing to tear down
    }

    @Override
    public void repeatAddTrigger(Transaction txn) {
        // transient: nothing of it is in the log
    }

    @Override
    public void repeatRemoveTrigger(Transaction txn) {
        // transient: nothing of it is in the log
    }

    @Override
    public void repeatCreate(Transaction txn) {
        // the database's creation carries no entry
    }

    @Override
    public void repeatRemove(Transaction txn) {
        // the entries' database is never removed while the server runs
    }

    @Override
    public void repeatTruncate(Transaction txn) {
        // the entries' database is never truncated while the server runs
    }

    @Override
    public void repeatRename(Transaction txn, String newName) {
        // the entries' database is never renamed
    }
}
