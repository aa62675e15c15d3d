package io.bindfirst.server.access;

import java.util.List;

import org.forgerock.opendj.ldap.AttributeDescription;
import org.forgerock.opendj.ldap.DN;
import org.forgerock.opendj.ldap.Entry;
import org.forgerock.opendj.ldap.Modification;
import org.forgerock.opendj.ldap.schema.AttributeType;

import io.bindfirst.server.commit.AfterAnswer;
import io.bindfirst.server.commit.Change;
import io.bindfirst.server.commit.ChangeListener;

/**
 * Every access decision the operations ask for, in one place, so that access control is one class to
 * replace. Each method answers for the {@link Requester} (anonymous, a user, or a root user, with the facts of
 * its connection) and returns {@link AccessDecision#ALLOW} or a refusal with its reason. The caller chooses the
 * result code: most refusals are {@code insufficientAccessRights}, but a compare of an entry the requester may
 * not see answers {@code noSuchObject}, as if it did not exist.
 *
 * <p>Decisions about an existing entry are given the entry as stored, because rules may depend on its values
 * (a target filter, an attribute naming its owner). Implementations are immutable or safely published, and
 * thread-safe; {@link #mayRead} runs for each attribute of each entry a search returns, so its allowed path
 * should allocate nothing.
 */
public interface AccessPolicy extends ChangeListener {

    /**
     * Whether {@code who} may search below {@code base} at all: some subtrees (the configuration, the monitor)
     * are closed as a whole, whatever their entries would allow.
     */
    AccessDecision maySearchUnder(Requester who, DN base);

    /** Whether {@code who} may see {@code entry} at all: be given it by a search, or compare it. */
    AccessDecision maySee(Requester who, Entry entry);

    /** Whether {@code who} may be sent the values of attributes of type {@code type} in {@code entry}. */
    AccessDecision mayRead(Requester who, Entry entry, AttributeType type);

    /**
     * Whether {@code who} may use attributes of type {@code type} of {@code entry} in a search filter: learn
     * from whether the entry matches whether it holds a value. Where not, the filter sees the attribute absent.
     */
    AccessDecision maySearch(Requester who, Entry entry, AttributeType type);

    /** Whether {@code who} may compare {@code attribute} in {@code entry}. */
    AccessDecision mayCompare(Requester who, Entry entry, AttributeDescription attribute);

    /** Whether {@code who} may add {@code entry} (not yet stored: its DN and attributes are the request's). */
    AccessDecision mayAdd(Requester who, Entry entry);

    AccessDecision mayDelete(Requester who, Entry entry);

    /** Whether {@code who} may rename or move {@code entry} to {@code newDN}. */
    AccessDecision mayRename(Requester who, Entry entry, DN newDN);

    AccessDecision mayModify(Requester who, Entry entry, List<Modification> modifications);

    /** Whether {@code who} may change the password of {@code entry} (Password Modify, RFC 3062). */
    AccessDecision mayChangePassword(Requester who, Entry entry);

    /**
     * Whether {@code who} may act as the user of {@code target}: proxied authorization (RFC 4370) or a SASL
     * authorization identity other than its own.
     */
    AccessDecision mayProxyAs(Requester who, Entry target);

    /**
     * Whether {@code who} may have the server back up a backend: copy all of its data, passwords included,
     * into a directory of the server's host.
     */
    AccessDecision mayBackUp(Requester who);

    /**
     * Whether {@code who} may run a search that no index narrows (it reads every entry in its scope, up to the
     * lookthrough limit): OpenDJ's unindexed-search privilege, where the configuration requires it.
     */
    default AccessDecision mayRunUnindexed(Requester who) {
        return AccessDecision.ALLOW;
    }

    /**
     * Why the access rules {@code entry} would hold are invalid (a message for the client, whose write is refused
     * with {@code invalidAttributeSyntax}), or {@code null}. Asked of every entry an add or modify would store.
     */
    default String invalidRules(Entry entry) {
        return null;
    }

    /**
     * A change committed, before it is acknowledged: a policy that keeps rules from entries takes it into account
     * here, so that the next operation is decided by the rules as written.
     */
    @Override
    default void committed(Change change, AfterAnswer afterAnswer) {
    }
}
