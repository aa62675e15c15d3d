package io.bindfirst.backend.je;

import java.util.Arrays;
import java.util.List;

import org.forgerock.opendj.ldap.ByteString;
import org.forgerock.opendj.ldap.DN;
import org.forgerock.opendj.ldap.Entry;
import org.forgerock.opendj.ldap.LinkedHashMapEntry;
import org.forgerock.opendj.ldap.ResultCode;

import com.sleepycat.je.Transaction;

import io.bindfirst.server.backend.BackendException;
import io.bindfirst.server.backend.EntryChange;
import io.bindfirst.server.backend.EntryUpdate;

/**
 * Modify, delete and rename, each in one {@link JeStorage#write} transaction (retried there as a whole on a
 * lock conflict, so an {@link EntryUpdate} may run more than once).
 *
 * <p>Locking: each operation first write-locks (RMW) the dn2id record of its entry, then the id2entry
 * record, so writers of one entry queue on the first lock rather than deadlock upgrading read locks;
 * subtree operations then write-lock every descendant's dn2id record in key order as they walk it. Readers
 * (READ_COMMITTED, no transaction) wait on those locks, so they see the old or the committed state.
 *
 * <p>An update gets its own deep copy of the stored entry: the SDK's copy constructor shares attribute
 * objects, so a callee that copies and edits would otherwise change {@code before} too, and with it the
 * index keys removed. An update that returns an entry under another DN than the operation's is a bug in the
 * caller, not something the client asked for: it is refused with {@code OTHER} and nothing is written.
 */
final class Writes {
    private final String backendId;
    private final List<DN> baseDNs;
    private final DnKeys keys;
    private final EntryCodec codec;
    private final JeStorage storage;
    private final Entries entries;
    private final Indexes indexes;
    private final BindEntryCache bindCache;

    /** @param baseDNs the base DNs in canonical form ({@link DnKeys#canonical}) */
    Writes(String backendId, List<DN> baseDNs, DnKeys keys, EntryCodec codec, JeStorage storage, Entries entries,
            Indexes indexes, BindEntryCache bindCache) {
        this.backendId = backendId;
        this.baseDNs = baseDNs;
        this.keys = keys;
        this.codec = codec;
        this.storage = storage;
        this.entries = entries;
        this.indexes = indexes;
        this.bindCache = bindCache;
    }

    EntryChange modify(DN dn, EntryUpdate update) throws BackendException {
        byte[] key = keys.key(dn);
        try {
            return storage.writeConfirmed(txn -> {
                long id = entries.lockId(txn, key);
                if (id < 0) {
                    throw noSuchEntry(dn);
                }
                Entry before = stored(txn, id, dn);
                Entry after = apply(update, before, dn);
                checkName(after, key, dn, dn);
                store(txn, id, before, after);
                return new EntryChange(before, after);
            });
        } finally {
            bindCache.invalidate(ByteString.wrap(key));
        }
    }

    Entry delete(DN dn, boolean subtree) throws BackendException {
        byte[] key = keys.key(dn);
        try {
            return storage.writeConfirmed(txn -> {
                long id = entries.lockId(txn, key);
                if (id < 0) {
                    throw noSuchEntry(dn);
                }
                Entry entry = stored(txn, id, dn);
                if (subtree) {
                    entries.forEachBelow(txn, key, (childKey, childId) -> {
                        remove(txn, childId, entries.lockEntry(txn, childId));
                        return true;
                    });
                } else if (entries.hasChildren(txn, key)) {
                    // No child can appear after this check: adding one read-locks this entry, which we hold.
                    throw new BackendException(ResultCode.NOT_ALLOWED_ON_NONLEAF, "The entry " + dn
                            + " cannot be deleted because it has subordinate entries");
                }
                entries.deleteKey(txn, key);
                remove(txn, id, entry);
                return entry;
            });
        } finally {
            if (subtree) {
                bindCache.invalidateSubtree(key);
            } else {
                bindCache.invalidate(ByteString.wrap(key));
            }
        }
    }

    /**
     * Moves the entry and re-keys its subtree. Descendants keep their ids, so their index records (which
     * name ids, not DNs) stay as they are; only the entry itself, whose RDN values may change, is
     * re-indexed. When the old and new DN have the same key (a change of case only), nothing moves in
     * dn2id: the stored DNs of the entry and of its descendants are rewritten in place.
     */
    EntryChange rename(DN dn, DN newDN, EntryUpdate update) throws BackendException {
        DN from = keys.canonical(dn);
        DN to = keys.canonical(newDN);
        byte[] fromKey = DnKeys.keyOfCanonical(from);
        byte[] toKey = DnKeys.keyOfCanonical(to);
        boolean inPlace = Arrays.equals(fromKey, toKey);
        checkTarget(dn, newDN, from, to, fromKey, toKey, inPlace);
        byte[] parentKey = inPlace || baseDNs.contains(to) ? null : DnKeys.keyOfCanonical(to.parent());
        try {
            return storage.writeConfirmed(txn -> {
                long id = entries.lockId(txn, fromKey);
                if (id < 0) {
                    throw noSuchEntry(dn);
                }
                // A read lock kept until commit: the new parent cannot be deleted under the moving entry.
                if (parentKey != null && entries.id(txn, parentKey) < 0) {
                    throw new BackendException(ResultCode.NO_SUCH_OBJECT, "The entry " + dn + " cannot be moved to "
                            + newDN + " because the new parent entry " + newDN.parent() + " does not exist");
                }
                if (!inPlace) {
                    if (!entries.insertKey(txn, toKey, id)) {
                        throw new BackendException(ResultCode.ENTRY_ALREADY_EXISTS,
                                "The entry " + newDN + " already exists");
                    }
                    entries.deleteKey(txn, fromKey);
                }
                Entry before = stored(txn, id, dn);
                Entry after = apply(update, before, dn);
                checkName(after, toKey, dn, newDN);
                store(txn, id, before, after);
                DN newBase = keys.canonical(after.getName());
                entries.forEachBelow(txn, fromKey, (childKey, childId) ->
                        moveDescendant(txn, childKey, childId, from, newBase, fromKey, toKey));
                return new EntryChange(before, after);
            });
        } finally {
            bindCache.invalidateSubtree(fromKey);
        }
    }

