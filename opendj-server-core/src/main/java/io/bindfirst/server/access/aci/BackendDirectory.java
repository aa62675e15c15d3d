package io.bindfirst.server.access.aci;

import java.time.Clock;
import java.util.function.BiPredicate;

import org.forgerock.opendj.ldap.DN;
import org.forgerock.opendj.ldap.Entry;

import io.bindfirst.server.backend.Backend;
import io.bindfirst.server.backend.BackendException;
import io.bindfirst.server.backend.Backends;

/**
 * Bind rules' view of the directory: entries read from the backends, and group membership from the server's
 * group index (static groups, nested; kept true by every write before it is acknowledged).
 */
public final class BackendDirectory implements AciDirectory {
    private final Backends backends;
    private final BiPredicate<DN, DN> membership;
    private final Clock clock;

    /** @param membership whether a user (first) is a member of a group (second), directly or nested */
    public BackendDirectory(Backends backends, BiPredicate<DN, DN> membership, Clock clock) {
        this.backends = backends;
        this.membership = membership;
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
        return membership.test(user, group);
    }

    @Override
    public Clock clock() {
        return clock;
    }
}
