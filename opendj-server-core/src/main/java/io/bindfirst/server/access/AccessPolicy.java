package io.bindfirst.server.access;

import java.util.List;

import org.forgerock.opendj.ldap.DN;
import org.forgerock.opendj.ldap.Modification;

import io.bindfirst.server.auth.AuthenticationInfo;

/**
 * The access rules until full access control comes: anyone (anonymous too) may bind and read everything
 * but passwords; a user may change their own password; only root users add, delete, rename, modify
 * other entries or read {@code userPassword}. Each check returns {@code null} when allowed, else the
 * message for an {@code insufficientAccessRights} result.
 */
public final class AccessPolicy {

    public String checkAdd(AuthenticationInfo who, DN dn) {
        return who.root() ? null : "Only root users may add entries";
    }

    public String checkDelete(AuthenticationInfo who, DN dn) {
        return who.root() ? null : "Only root users may delete entries";
    }

    public String checkRename(AuthenticationInfo who, DN dn) {
        return who.root() ? null : "Only root users may rename entries";
    }

    public String checkModify(AuthenticationInfo who, DN dn, List<Modification> modifications) {
        if (who.root()) {
            return null;
        }
        if (who.isAnonymous() || !dn.equals(who.authenticationDN())) {
            return "Only root users may modify other users' entries";
        }
        for (Modification m : modifications) {
            if (!m.getAttribute().getAttributeDescription().getAttributeType().hasName("userPassword")) {
                return "Users may change only their own userPassword, not "
                        + m.getAttribute().getAttributeDescriptionAsString();
            }
        }
        return null;
    }

    /** Whether {@code who} may change the password of {@code dn} (Password Modify, RFC 3062). */
    public String checkPasswordChange(AuthenticationInfo who, DN dn) {
        if (who.root() || (!who.isAnonymous() && dn.equals(who.authenticationDN()))) {
            return null;
        }
        return "Only root users may change other users' passwords";
    }

    public boolean mayReadPasswords(AuthenticationInfo who) {
        return who.root();
    }
}
