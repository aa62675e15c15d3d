package io.bindfirst.backend.je;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.forgerock.opendj.ldap.DN;
import org.forgerock.opendj.ldap.Entry;
import org.forgerock.opendj.ldap.Filter;
import org.forgerock.opendj.ldap.ResultCode;
import org.forgerock.opendj.ldap.SearchScope;

import io.bindfirst.server.backend.BackendException;
import io.bindfirst.server.backend.EntryVisitor;

/**
 * Runs searches: index candidates when the filter allows, else a walk of the scope's dn2id key range.
 * Entries are read in chunks, each in its own {@link JeStorage#read}, and handed to the visitor between
 * chunks: a retried chunk never delivers an entry twice, and no cursor stays open while the visitor works
 * (it may be writing to a slow client). A search is not a snapshot: an entry renamed while it runs is
 * passed on under the DN id2entry holds when read, and only if that DN is in scope.
 */
final class Search {
    private static final int CHUNK = 256;

    private record Batch(List<Entry> entries, byte[] resume) {
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

    void run(DN requestedBase, SearchScope scope, Filter filter, EntryVisitor visitor) throws BackendException {
        DN base = keys.canonical(requestedBase);
        byte[] baseKey = DnKeys.keyOfCanonical(base);
        long baseId = storage.read(() -> entries.id(null, baseKey));
        if (baseId < 0) {
            throw new BackendException(ResultCode.NO_SUCH_OBJECT, "The entry " + requestedBase + " does not exist");
        }
        if (SearchScope.BASE_OBJECT.equals(scope)) {
            // A rename may have moved the id's entry away since dn2id was read: visitAll drops it then.
            Entry entry = storage.read(() -> entries.entry(null, baseId));
            if (entry != null) {
                visitAll(List.of(entry), base, scope, visitor);
            }
            return;
        }
        long[] candidates = query.candidates(filter);
        if (candidates != null) {
            visitCandidates(candidates, base, scope, visitor);
        } else {
            walk(baseKey, base, scope, visitor);
        }
    }

    private void visitCandidates(long[] ids, DN base, SearchScope scope, EntryVisitor visitor)
            throws BackendException {
        for (int from = 0; from < ids.length; from += CHUNK) {
            long[] chunk = Arrays.copyOfRange(ids, from, Math.min(ids.length, from + CHUNK));
            if (!visitAll(storage.read(() -> fetch(chunk)), base, scope, visitor)) {
                return;
            }
        }
    }

    private void walk(byte[] baseKey, DN base, SearchScope scope, EntryVisitor visitor) throws BackendException {
        byte[] end = DnKeys.subtreeEnd(baseKey);
        boolean childrenOnly = SearchScope.SINGLE_LEVEL.equals(scope);
        byte[] from = SearchScope.WHOLE_SUBTREE.equals(scope) ? baseKey : DnKeys.childrenStart(baseKey);
        while (from != null) {
            byte[] start = from;
            Batch batch = storage.read(() -> {
                Entries.Chunk chunk = entries.scan(start, end, childrenOnly, CHUNK);
                return new Batch(fetch(chunk.ids()), chunk.resume());
            });
            if (!visitAll(batch.entries(), base, scope, visitor)) {
                return;
            }
            from = batch.resume();
        }
    }

    private List<Entry> fetch(long[] ids) throws BackendException {
        List<Entry> result = new ArrayList<>(ids.length);
        for (long id : ids) {
            Entry entry = entries.entry(null, id);
            if (entry != null) {
                result.add(entry);
            }
        }
        return result;
    }

    /** Passes on the entries in scope (index candidates may lie anywhere); {@code false} once told to stop. */
    private static boolean visitAll(List<Entry> batch, DN base, SearchScope scope, EntryVisitor visitor)
            throws BackendException {
        for (Entry entry : batch) {
            if (entry.getName().isInScopeOf(base, scope) && !visitor.visit(entry)) {
                return false;
            }
        }
        return true;
    }
}
