package io.bindfirst.server.testsupport;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;

import org.forgerock.i18n.LocalizedIllegalArgumentException;
import org.forgerock.opendj.ldap.DN;
import org.forgerock.opendj.ldap.Entry;
import org.forgerock.opendj.ldap.Filter;
import org.forgerock.opendj.ldap.LinkedHashMapEntry;
import org.forgerock.opendj.ldap.ResultCode;
import org.forgerock.opendj.ldap.SearchScope;
import org.forgerock.opendj.ldap.schema.Schema;

import io.bindfirst.server.backend.Backend;
import io.bindfirst.server.backend.BackendException;
import io.bindfirst.server.backend.BackendMaintenance;
import io.bindfirst.server.backend.EntryChange;
import io.bindfirst.server.backend.EntryUpdate;
import io.bindfirst.server.backend.EntryVisitor;
import io.bindfirst.server.backend.ImportItem;
import io.bindfirst.server.backend.ImportRejects;

/**
 * A {@link Backend} held in memory, for tests that run operations without a socket or a database (backend type
 * {@value MemoryBackendProvider#TYPE}). Entries are kept by DN in the SDK's DN order, where an entry's subtree
 * follows it as one run of keys; one lock guards them, and each is copied in and out, as a stored entry is
 * encoded and decoded. Writes refuse what the JE backend refuses ({@code JeBackend}, {@code Writes}), with the
 * same result codes and in the same order of checks.
 *
 * <p>A search passes every entry in scope, as JE's scope walk does when no index narrows the filter: the caller
 * evaluates the filter ({@link Backend#search}), and every caller does. Narrowing here with the filter matcher
 * would drop entries that {@code SearchOperation} matches on what it adds to an entry (entryDN, hasSubordinates,
 * isMemberOf), and would hide a search that stopped evaluating its filter. No search counts as unindexed, so
 * none goes to the slow lane: they run where they start.
 */
public final class MemoryBackend implements Backend, BackendMaintenance {
    private final String id;
    private final List<DN> baseDNs;
    /** {@link #baseDNs} read with {@link #schema}: what the keys are compared with. */
    private final List<DN> canonicalBaseDNs;
    private final Schema schema;
    private final Object lock = new Object();
    /** By DN as {@link #schema} normalizes it. */
    private final NavigableMap<DN, Entry> entries = new TreeMap<>();
    private boolean closed;

    public MemoryBackend(String id, List<DN> baseDNs, Schema schema) {
        this.id = id;
        this.baseDNs = List.copyOf(baseDNs);
        this.schema = schema.asNonStrictSchema();
        this.canonicalBaseDNs = this.baseDNs.stream().map(dn -> DN.valueOf(dn.toString(), this.schema)).toList();
    }

    @Override
    public List<DN> baseDNs() {
        return baseDNs;
    }

    @Override
    public Entry getEntry(DN dn) throws BackendException {
        synchronized (lock) {
            checkOpen();
            Entry e = entries.get(canonical(dn));
            return e == null ? null : copy(e);
        }
    }

    @Override
    public boolean entryExists(DN dn) throws BackendException {
        synchronized (lock) {
            checkOpen();
            return entries.containsKey(canonical(dn));
        }
    }

    @Override
    public boolean hasSubordinates(DN dn) throws BackendException {
        synchronized (lock) {
            checkOpen();
            DN key = canonical(dn);
            DN next = entries.higherKey(key); // the first of its subtree, if it has one
            return next != null && next.isSubordinateOrEqualTo(key);
        }
    }

    @Override
    public void search(DN base, SearchScope scope, Filter filter, EntryVisitor visitor) throws BackendException {
        List<Entry> inScope = new ArrayList<>();
        synchronized (lock) {
            checkOpen();
            DN key = canonical(base);
            if (!entries.containsKey(key)) {
                throw noSuchEntry(base);
            }
            for (Map.Entry<DN, Entry> e : subtree(key, true).entrySet()) {
                if (e.getKey().isInScopeOf(key, scope)) {
                    inScope.add(copy(e.getValue()));
                }
            }
        }
        // Outside the lock, as JE reads committed entries one by one: the visitor may read or write this backend.
        for (Entry e : inScope) {
            if (!visitor.visit(e)) {
                return;
            }
        }
    }

