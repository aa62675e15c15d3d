package io.bindfirst.backend.je;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.forgerock.opendj.ldap.ByteString;
import org.forgerock.opendj.ldap.ByteStringBuilder;
import org.forgerock.opendj.ldap.DN;
import org.forgerock.opendj.ldap.Entry;
import org.forgerock.opendj.ldap.Filter;
import org.forgerock.opendj.ldap.ResultCode;
import org.forgerock.opendj.ldap.SearchScope;

import io.bindfirst.server.backend.BackendException;
import io.bindfirst.server.backend.PositionedEntryVisitor;

/**
 * Runs searches: index candidates when the filter allows, else a walk of the scope's dn2id key range.
 * Entries are read in chunks, each in its own {@link JeStorage#read}, and handed to the visitor between
 * chunks: a retried chunk never delivers an entry twice, and no cursor stays open while the visitor works
 * (it may be writing to a slow client). A search is not a snapshot: an entry renamed while it runs is
 * passed on under the DN id2entry holds when read, and only if that DN is in scope.
 *
 * <p>Each entry's position is where its order puts it: index candidates come in ascending id order, so their
 * position is the id ({@code 'i'} + 8 bytes); a walk goes in dn2id key order, so its position is the key
 * ({@code 'k'} + key). A resumed search seeks straight past the position (a binary search in the candidates,
 * a cursor seek in dn2id) instead of walking again what came before.
 */
final class Search {
    private static final int CHUNK = 256;
    private static final byte BY_ID = 'i';
    private static final byte BY_KEY = 'k';

    /** One candidate and its position. */
    private record Found(Entry entry, ByteString position) {
    }

    private record Batch(List<Found> found, byte[] resume) {
    }

    private final JeStorage storage;
    private final Entries entries;
    private final DnKeys keys;
    private final IndexQuery query;

    Search(JeStorage storage, Entries entries, DnKeys keys, IndexQuery query) {
        this.storage = storage;
        this.entries = entries;
        this.keys = keys;
        this.query = query;
    }

    void run(DN requestedBase, SearchScope scope, Filter filter, ByteString after, PositionedEntryVisitor visitor)
            throws BackendException {
        DN base = keys.canonical(requestedBase);
        byte[] baseKey = DnKeys.keyOfCanonical(base);
        long[] candidates = SearchScope.BASE_OBJECT.equals(scope) ? null : query.candidates(filter);
        if (candidates != null) {
            // No read of the base first: a candidate in scope proves it exists (an entry's superiors all do),
            // so the base is looked up only when none is, to tell an empty result from a missing base. A
            // login's search finds its one candidate, and the lookup was a third of its reads.
            if (!visitCandidates(candidates, idAfter(after), base, scope, visitor) && !exists(baseKey)) {
                throw missing(requestedBase);
            }
            return;
        }
        long baseId = storage.read(() -> entries.id(null, baseKey));
        if (baseId < 0) {
            throw missing(requestedBase);
        }
        if (SearchScope.BASE_OBJECT.equals(scope)) {
            if (after != null) {
                return; // the one entry was passed already
            }
            // A rename may have moved the id's entry away since dn2id was read: visitAll drops it then.
            Entry entry = storage.read(() -> entries.entry(null, baseId));
            if (entry != null) {
                visitAll(List.of(new Found(entry, byKey(baseKey))), base, scope, visitor);
            }
            return;
        }
        walk(baseKey, keyAfter(after), base, scope, visitor);
    }

    private boolean exists(byte[] key) throws BackendException {
        return storage.read(() -> entries.id(null, key)) >= 0;
    }

    private static BackendException missing(DN base) {
        return new BackendException(ResultCode.NO_SUCH_OBJECT, "The entry " + base + " does not exist");
    }

    /** Where the candidates resume: the id in {@code after}, or -1 (from the first). */
    private static long idAfter(ByteString after) throws BackendException {
        if (after == null) {
            return -1;
        }
        if (after.length() != 9 || after.byteAt(0) != BY_ID) {
            throw changedPlan();
        }
        return after.subSequence(1, 9).toByteString().toLong();
    }

