package io.bindfirst.server.monitor;

import org.forgerock.opendj.ldap.DN;

import io.bindfirst.server.auth.AuthenticatedUsers;

/**
 * {@code cn=Authenticated Users,cn=monitor}: how many distinct DNs have connections bound as them. Not the
 * bound connections themselves: counting them would walk every DN's group under the monitor a bind takes.
 */
final class AuthenticatedUsersMonitor implements MonitorEntry {
    private static final DN NAME = MonitorBackend.BASE_DN.child("cn", "Authenticated Users");

    private final AuthenticatedUsers<?> registry;

    AuthenticatedUsersMonitor(AuthenticatedUsers<?> registry) {
        this.registry = registry;
    }

    @Override
    public DN name() {
        return NAME;
    }

    @Override
    public void addValues(MonitorValues out) {
        out.add("ds-mon-authenticated-dns", registry.size());
    }
}
