package io.bindfirst.server.auth;

import java.util.Map;

import org.forgerock.opendj.ldap.DN;
import org.forgerock.opendj.ldap.Entry;
import org.forgerock.opendj.ldap.ResultCode;

import io.bindfirst.server.commit.AfterAnswer;
import io.bindfirst.server.commit.Change;
import io.bindfirst.server.commit.ChangeListener;

/**
 * Keeps every connection's identity true when the directory changes under it, before the change is answered:
 * <ul>
 * <li>modify of E (a client's, Password Modify's, the lock a failed bind writes, a grace login): each connection
 * bound as E gets an {@link AuthenticationInfo} built from the new entry (its limits, a pending reset); if the
 * account is now disabled or locked, those connections are deregistered and disconnected;</li>
 * <li>delete of E (or an ancestor): every connection bound at or below E is deregistered and disconnected
 * with a notice of disconnection;</li>
 * <li>modify DN of E (or an ancestor): every connection bound at or below E is re-keyed to its new DN, so
 * WhoAmI answers the new DN as soon as the rename is answered.</li>
 * </ul>
 * A connection closed here is deregistered at once, but the connection whose own write made the change is closed
 * only {@link AfterAnswer after its answer}, so that a user who deletes or disables their own entry reads the
 * result before the notice. Not ADD: a new entry has no connection bound to it, since a bind can succeed only once
 * the add has committed; not bookkeeping, which changes no one's right to authenticate. The race with a bind that
 * is still running is closed on the bind's side ({@link WriteEpoch}, whose listener runs before this one).
 * Snapshots are iterated, never live sets.
 */
public final class AuthenticatedUsersListener implements ChangeListener {
    private final AuthenticatedUsers<BoundConnection> users;
    private final Accounts accounts;

    public AuthenticatedUsersListener(AuthenticatedUsers<BoundConnection> users, Accounts accounts) {
        this.users = users;
        this.accounts = accounts;
    }

    @Override
    public void committed(Change change, AfterAnswer afterAnswer) {
        if (change.bookkeeping()) {
            return;
        }
        switch (change.kind()) {
            case MODIFY -> modified(change.after(), change.origin(), afterAnswer);
            case DELETE -> deleted(change.dnBefore(), change.origin(), afterAnswer);
            case MODIFY_DN -> renamed(change.dnBefore(), change.dnAfter());
            case ADD -> { }
        }
    }

    private void modified(Entry entry, long origin, AfterAnswer afterAnswer) {
        DN dn = entry.getName();
        String refused = accounts.whyRefused(entry);
        AuthenticationInfo refreshed = accounts.authenticationInfo(entry);
        for (BoundConnection c : users.connectionsOf(dn)) {
            if (refused != null) {
                users.remove(dn, c);
                disconnect(c, origin, afterAnswer, "The account " + dn + " has been " + refused);
            } else {
                c.replaceAuthentication(dn, refreshed);
            }
        }
    }

    private void deleted(DN base, long origin, AfterAnswer afterAnswer) {
        for (Map.Entry<DN, BoundConnection> e : users.connectionsAtOrBelow(base)) {
            users.remove(e.getKey(), e.getValue());
            disconnect(e.getValue(), origin, afterAnswer, "The entry " + e.getKey() + " has been deleted");
        }
    }

    private static void disconnect(BoundConnection c, long origin, AfterAnswer afterAnswer, String why) {
        if (c.id() == origin) {
            afterAnswer.add(() -> c.disconnect(ResultCode.OTHER, why));
        } else {
            c.disconnect(ResultCode.OTHER, why);
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
