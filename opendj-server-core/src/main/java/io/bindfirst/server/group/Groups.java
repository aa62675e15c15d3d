package io.bindfirst.server.group;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.forgerock.opendj.ldap.DN;
import org.forgerock.opendj.ldap.Entry;
import org.forgerock.opendj.ldap.Filter;
import org.forgerock.opendj.ldap.SearchScope;
import org.forgerock.opendj.ldap.schema.Schema;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.bindfirst.server.backend.Backend;
import io.bindfirst.server.backend.BackendException;
import io.bindfirst.server.backend.Backends;
import io.bindfirst.server.commit.AfterAnswer;
import io.bindfirst.server.commit.Change;
import io.bindfirst.server.commit.ChangeListener;

/**
 * Static groups ({@code groupOfNames}, {@code groupOfUniqueNames}) of the user backends, nested: a group named
 * as a member of another makes its members members of that one too; cycles end where they close. Answers from
 * memory ({@link GroupIndex}), fast enough to be asked by access control on every operation; loaded at start
 * and kept true by every write before the write is acknowledged ({@link #written}, called by every write
 * operation after its transaction).
 */
public final class Groups implements ChangeListener {
    private static final Logger LOG = LoggerFactory.getLogger(Groups.class);
    /** What the start-up load asks the backends for; entries are checked again here. */
    static final Filter GROUP_FILTER = Filter.valueOf("(|(objectClass=groupOfNames)(objectClass=groupOfUniqueNames))");

    private final Backends backends;
    private final GroupIndex index;
    private final IsMemberOf isMemberOf;

    /**
     * @param memberOfAlias whether {@code memberOf} is served as well, with the values of {@code isMemberOf}
     */
    public Groups(Schema schema, Backends backends, boolean memberOfAlias) {
        this.backends = backends;
        this.index = new GroupIndex(schema);
        this.isMemberOf = new IsMemberOf(this, schema, memberOfAlias);
    }

    /** Reads every group entry of the user backends into memory; the server calls it once, before listening. */
    public int load() throws BackendException {
        long t0 = System.nanoTime();
        List<Entry> found = new ArrayList<>();
        for (Backend b : backends.userBackends()) {
            for (DN base : b.baseDNs()) {
                if (!b.entryExists(base)) {
                    continue;
                }
                b.search(base, SearchScope.WHOLE_SUBTREE, GROUP_FILTER, e -> {
                    if (GroupEntry.isGroup(e)) {
                        found.add(e);
                    }
                    return true;
                });
            }
        }
        index.load(found);
        LOG.info("Loaded {} groups in {} ms", found.size(), (System.nanoTime() - t0) / 1_000_000);
        return found.size();
    }

    /** Whether {@code user} is a member of {@code group}, directly or through nested groups. */
    public boolean isMember(DN user, DN group) {
        return index.isMember(user, group);
    }

    /** The groups {@code user} belongs to, directly or through nested groups. */
    public Set<DN> groupsOf(DN user) {
        return index.groupsOf(user);
    }

    /** Every DN a member of {@code group}, directly or through nested groups (nested groups included). */
    public List<DN> membersOf(DN group) {
        return index.membersOf(group);
    }

    /** Whether {@code dn} is a group entry. */
    public boolean isGroup(DN dn) {
        return index.isGroup(dn);
    }

    /** How many groups the index holds. */
    public int size() {
        return index.size();
    }

    /** The virtual attribute {@code isMemberOf} (and its alias {@code memberOf}, when configured). */
    public IsMemberOf isMemberOf() {
        return isMemberOf;
    }

    /** The groups that name {@code dn}, or an entry below it, directly: referential integrity's work. */
    Set<DN> groupsNamingAtOrBelow(DN dn) {
        return index.groupsNamingAtOrBelow(dn);
    }

    /**
     * Makes the index true after a committed change, before it is acknowledged. The groups it touched (the entry
     * itself when it is or was a group, and for a delete or a rename every group at or below it) are read again
     * from their backend, so writes that reach here in another order than they committed still leave the index
     * with what is stored last.
     */
    @Override
    public void committed(Change change, AfterAnswer afterAnswer) {
        Entry before = change.before();
        Entry after = change.after();
        Set<DN> touched = new LinkedHashSet<>();
        Map<DN, Entry> asWritten = new HashMap<>();
        if (before != null) {
            if (GroupEntry.isGroup(before)) {
                touched.add(before.getName());
            }
            if (change.leftItsDn()) {
                for (DN g : index.groupsAtOrBelow(before.getName())) {
                    touched.add(g);
                    if (after != null) {
                        touched.add(g.rename(before.getName(), after.getName()));
                    }
                }
            }
        }
        if (after != null && GroupEntry.isGroup(after)) {
            touched.add(after.getName());
            asWritten.put(after.getName(), after);
        }
        if (touched.isEmpty()) {
            return;
        }
        index.refresh(touched, this::stored, asWritten);
    }

    private Entry stored(DN dn) throws BackendException {
        Backend b = backends.backendFor(dn);
        return b == null ? null : b.getEntry(dn);
    }
}
