package io.bindfirst.server.access.aci;

import java.time.Clock;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashSet;
import java.util.Set;

import org.forgerock.opendj.ldap.Attribute;
import org.forgerock.opendj.ldap.ByteString;
import org.forgerock.opendj.ldap.DN;
import org.forgerock.opendj.ldap.Entry;
import org.forgerock.opendj.ldap.schema.Schema;

import io.bindfirst.server.backend.Backend;
import io.bindfirst.server.backend.BackendException;
import io.bindfirst.server.backend.Backends;

/**
 * Bind rules' view of the directory, read from the backends: entries by DN, and static group membership
 * ({@code member} of {@code groupOfNames}, {@code uniqueMember} of {@code groupOfUniqueNames}, nested groups
 * followed breadth-first with each group read once, so a cycle ends).
 */
public final class BackendDirectory implements AciDirectory {
    /** Nested groups followed at most this many groups deep into the nesting, a bound on one decision's reads. */
    private static final int MAX_GROUPS_READ = 256;

    private final Backends backends;
    private final Schema schema;
    private final Clock clock;

    public BackendDirectory(Backends backends, Schema schema, Clock clock) {
        this.backends = backends;
        this.schema = schema;
        this.clock = clock;
    }

    @Override
    public Entry entry(DN dn) {
        Backend b = backends.backendFor(dn);
        if (b == null) {
            return null;
        }
        try {
            return b.getEntry(dn);
        } catch (BackendException e) {
            return null;
        }
    }

    @Override
    public boolean isMember(DN user, DN group) {
        Deque<DN> todo = new ArrayDeque<>();
        Set<DN> seen = new HashSet<>();
        todo.add(group);
        while (!todo.isEmpty() && seen.size() < MAX_GROUPS_READ) {
            DN g = todo.poll();
            if (!seen.add(g)) {
                continue;
            }
            Entry e = entry(g);
            if (e == null) {
                continue;
            }
            for (String type : new String[] {"member", "uniqueMember"}) {
                Attribute a = e.getAttribute(type);
                if (a == null) {
                    continue;
                }
                for (ByteString v : a) {
                    DN m = memberDN(v.toString());
                    if (m == null) {
                        continue;
                    }
                    if (m.equals(user)) {
                        return true;
                    }
                    todo.add(m); // perhaps a nested group; a user entry read as a group names no members
                }
            }
        }
        return false;
    }

    /** A member value as a DN: {@code uniqueMember}'s optional {@code #'0101'B} suffix dropped (RFC 4517 3.3.21). */
    private DN memberDN(String value) {
        String v = value;
        int hash = v.lastIndexOf("#'");
        if (hash > 0 && v.endsWith("'B")) {
            v = v.substring(0, hash);
        }
        try {
            return DN.valueOf(v, schema);
        } catch (RuntimeException e) {
            return null;
        }
    }

    @Override
    public Clock clock() {
        return clock;
    }
}
