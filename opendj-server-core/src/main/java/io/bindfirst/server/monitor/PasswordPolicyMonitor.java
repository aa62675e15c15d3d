package io.bindfirst.server.monitor;

import org.forgerock.opendj.ldap.DN;

import io.bindfirst.server.auth.Accounts;

/**
 * {@code cn=Password Policy,cn=monitor}: what the password policies are doing: accounts with failed binds
 * counted (in memory), accounts locked by failed binds and grace logins used since the start, and what successful
 * binds had written after their answers (last-login times, rehashes) and how that queue stands.
 */
final class PasswordPolicyMonitor implements MonitorEntry {
    private static final DN NAME = MonitorBackend.BASE_DN.child("cn", "Password Policy");

    private final Accounts accounts;

    PasswordPolicyMonitor(Accounts accounts) {
        this.accounts = accounts;
    }

    @Override
    public DN name() {
        return NAME;
    }

    @Override
    public void addValues(MonitorValues out) {
        out.add("ds-mon-accounts-with-failed-binds", accounts.accountsWithFailures())
                .add("ds-mon-lockouts", accounts.locksWritten())
                .add("ds-mon-grace-logins", accounts.graceLoginsUsed())
                .add("ds-mon-last-logins-queued", accounts.afterBind().lastLoginsQueued())
                .add("ds-mon-rehashes-queued", accounts.afterBind().rehashesQueued())
                .add("ds-mon-rehashes-postponed", accounts.afterBind().rehashesPostponed())
                .add("ds-mon-deferred-writes", accounts.afterBind().writes().written())
                .add("ds-mon-deferred-writes-dropped", accounts.afterBind().writes().dropped())
                .add("ds-mon-deferred-writes-waiting", accounts.afterBind().writes().waiting());
    }
}
