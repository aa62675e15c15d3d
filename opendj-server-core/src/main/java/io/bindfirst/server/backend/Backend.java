package io.bindfirst.server.backend;

import java.util.List;
import java.util.Locale;
import java.util.Set;

import org.forgerock.opendj.ldap.Attribute;
import org.forgerock.opendj.ldap.ByteString;
import org.forgerock.opendj.ldap.ByteStringBuilder;
import org.forgerock.opendj.ldap.LinkedHashMapEntry;
import org.forgerock.opendj.ldap.schema.AttributeType;

import org.forgerock.opendj.ldap.DN;
import org.forgerock.opendj.ldap.Entry;
import org.forgerock.opendj.ldap.Filter;
import org.forgerock.opendj.ldap.ResultCode;
import org.forgerock.opendj.ldap.SearchScope;

/**
 * A store of entries under one or more base DNs, as operations use it: reads, searches and writes. The core
 * reaches storage only through this interface; what the tools do with the storage is its
 * {@link #maintenance()}, and what monitoring counts its {@link #statistics()}. Implementations are found with
 * {@link java.util.ServiceLoader} through {@link BackendProvider}.
 *
 * <p>Implementations are thread-safe: many workers call them at once, and none of these calls may take a
 * lock shared by all readers. Engine errors (lock conflicts, deadlocks) are retried inside the backend;
 * what escapes is a {@link BackendException} whose message is safe to show a client.
 */
public interface Backend extends AutoCloseable {

    /** The suffixes this backend holds, in the order configured. */
    List<DN> baseDNs();

    /** The entry with exactly this DN, or {@code null} if there is none. */
    Entry getEntry(DN dn) throws BackendException;

    /**
     * The entry {@code dn} with only some of its attributes, or {@code null}: for the bind path, which needs
     * a few attributes of the entry, so a backend may skip decoding the rest.
     *
     * @param attributeNames lower-case names and OIDs: every name and the OID of each wanted attribute
     *        type (so an attribute is found whichever form it was stored under)
     */
    default Entry getEntry(DN dn, Set<String> attributeNames) throws BackendException {
        Entry full = getEntry(dn);
        if (full == null) {
            return null;
        }
        Entry out = new LinkedHashMapEntry(full.getName());
        for (Attribute a : full.getAllAttributes()) {
            AttributeType t = a.getAttributeDescription().getAttributeType();
            if (attributeNames.contains(t.getOID())
                    || attributeNames.contains(t.getNameOrOID().toLowerCase(Locale.ROOT))) {
                out.addAttribute(a);
            }
        }
        return out;
    }

    /**
     * The entry {@code dn} with only {@code attributeNames}, if the backend holds it in memory and can answer
     * without reading storage, taking a lock a writer may hold, or blocking in any other way; otherwise
     * {@code null}, which says nothing about whether the entry exists. The transport's threads ask this to
     * decide whether a bind is cheap enough to run where it was read ({@link #getEntry(DN, Set)} is the
     * answer that may block). What it returns must be as fresh as what {@code getEntry} would return.
     */
    default Entry cachedEntry(DN dn, Set<String> attributeNames) {
        return null;
    }

    /** Whether an entry with this DN exists (cheaper than reading it). */
    boolean entryExists(DN dn) throws BackendException;

    /** Whether the entry has at least one child. */
    boolean hasSubordinates(DN dn) throws BackendException;

    /**
     * Calls {@code visitor} with every entry within {@code scope} of {@code base} that may match
     * {@code filter}. The backend narrows candidates with its indexes where it can and otherwise walks
     * the scope's key range; it need not evaluate the filter exactly (the caller does), but it never
     * passes an entry outside the scope. Stops early when the visitor returns {@code false}.
     *
     * @throws BackendException with {@code NO_SUCH_OBJECT} if {@code base} does not exist
     */
    void search(DN base, SearchScope scope, Filter filter, EntryVisitor visitor) throws BackendException;