    @Override
    public void addEntry(Entry entry) throws BackendException {
        synchronized (lock) {
            checkOpen();
            DN dn = canonical(entry.getName());
            if (!canonicalBaseDNs.contains(dn)) {
                if (canonicalBaseDNs.stream().noneMatch(dn::isSubordinateOrEqualTo)) {
                    throw new BackendException(ResultCode.NO_SUCH_OBJECT, "The entry " + entry.getName()
                            + " cannot be added because it is not under a base DN of backend " + id);
                }
                if (!entries.containsKey(dn.parent())) {
                    throw new BackendException(ResultCode.NO_SUCH_OBJECT, "The entry " + entry.getName()
                            + " cannot be added because its parent entry " + entry.getName().parent()
                            + " does not exist");
                }
            }
            if (entries.containsKey(dn)) {
                throw new BackendException(ResultCode.ENTRY_ALREADY_EXISTS,
                        "The entry " + entry.getName() + " already exists");
            }
            entries.put(dn, copy(entry));
        }
    }

    @Override
    public EntryChange modifyEntry(DN dn, EntryUpdate update) throws BackendException {
        synchronized (lock) {
            checkOpen();
            DN key = canonical(dn);
            Entry before = entries.get(key);
            if (before == null) {
                throw noSuchEntry(dn);
            }
            Entry after = apply(update, before, dn);
            checkName(after, key, dn, dn);
            entries.put(key, copy(after));
            return new EntryChange(before, after);
        }
    }

    @Override
    public Entry deleteEntry(DN dn, boolean subtree) throws BackendException {
        synchronized (lock) {
            checkOpen();
            DN key = canonical(dn);
            Entry entry = entries.get(key);
            if (entry == null) {
                throw noSuchEntry(dn);
            }
            NavigableMap<DN, Entry> below = subtree(key, false);
            if (!below.isEmpty() && !subtree) {
                throw new BackendException(ResultCode.NOT_ALLOWED_ON_NONLEAF, "The entry " + dn
                        + " cannot be deleted because it has subordinate entries");
            }
            below.clear();
            entries.remove(key);
            return entry;
        }
    }

    /** Checks in JE's order: where the entry may go (before anything is read), the entry, its new parent, the name. */
    @Override
    public EntryChange renameEntry(DN dn, DN newDN, EntryUpdate update) throws BackendException {
        synchronized (lock) {
            checkOpen();
            DN from = canonical(dn);
            DN to = canonical(newDN);
            boolean inPlace = from.equals(to); // a change of case only: the same key
            String cannot = "The entry " + dn + " cannot be moved to " + newDN;
            if (!inPlace && to.isSubordinateOrEqualTo(from)) {
                throw new BackendException(ResultCode.UNWILLING_TO_PERFORM, cannot
                        + ": cannot move an entry below itself");
            }
            if (canonicalBaseDNs.stream().noneMatch(to::isSubordinateOrEqualTo)) {
                throw new BackendException(ResultCode.UNWILLING_TO_PERFORM, cannot
                        + " because that is not under a base DN of backend " + id);
            }
            if (!inPlace && canonicalBaseDNs.contains(from)) {
                throw new BackendException(ResultCode.UNWILLING_TO_PERFORM, cannot
                        + " because it is a base DN of backend " + id);
            }
            Entry before = entries.get(from);
            if (before == null) {
                throw noSuchEntry(dn);
            }
            if (!inPlace && !canonicalBaseDNs.contains(to) && !entries.containsKey(to.parent())) {
                throw new BackendException(ResultCode.NO_SUCH_OBJECT, cannot + " because the new parent entry "
                        + newDN.parent() + " does not exist");
            }
            if (!inPlace && entries.containsKey(to)) {
                throw new BackendException(ResultCode.ENTRY_ALREADY_EXISTS, "The entry " + newDN + " already exists");
            }
            Entry after = apply(update, before, dn);
            checkName(after, to, dn, newDN);
            NavigableMap<DN, Entry> below = subtree(from, false);
            List<Entry> descendants = new ArrayList<>(below.values());
            below.clear();
            entries.remove(from);
            entries.put(to, copy(after));
            for (Entry child : descendants) { // each keeps its content under its renamed DN
                child.setName(child.getName().rename(from, after.getName()));
                entries.put(canonical(child.getName()), child);
            }
            return new EntryChange(before, after);
        }
    }