    /** The dn2id key in {@code after}, or {@code null} (from the first). */
    private static byte[] keyAfter(ByteString after) throws BackendException {
        if (after == null) {
            return null;
        }
        if (after.length() < 1 || after.byteAt(0) != BY_KEY) {
            throw changedPlan();
        }
        return after.subSequence(1, after.length()).toByteArray();
    }

    /**
     * A position of the other kind than this search makes: an index became ready between two pages (or the
     * position was not made here at all).
     */
    private static BackendException changedPlan() {
        return new BackendException(ResultCode.UNWILLING_TO_PERFORM,
                "The search cannot resume from that position: start it again");
    }

    /** @return whether a candidate was in scope (then the base exists) */
    private boolean visitCandidates(long[] ids, long afterId, DN base, SearchScope scope,
                                    PositionedEntryVisitor visitor) throws BackendException {
        int first = 0;
        if (afterId >= 0) {
            int at = Arrays.binarySearch(ids, afterId);
            first = at >= 0 ? at + 1 : -at - 1;
        }
        boolean inScope = false;
        for (int from = first; from < ids.length; from += CHUNK) {
            long[] chunk = Arrays.copyOfRange(ids, from, Math.min(ids.length, from + CHUNK));
            List<Found> found = storage.read(() -> fetchIds(chunk));
            for (Found f : found) {
                if (f.entry().getName().isInScopeOf(base, scope)) {
                    inScope = true;
                    if (!visitor.visit(f.entry(), f.position())) {
                        return true;
                    }
                }
            }
        }
        return inScope;
    }

    private void walk(byte[] baseKey, byte[] afterKey, DN base, SearchScope scope, PositionedEntryVisitor visitor)
            throws BackendException {
        byte[] end = DnKeys.subtreeEnd(baseKey);
        boolean childrenOnly = SearchScope.SINGLE_LEVEL.equals(scope);
        byte[] from = SearchScope.WHOLE_SUBTREE.equals(scope) ? baseKey : DnKeys.childrenStart(baseKey);
        if (afterKey != null) {
            // Past the last key passed: its children follow it in a subtree walk, a one-level walk skips them.
            byte[] next = childrenOnly ? DnKeys.subtreeEnd(afterKey) : DnKeys.childrenStart(afterKey);
            if (DnKeys.compare(next, from) > 0) {
                from = next;
            }
            if (DnKeys.compare(from, end) >= 0) {
                return;
            }
        }
        while (from != null) {
            byte[] start = from;
            Batch batch = storage.read(() -> {
                Entries.Chunk chunk = entries.scan(start, end, childrenOnly, CHUNK);
                return new Batch(fetchKeys(chunk), chunk.resume());
            });
            if (!visitAll(batch.found(), base, scope, visitor)) {
                return;
            }
            from = batch.resume();
        }
    }

    private List<Found> fetchIds(long[] ids) throws BackendException {
        List<Found> result = new ArrayList<>(ids.length);
        for (long id : ids) {
            Entry entry = entries.entry(null, id);
            if (entry != null) {
                result.add(new Found(entry, new ByteStringBuilder(9).appendByte(BY_ID).appendLong(id).toByteString()));
            }
        }
        return result;
    }

    private List<Found> fetchKeys(Entries.Chunk chunk) throws BackendException {
        List<Found> result = new ArrayList<>(chunk.ids().length);
        for (int i = 0; i < chunk.ids().length; i++) {
            Entry entry = entries.entry(null, chunk.ids()[i]);
            if (entry != null) {
                result.add(new Found(entry, byKey(chunk.keys()[i])));
            }
        }
        return result;
    }

    private static ByteString byKey(byte[] key) {
        return new ByteStringBuilder(key.length + 1).appendByte(BY_KEY).appendBytes(key).toByteString();
    }

    /** Passes on the entries in scope (index candidates may lie anywhere); {@code false} once told to stop. */
    private static boolean visitAll(List<Found> batch, DN base, SearchScope scope, PositionedEntryVisitor visitor)
            throws BackendException {
        for (Found found : batch) {
            if (found.entry().getName().isInScopeOf(base, scope) && !visitor.visit(found.entry(), found.position())) {
                return false;
            }
        }
        return true;
    }
}
