package io.bindfirst.server.backend;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.forgerock.opendj.ldap.DN;
import org.forgerock.opendj.ldap.Entry;
import org.forgerock.opendj.ldap.Filter;
import org.forgerock.opendj.ldap.ResultCode;
import org.forgerock.opendj.ldap.SearchScope;

/**
 * A few entries held in memory and never changed, such as the configuration under {@code cn=config}.
 * Small by design: searches walk every entry.
 */
public final class ReadOnlyMemoryBackend implements ReadOnlyBackend {
    private final DN baseDN;
    private final Map<DN, Entry> entries = new LinkedHashMap<>();

    public ReadOnlyMemoryBackend(DN baseDN, List<Entry> content) {
        this.baseDN = baseDN;
        for (Entry e : content) {
            entries.put(e.getName(), e);
        }
    }

    @Override
    public List<DN> baseDNs() {
        return List.of(baseDN);
    }

    @Override
    public Entry getEntry(DN dn) {
        return entries.get(dn);
    }

    @Override
    public boolean entryExists(DN dn) {
        return entries.containsKey(dn);
    }

    @Override
    public boolean hasSubordinates(DN dn) {
        for (DN d : entries.keySet()) {
            if (d.isChildOf(dn)) {
                return true;
            }
        }
        return false;
    }

    @Override
    public void search(DN base, SearchScope scope, Filter filter, EntryVisitor visitor) throws BackendException {
        if (!entries.containsKey(base)) {
            throw new BackendException(ResultCode.NO_SUCH_OBJECT, "The entry " + base + " does not exist");
        }
        for (Entry e : new ArrayList<>(entries.values())) {
            if (e.getName().isInScopeOf(base, scope) && !visitor.visit(e)) {
                return;
            }
        }
    }

    @Override
    public void close() {
    }
}