    @Override
    public BackendMaintenance maintenance() {
        return this;
    }

    /** One entry at a time, parents first (the first start's sample data comes this way). */
    @Override
    public long importEntries(Iterator<Entry> source) throws BackendException {
        long n = 0;
        while (source.hasNext()) {
            addEntry(source.next());
            n++;
        }
        return n;
    }

    @Override
    public <T extends ImportItem> long importEntries(Iterator<T> items, ImportRejects<? super T> rejects)
            throws BackendException {
        long n = 0;
        while (items.hasNext()) {
            T item = items.next();
            try {
                addEntry(item.entry());
                n++;
            } catch (BackendException e) {
                if (!BackendMaintenance.isEntryRefusal(e)) {
                    throw e;
                }
                rejects.rejected(item, e);
            }
        }
        return n;
    }

    @Override
    public long entryCount() throws BackendException {
        synchronized (lock) {
            checkOpen();
            return entries.size();
        }
    }

    @Override
    public void close() {
        synchronized (lock) {
            closed = true;
            entries.clear();
        }
    }

    /** Refuses every call once closed (holding the lock). */
    private void checkOpen() throws BackendException {
        if (closed) {
            throw new BackendException(ResultCode.UNAVAILABLE, "Backend " + id + " is closed");
        }
    }

    /** The entries at and below {@code key} (a live view), or only those below it. */
    private NavigableMap<DN, Entry> subtree(DN key, boolean withKey) {
        NavigableMap<DN, Entry> tail = entries.tailMap(key, withKey);
        for (DN k : tail.keySet()) {
            if (!k.isSubordinateOrEqualTo(key)) {
                return tail.headMap(k, false);
            }
        }
        return tail;
    }

    /**
     * {@code dn} read with this backend's schema: normalization follows each RDN attribute's matching rule, so a
     * DN a caller parsed with another schema must still find the stored entry (JE's {@code DnKeys.canonical}).
     */
    private DN canonical(DN dn) throws BackendException {
        try {
            return DN.valueOf(dn.toString(), schema);
        } catch (LocalizedIllegalArgumentException e) {
            throw new BackendException(ResultCode.INVALID_DN_SYNTAX, "Invalid DN " + dn, e);
        }
    }

    /**
     * The caller's update of a copy of {@code before}; its argument or state errors are its bugs, answered
     * {@code OTHER} as JE answers them, and its BackendException passes unchanged.
     */
    private static Entry apply(EntryUpdate update, Entry before, DN dn) throws BackendException {
        try {
            return update.apply(copy(before));
        } catch (IllegalArgumentException | IllegalStateException e) {
            throw new BackendException(ResultCode.OTHER, "Internal error: the update of " + dn + " failed", e);
        }
    }

    private void checkName(Entry after, DN expectedKey, DN dn, DN expected) throws BackendException {
        if (after == null || !canonical(after.getName()).equals(expectedKey)) {
            throw new BackendException(ResultCode.OTHER, "Internal error: the update of " + dn + " returned "
                    + (after == null ? "no entry" : "an entry named " + after.getName()) + " instead of " + expected);
        }
    }

    private static BackendException noSuchEntry(DN dn) {
        return new BackendException(ResultCode.NO_SUCH_OBJECT, "The entry " + dn + " does not exist");
    }

    /** A deep copy: the SDK's copy constructor shares attribute objects, and a caller may edit what it gets. */
    private static Entry copy(Entry e) {
        return LinkedHashMapEntry.deepCopyOfEntry(e);
    }
}