    /**
     * {@link #search(DN, SearchScope, Filter, EntryVisitor)} resumed: every candidate in the backend's order that
     * comes after the one at {@code after} ({@code null}: from the first), each passed with its position. The
     * order is the same from one call to the next for the same base, scope and filter, so a client can page
     * through a result without the server keeping anything between pages (the Simple Paged Results control);
     * entries added or renamed between calls may be missed or passed again, as RFC 2696 allows. A position is
     * the backend's own and opaque to the caller. This default counts candidates (so a resumed search walks
     * again what it skips): right for small backends; a backend that can seek overrides it.
     *
     * @throws BackendException {@code UNWILLING_TO_PERFORM} for a position this backend could not have made;
     *         {@code NO_SUCH_OBJECT} as for the search
     */
    default void search(DN base, SearchScope scope, Filter filter, ByteString after, PositionedEntryVisitor visitor)
            throws BackendException {
        long skip = 0;
        if (after != null) {
            if (after.length() != 9 || after.byteAt(0) != ORDINAL_POSITION) {
                throw new BackendException(ResultCode.UNWILLING_TO_PERFORM, "The search position is not valid");
            }
            skip = after.subSequence(1, 9).toByteString().toLong();
        }
        long first = skip;
        long[] seen = {0};
        search(base, scope, filter, entry -> {
            long n = ++seen[0];
            return n <= first || visitor.visit(entry, new ByteStringBuilder(9).appendByte(ORDINAL_POSITION)
                    .appendLong(n).toByteString());
        });
    }

    /** The first byte of the default positions: a candidate's ordinal number follows. */
    byte ORDINAL_POSITION = 'o';

    /**
     * Whether {@link #search} with {@code filter} would walk its whole scope rather than narrow it with
     * indexes: such a search is sent to the slow lane. Cheap: decided from the filter and the index
     * configuration, without reading storage.
     */
    default boolean isUnindexed(Filter filter) {
        return false;
    }

    /**
     * Adds one entry, whose parent must exist unless the entry is a base DN.
     *
     * @throws BackendException {@code ENTRY_ALREADY_EXISTS}, {@code NO_SUCH_OBJECT} for a missing parent
     */
    void addEntry(Entry entry) throws BackendException;

    /**
     * Replaces the entry {@code dn} with {@code update.apply(current)} in one transaction: read with a write
     * lock, compute, store, update indexes, commit. The new entry must keep the DN.
     *
     * @throws BackendException {@code NO_SUCH_OBJECT} if there is no such entry, or what {@code update} threw
     */
    EntryChange modifyEntry(DN dn, EntryUpdate update) throws BackendException;

    /**
     * Deletes the entry {@code dn}; with {@code subtree}, also every entry below it, in one transaction.
     *
     * @return the deleted entry {@code dn} itself
     * @throws BackendException {@code NO_SUCH_OBJECT}; {@code NOT_ALLOWED_ON_NONLEAF} when it has children and
     *         {@code subtree} is false
     */
    Entry deleteEntry(DN dn, boolean subtree) throws BackendException;

    /**
     * Moves the entry {@code dn} and its whole subtree to {@code newDN} in one transaction. The entry itself
     * becomes {@code update.apply(current)}, whose name must be {@code newDN} (the caller adjusts RDN
     * attribute values); every descendant keeps its content under its renamed DN.
     *
     * @throws BackendException {@code NO_SUCH_OBJECT} (entry or new parent missing), {@code ENTRY_ALREADY_EXISTS}
     *         ({@code newDN} taken), {@code UNWILLING_TO_PERFORM} (new DN inside the moved subtree, or outside
     *         this backend's base DNs), or what {@code update} threw
     */
    EntryChange renameEntry(DN dn, DN newDN, EntryUpdate update) throws BackendException;

    /**
     * What the tools do with this backend's storage: import, backup, index rebuild, verification, the entry count.
     * This default refuses each of them, for a backend that has no storage of its own ({@code cn=config},
     * {@code cn=monitor}).
     */
    default BackendMaintenance maintenance() {
        return BackendMaintenance.REFUSED;
    }

    /** What this backend counts for monitoring: {@link BackendStatistics#NONE} for one that keeps no cache. */
    default BackendStatistics statistics() {
        return BackendStatistics.NONE;
    }

    /** Its replication group, or {@link Replication#NONE} (this default) for a backend that is not replicated. */
    default Replication replication() {
        return Replication.NONE;
    }

    /** Flushes and closes the storage; further calls fail. */
    @Override
    void close();
}
