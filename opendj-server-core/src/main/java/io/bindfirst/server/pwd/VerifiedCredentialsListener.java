package io.bindfirst.server.pwd;

import java.util.Collection;
import java.util.List;

import org.forgerock.opendj.ldap.ByteString;
import org.forgerock.opendj.ldap.Entry;

import io.bindfirst.server.commit.AfterAnswer;
import io.bindfirst.server.commit.Change;
import io.bindfirst.server.commit.ChangeListener;

/**
 * Drops the {@link VerifiedCredentials} records a change leaves unreachable: those of the stored password values
 * an entry no longer holds under its DN (a password changed or moved to another scheme, the entry deleted or
 * renamed). A record is keyed by the entry and the stored value, so none of them could answer a check again
 * anyway; dropping them at once keeps the bounded cache for records that can. Records of entries below a deleted
 * or renamed subtree's base are left to be evicted (their DNs are in their keys: unreachable too).
 */
public final class VerifiedCredentialsListener implements ChangeListener {
    private final PasswordAttribute password;

    public VerifiedCredentialsListener(PasswordAttribute password) {
        this.password = password;
    }

    @Override
    public void committed(Change change, AfterAnswer afterAnswer) {
        Entry before = change.before();
        VerifiedCredentials verified = password.verifiedCredentials();
        if (before == null || !verified.enabled()) {
            return;
        }
        Collection<ByteString> old = password.storedValues(before);
        if (old.isEmpty()) {
            return;
        }
        Collection<ByteString> kept = change.leftItsDn() ? List.of() : password.storedValues(change.after());
        ByteString dn = null;
        for (ByteString v : old) {
            if (!kept.contains(v)) {
                if (dn == null) {
                    dn = before.getName().toNormalizedByteString();
                }
                verified.forget(dn, v);
            }
        }
    }
}
