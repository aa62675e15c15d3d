package io.bindfirst.it.support;

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import org.forgerock.opendj.ldap.DN;
import org.forgerock.opendj.ldap.Entry;
import org.forgerock.opendj.ldap.Filter;
import org.forgerock.opendj.ldap.SearchScope;
import org.forgerock.opendj.ldap.schema.Schema;

import io.bindfirst.backend.je.JeBackendProvider;
import io.bindfirst.server.backend.Backend;
import io.bindfirst.server.backend.BackendConfig;
import io.bindfirst.server.backend.BackendException;
import io.bindfirst.server.backend.BackendMaintenance;
import io.bindfirst.server.backend.BackendProvider;
import io.bindfirst.server.backend.EntryChange;
import io.bindfirst.server.backend.EntryUpdate;
import io.bindfirst.server.backend.EntryVisitor;

/**
 * Test-only backend type {@code slow-je}: the real JE backend, with each search candidate delayed by
 * {@value #DELAY_MS} ms, so that time limits and abandon can be seen working on a small data set.
 */
public final class SlowSearchBackendProvider implements BackendProvider {
    public static final String TYPE = "slow-je";
    static final long DELAY_MS = 20;
    /** Searches running now, and the most at once since the last {@link #resetCounters()}. */
    public static final AtomicInteger ACTIVE = new AtomicInteger();
    public static final AtomicInteger MOST_ACTIVE = new AtomicInteger();
    /** Searches that ended because the visitor said stop (abandon, limits, unbind). */
    public static final AtomicInteger STOPPED = new AtomicInteger();

    public static void resetCounters() {
        MOST_ACTIVE.set(ACTIVE.get());
        STOPPED.set(0);
    }

    @Override
    public String type() {
        return TYPE;
    }

    @Override
    public Backend open(BackendConfig config, Schema schema) throws BackendException {
        Backend je = new JeBackendProvider().open(config, schema);
        return new Backend() {
            @Override
            public List<DN> baseDNs() {
                return je.baseDNs();
            }

            @Override
            public Entry getEntry(DN dn) throws BackendException {
                return je.getEntry(dn);
            }

            @Override
            public boolean entryExists(DN dn) throws BackendException {
                return je.entryExists(dn);
            }

            @Override
            public boolean hasSubordinates(DN dn) throws BackendException {
                return je.hasSubordinates(dn);
            }

            @Override
            public void search(DN base, SearchScope scope, Filter filter, EntryVisitor visitor)
                    throws BackendException {
                MOST_ACTIVE.accumulateAndGet(ACTIVE.incrementAndGet(), Math::max);
                try {
                    je.search(base, scope, filter, e -> {
                        try {
                            Thread.sleep(DELAY_MS);
                        } catch (InterruptedException ex) {
                            Thread.currentThread().interrupt();
                            return false;
                        }
                        boolean more = visitor.visit(e);
                        if (!more) {
                            STOPPED.incrementAndGet();
                        }
                        return more;
                    });
                } finally {
                    ACTIVE.decrementAndGet();
                }
            }

            @Override
            public void addEntry(Entry entry) throws BackendException {
                je.addEntry(entry);
            }

            @Override
            public EntryChange modifyEntry(DN dn, EntryUpdate update) throws BackendException {
                return je.modifyEntry(dn, update);
            }

            @Override
            public Entry deleteEntry(DN dn, boolean subtree) throws BackendException {
                return je.deleteEntry(dn, subtree);
            }

            @Override
            public EntryChange renameEntry(DN dn, DN newDN, EntryUpdate update) throws BackendException {
                return je.renameEntry(dn, newDN, update);
            }

            @Override
            public BackendMaintenance maintenance() {
                return je.maintenance();
            }

            @Override
            public void close() {
                je.close();
            }
        };
    }
}
