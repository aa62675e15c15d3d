package io.bindfirst.server.access;

import java.util.List;

import org.forgerock.opendj.ldap.AttributeDescription;
import org.forgerock.opendj.ldap.DN;
import org.forgerock.opendj.ldap.Modification;
import org.forgerock.opendj.ldap.schema.AttributeType;

import io.bindfirst.server.auth.AuthenticationInfo;

/**
 * Every access decision the operations ask for, in one place, so that access control is one class to
 * replace. Each method answers for the requester {@code who} (anonymous, a user, or a root user) and
 * returns {@link AccessDecision#ALLOW} or a refusal with its reason. The caller chooses the result code:
 * most refusals are {@code insufficientAccessRights}, but a compare of an entry the requester may not see
 * answers {@code noSuchObject}, as if it did not exist.
 *
 * <p>Implementations are immutable and thread-safe; {@link #mayRead} runs for each attribute of each
 * entry a search returns, so its allowed path should allocate nothing.
 */
public interface AccessPolicy {

    /** Whether {@code who} may see the entry {@code dn} at all (be given it by a search, or compare it). */
    AccessDecision maySee(AuthenticationInfo who, DN dn);

    /**
     * Whether {@code who} may read attributes of type {@code type} in the entry {@code dn}: be sent their
     * values, and learn from a search filter whether the entry holds a value.
     */
    AccessDecision mayRead(AuthenticationInfo who, DN dn, AttributeType type);

    /** Whether {@code who} may compare {@code attribute} in the entry {@code dn}. */
    AccessDecision mayCompare(AuthenticationInfo who, DN dn, AttributeDescription attribute);

    AccessDecision mayAdd(AuthenticationInfo who, DN dn);

    AccessDecision mayDelete(AuthenticationInfo who, DN dn);

    AccessDecision mayRename(AuthenticationInfo who, DN dn);

    AccessDecision mayModify(AuthenticationInfo who, DN dn, List<Modification> modifications);

    /** Whether {@code who} may change the password of {@code dn} (Password Modify, RFC 3062). */
    AccessDecision mayChangePassword(AuthenticationInfo who, DN dn);

    /**
     * Whether {@code who} may have the server back up a backend: copy all of its data, passwords included,
     * into a directory of the server's host.
     */
    AccessDecision mayBackUp(AuthenticationInfo who);
}