    /** The checks that need no storage: where the entry may go. */
    private void checkTarget(DN dn, DN newDN, DN from, DN to, byte[] fromKey, byte[] toKey, boolean inPlace)
            throws BackendException {
        String cannot = "The entry " + dn + " cannot be moved to " + newDN;
        if (!inPlace && DnKeys.inSubtree(toKey, fromKey)) {
            throw new BackendException(ResultCode.UNWILLING_TO_PERFORM, cannot
                    + ": cannot move an entry below itself");
        }
        if (baseDNs.stream().noneMatch(to::isSubordinateOrEqualTo)) {
            throw new BackendException(ResultCode.UNWILLING_TO_PERFORM, cannot
                    + " because that is not under a base DN of backend " + backendId);
        }
        if (!inPlace && baseDNs.contains(from)) {
            // Moving a suffix entry away would leave its configured base DN without an entry.
            throw new BackendException(ResultCode.UNWILLING_TO_PERFORM, cannot
                    + " because it is a base DN of backend " + backendId);
        }
    }

    /**
     * Gives one descendant its new DN ({@link DN#rename}: the moved entry's old DN prefix replaced by the
     * new one) in id2entry and, unless only case changed, a new dn2id key; returns whether to delete the old
     * key. The new key must equal the old one with the moved prefix swapped: if not, the stored DN disagreed
     * with its key, and the move stops rather than spreading the damage.
     */
    private boolean moveDescendant(Transaction txn, byte[] childKey, long childId, DN from, DN newBase,
            byte[] fromKey, byte[] toKey) throws BackendException {
        Entry child = entries.lockEntry(txn, childId);
        byte[] expectedKey = Arrays.copyOf(toKey, toKey.length + childKey.length - fromKey.length);
        System.arraycopy(childKey, fromKey.length, expectedKey, toKey.length, childKey.length - fromKey.length);
        DN newName = child == null ? null : child.getName().rename(from, newBase);
        if (newName == null || !Arrays.equals(DnKeys.keyOfCanonical(newName), expectedKey)) {
            throw damaged(child == null ? "an entry below " + from : child.getName().toString());
        }
        child.setName(newName);
        entries.replace(txn, childId, codec.encode(child));
        if (Arrays.equals(expectedKey, childKey)) {
            return false;
        }
        if (!entries.insertKey(txn, expectedKey, childId)) {
            throw new BackendException(ResultCode.ENTRY_ALREADY_EXISTS, "The entry " + from + " cannot be moved to "
                    + newBase + " because the entry " + newName + " already exists");
        }
        return true;
    }

    /**
     * Runs the caller's update on a deep copy of {@code before}. Its argument or state errors are bugs in the
     * caller, not storage errors (which {@link JeStorage#write} would report them as): they become
     * {@code OTHER} with the error as the cause. Its BackendException passes unchanged.
     */
    private static Entry apply(EntryUpdate update, Entry before, DN dn) throws BackendException {
        try {
            return update.apply(LinkedHashMapEntry.deepCopyOfEntry(before));
        } catch (IllegalArgumentException | IllegalStateException e) {
            throw new BackendException(ResultCode.OTHER, "Internal error: the update of " + dn + " failed", e);
        }
    }

    /** The stored entry {@code id}, which dn2id names: its absence means a damaged store. */
    private Entry stored(Transaction txn, long id, DN dn) throws BackendException {
        Entry entry = entries.lockEntry(txn, id);
        if (entry == null) {
            throw damaged(dn.toString());
        }
        return entry;
    }

    private void checkName(Entry after, byte[] expectedKey, DN dn, DN expected) throws BackendException {
        if (after == null || !Arrays.equals(keys.key(after.getName()), expectedKey)) {
            throw new BackendException(ResultCode.OTHER, "Internal error: the update of " + dn + " returned "
                    + (after == null ? "no entry" : "an entry named " + after.getName()) + " instead of " + expected);
        }
    }

    /** Stores the new content of entry {@code id} and moves its index records by the difference of keys. */
    private void store(Transaction txn, long id, Entry before, Entry after) {
        entries.replace(txn, id, codec.encode(after));
        indexes.update(txn, indexes.keys(before), indexes.keys(after), id);
    }

    /** Deletes id2entry and the index records of entry {@code id} (its dn2id record is the caller's). */
    private void remove(Transaction txn, long id, Entry entry) {
        if (entry != null) { // without the content its index keys are unknown; an id2entry-less id is damage
            indexes.delete(txn, indexes.keys(entry), id);
        }
        entries.deleteEntry(txn, id);
    }

    private static BackendException noSuchEntry(DN dn) {
        return new BackendException(ResultCode.NO_SUCH_OBJECT, "The entry " + dn + " does not exist");
    }

    private BackendException damaged(String what) {
        return new BackendException(ResultCode.OTHER, "Backend " + backendId + ": the stored data of " + what
                + " is damaged (its DN and content disagree or its content is missing)");
    }
}
