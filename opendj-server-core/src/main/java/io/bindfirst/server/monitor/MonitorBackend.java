package io.bindfirst.server.monitor;

import java.util.List;

import org.forgerock.opendj.ldap.DN;
import org.forgerock.opendj.ldap.Entry;
import org.forgerock.opendj.ldap.Filter;
import org.forgerock.opendj.ldap.ResultCode;
import org.forgerock.opendj.ldap.SearchScope;
import org.forgerock.opendj.ldap.schema.Schema;

import io.bindfirst.server.backend.BackendException;
import io.bindfirst.server.backend.EntryVisitor;
import io.bindfirst.server.backend.ReadOnlyBackend;

/**
 * The {@code cn=monitor} subtree as a read-only {@link Backend}, so searches (every scope, filters, attribute
 * selection, limits) and compares reach it as they reach any stored entry. Its entries are fixed at start; their
 * values are not: each entry is built from the live server parts when a search or a read reaches it, and only
 * the entries in a search's scope are built. Nothing is cached, so no read sees a stale number.
 *
 * <p>Writes are refused as the configuration's are: {@code unwillingToPerform}.
 */
public final class MonitorBackend implements ReadOnlyBackend {
    public static final DN BASE_DN = DN.valueOf("cn=monitor");

    private final Schema schema;
    /** Parents before children; the first is {@link #BASE_DN}. */
    private final List<MonitorEntry> entries;

    MonitorBackend(Schema schema, List<MonitorEntry> entries) {
        if (entries.isEmpty() || !entries.get(0).name().equals(BASE_DN)) {
            throw new IllegalArgumentException("the first monitor entry must be " + BASE_DN);
        }
        this.schema = schema;
        this.entries = List.copyOf(entries);
    }

    @Override
    public List<DN> baseDNs() {
        return List.of(BASE_DN);
    }

    @Override
    public Entry getEntry(DN dn) {
        MonitorEntry e = find(dn);
        return e == null ? null : build(e);
    }

    @Override
    public boolean entryExists(DN dn) {
        return find(dn) != null;
    }

    @Override
    public boolean hasSubordinates(DN dn) {
        for (MonitorEntry e : entries) {
            if (e.name().isChildOf(dn)) {
                return true;
            }
        }
        return false;
    }

    @Override
    public void search(DN base, SearchScope scope, Filter filter, EntryVisitor visitor) throws BackendException {
        if (find(base) == null) {
            throw new BackendException(ResultCode.NO_SUCH_OBJECT, "The entry " + base + " does not exist");
        }
        for (MonitorEntry e : entries) {
            if (e.name().isInScopeOf(base, scope) && !visitor.visit(build(e))) {
                return;
            }
        }
    }

    private MonitorEntry find(DN dn) {
        for (MonitorEntry e : entries) {
            if (e.name().equals(dn)) {
                return e;
            }
        }
        return null;
    }

    private Entry build(MonitorEntry e) {
        MonitorValues values = new MonitorValues(schema, e.name());
        e.addValues(values);
        return values.entry();
    }

    @Override
    public void close() {
        // Nothing held: the entries read parts of the server that close themselves.
    }
}
