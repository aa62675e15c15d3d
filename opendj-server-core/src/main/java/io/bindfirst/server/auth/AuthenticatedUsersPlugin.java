package io.bindfirst.server.auth;

import java.util.Map;
import java.util.Set;

import org.forgerock.opendj.ldap.DN;
import org.forgerock.opendj.ldap.Entry;
import org.forgerock.opendj.ldap.ResultCode;

import io.bindfirst.server.ServerContext;
import io.bindfirst.server.backend.EntryChange;
import io.bindfirst.server.plugin.CompletedOperationView;
import io.bindfirst.server.plugin.OperationType;
import io.bindfirst.server.plugin.Plugin;
import io.bindfirst.server.plugin.PluginPhase;

/**
 * Keeps every connection's identity true when the directory changes under it:
 * <ul>
 * <li>modify of E: each connection bound as E gets an {@link AuthenticationInfo} built from the new entry
 * (its limits); if the modify disabled or locked the account, those connections are disconnected;</li>
 * <li>delete of E (or an ancestor): every connection bound at or below E is deregistered and disconnected
 * with a notice of disconnection;</li>
 * <li>modify DN of E (or an ancestor): every connection bound at or below E is re-keyed to its new DN, so
 * WhoAmI answers the new DN right after the rename's response.</li>
 * </ul>
 * A bind whose failure locked its account (password policy lockout) carries that change, and is treated as
 * the modify it is. Not ADD: a new entry has no connection bound to it, since a bind can succeed only once the
 * add has committed. Password Modify: before its response (post-operation), each connection bound as the
 * account gets the state of the new entry (an administrator's reset restricts it, the user's own change frees
 * it). The race with a bind that is
 * still running is closed on the bind's side ({@link WriteEpoch}). Snapshots are iterated, never live sets.
 */
public final class AuthenticatedUsersPlugin implements Plugin {
    private static final Set<Subscription> SUBSCRIPTIONS = Set.of(
            new Subscription(PluginPhase.POST_RESPONSE, OperationType.MODIFY),
            new Subscription(PluginPhase.POST_RESPONSE, OperationType.DELETE),
            new Subscription(PluginPhase.POST_RESPONSE, OperationType.MODIFY_DN),
            new Subscription(PluginPhase.POST_RESPONSE, OperationType.BIND),
            new Subscription(PluginPhase.POST_OPERATION, OperationType.EXTENDED));

    private final AuthenticatedUsers<BoundConnection> users;
    private final Accounts accounts;

    public AuthenticatedUsersPlugin(ServerContext server) {
        this.users = server.authenticatedUsers();
        this.accounts = server.accounts();
    }

    @Override
    public Set<Subscription> subscriptions() {
        return SUBSCRIPTIONS;
    }

    /**
     * Password Modify changes the account's state (a user's own change ends the restriction of an administrator's
     * reset): its connections get the new state before the response, so the client's next request sees it.
     */
    @Override
    public void postOperation(CompletedOperationView op) {
        if (op.resultCode() == ResultCode.SUCCESS && op.change().isPresent()) {
            modified(op.change().get().after());
        }
    }

    @Override
    public void postResponse(CompletedOperationView op) {
        if (op.change().isEmpty()) {
            return;
        }
        EntryChange change = op.change().get();
        if (op.operationType() == OperationType.BIND) { // failed, and locked the account
            modified(change.after());
            return;
        }
        if (op.resultCode() != ResultCode.SUCCESS) {
            return;
        }
        switch (op.operationType()) {
            case MODIFY: modified(change.after()); break;
            case DELETE: deleted(change.before().getName()); break;
            case MODIFY_DN: renamed(change.before().getName(), change.after().getName()); break;
            default: break;
        }
    }

    private void modified(Entry entry) {
        DN dn = entry.getName();
        String refused = accounts.whyRefused(entry);
        AuthenticationInfo refreshed = accounts.authenticationInfo(entry);
        for (BoundConnection c : users.connectionsOf(dn)) {
            if (refused != null) {
                users.remove(dn, c);
                c.disconnect(ResultCode.OTHER, "The account " + dn + " has been " + refused);
            } else {
                c.replaceAuthentication(dn, refreshed);
            }
        }
    }

    private void deleted(DN base) {
        for (Map.Entry<DN, BoundConnection> e : users.connectionsAtOrBelow(base)) {
            users.remove(e.getKey(), e.getValue());
            e.getValue().disconnect(ResultCode.OTHER, "The entry " + e.getKey() + " has been deleted");
        }
    }

    private void renamed(DN oldBase, DN newBase) {
        for (Map.Entry<DN, BoundConnection> e : users.connectionsAtOrBelow(oldBase)) {
            DN oldDN = e.getKey();
            DN newDN = oldDN.rename(oldBase, newBase);
            BoundConnection c = e.getValue();
            // Register under the new DN before dropping the old one, so the connection is never missing
            // from the registry; if it re-bound meanwhile, its new bind owns its registration.
            users.put(newDN, c);
            AuthenticationInfo current = c.authentication();
            boolean moved = c.replaceAuthentication(oldDN, current.withDN(newDN));
            users.remove(oldDN, c);
            if (!moved) {
                AuthenticationInfo now = c.authentication();
                if (now.isAnonymous() || !newDN.equals(now.authenticationDN())) {
                    users.remove(newDN, c);
                }
            }
            // A connection that closed meanwhile may have deregistered only its old DN.
            if (c.isClosed()) {
                users.remove(newDN, c);
            }
        }
    }
}
