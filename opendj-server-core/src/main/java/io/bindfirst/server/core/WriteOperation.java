package io.bindfirst.server.core;

import java.util.List;
import java.util.Set;
import java.util.UUID;

import org.forgerock.opendj.ldap.AVA;
import org.forgerock.opendj.ldap.AttributeDescription;
import org.forgerock.opendj.ldap.ByteString;
import org.forgerock.opendj.ldap.DN;
import org.forgerock.opendj.ldap.DecodeException;
import org.forgerock.opendj.ldap.Entry;
import org.forgerock.opendj.ldap.GeneralizedTime;
import org.forgerock.opendj.ldap.LinkedAttribute;
import org.forgerock.opendj.ldap.RDN;
import org.forgerock.opendj.ldap.ResultCode;
import org.forgerock.opendj.ldap.controls.AssertionRequestControl;
import org.forgerock.opendj.ldap.controls.Control;
import org.forgerock.opendj.ldap.controls.GenericControl;
import org.forgerock.opendj.ldap.controls.PasswordPolicyErrorType;
import org.forgerock.opendj.ldap.controls.PasswordPolicyRequestControl;
import org.forgerock.opendj.ldap.controls.PasswordPolicyResponseControl;
import org.forgerock.opendj.ldap.controls.PostReadRequestControl;
import org.forgerock.opendj.ldap.controls.PostReadResponseControl;
import org.forgerock.opendj.ldap.controls.PreReadRequestControl;
import org.forgerock.opendj.ldap.controls.PreReadResponseControl;
import org.forgerock.opendj.ldap.requests.Request;
import org.forgerock.opendj.ldap.responses.Responses;
import org.forgerock.opendj.ldap.responses.Result;

import io.bindfirst.server.access.AccessDecision;
import io.bindfirst.server.access.Requester;
import io.bindfirst.server.auth.AuthenticationInfo;
import io.bindfirst.server.auth.PasswordPolicyRefusal;
import io.bindfirst.server.backend.Backend;
import io.bindfirst.server.backend.BackendException;
import io.bindfirst.server.backend.EntryChange;
import io.bindfirst.server.core.write.WriteException;
import io.bindfirst.server.pwd.PasswordValues;
import io.bindfirst.server.virtual.VirtualEntries;

/**
 * The one path every write takes (add, delete, modify, modify DN, Password Modify), in this order:
 * <ol>
 * <li>{@link #checkRequest()}: what the request alone can tell (the root DSE cannot be added, ...);</li>
 * <li>{@link #checkAccess}: whether the requester may do it, where the request alone decides
 * ({@code insufficientAccessRights}); a decision that depends on the entry as stored is taken in {@link #write}
 * through {@link #require}, on the entry the transaction reads;</li>
 * <li>the backend that holds the target ({@code noSuchObject} if none);</li>
 * <li>{@link #prepare}: what is done before the transaction (build the entry, hash new passwords: a
 * backend may retry an update, and a retry must store the same values);</li>
 * <li>pre-operation plugins;</li>
 * <li>{@link #write}: one backend transaction;</li>
 * <li>the change handed to the {@link io.bindfirst.server.commit.CommitPath}: the access rules, the group index,
 * the write epoch, the failure counts, the verified credentials and the registry of authenticated connections
 * are made true before the result;</li>
 * <li>post-operation plugins, the result, then what the commit path left for after it and the post-response
 * plugins.</li>
 * </ol>
 * The commit step is why this is a template: a bind that read its entry before a write committed finds out
 * from the epoch that it must look again, and the registry's listener finds every connection that registered
 * before the advance (docs/ARCHITECTURE.md, the registry). A write that skipped it could leave a connection bound
 * to an entry that it deleted, renamed or disabled; here no write can skip it.
 */
abstract class WriteOperation extends Operation {
    /** The response control with neither warning nor error: an empty SEQUENCE (the SDK builds none such). */
    private static final Control NO_POLICY_STATE = GenericControl.newControl(PasswordPolicyResponseControl.OID,
            false, ByteString.wrap(new byte[] {0x30, 0x00}));

    /** The Assertion control's filter, or {@code null}. */
    private Assertion assertion;
    /** The Pre-Read and Post-Read controls (RFC 4527), or {@code null}. */
    private PreReadRequestControl preRead;
    private PostReadRequestControl postRead;

    protected WriteOperation(ServerContext server, Session session, int messageId) {
        super(server, session, messageId);
    }

    @Override
    protected final Result execute() {
        try {
            assertion = Assertion.of(control(AssertionRequestControl.DECODER), server.schema());
            preRead = control(PreReadRequestControl.DECODER);
            postRead = control(PostReadRequestControl.DECODER);
        } catch (DecodeException e) {
            return malformedControl(e);
        }
        try {
            Result refused = checkRequest();
            if (refused != null) {
                return refused;
            }
            Result elsewhere = writtenElsewhere();
            if (elsewhere != null) {
                return elsewhere;
            }
            AccessDecision access = checkAccess(accessRequester());
            if (!access.allowed()) {
                return errorResult(ResultCode.INSUFFICIENT_ACCESS_RIGHTS, access.message());
            }
            Backend backend = backendFor(targetDN());
            refused = prepare(backend);
            if (refused != null) {
                return refused;
            }
            Result pre = preOperation();
            if (pre != null) {
                return pre;
            }
            if (cancelRequested()) {
                return cancelled(); // the last point where a write can stop: past it, it commits
            }
            EntryChange change = write(backend);
            committed(change); // every listener of the commit path sees it before the answer
            return withReadEntries(withPolicyState(success(), null), change);
        } catch (PasswordPolicyRefusal e) {
            return withPolicyState(errorResult(e.resultCode(), e.getMessage()), e.error());
        } catch (BackendException e) {
            Result r = errorResult(e.resultCode(), e.getMessage());
            return e.resultCode() == ResultCode.NO_SUCH_OBJECT ? r.setMatchedDN(matchedDN(targetDN())) : r;
        } catch (WriteException e) {
            return errorResult(e.resultCode(), e.getMessage());
        } catch (PasswordValues.Refused e) {
            return errorResult(e.resultCode(), e.getMessage());
        }
    }

    /**
     * The Password Policy response control on a write's result, when the request asked for it (draft-behera 6.2):
     * the policy's error if it refused a new password, else empty.
     */
    private Result withPolicyState(Result result, PasswordPolicyErrorType error) {
        if (hasControl(PasswordPolicyRequestControl.OID)) {
            result.addControl(error == null ? NO_POLICY_STATE : PasswordPolicyResponseControl.newControl(error));
        }
        return result;
    }

    /**
     * RFC 4527: the entry before and after the write, with the attributes each control asks for that the requester
     * may read. Only a write that understands the control gets here with it (a critical one elsewhere is refused,
     * a non-critical one ignored).
     */
    private Result withReadEntries(Result result, EntryChange change) {
        if (preRead != null && understands(PreReadRequestControl.OID) && change.before() != null) {
            result.addControl(PreReadResponseControl.newControl(readable(preRead.getAttributes(), change.before())));
        }
        if (postRead != null && understands(PostReadRequestControl.OID) && change.after() != null) {
            result.addControl(PostReadResponseControl.newControl(readable(postRead.getAttributes(), change.after())));
        }
        return result;
    }

    private Entry readable(List<String> attributes, Entry entry) {
        return new AttributeSelection(attributes, false, server.accessPolicy(), accessRequester(), server.schema(),
                server.groups().isMemberOf()).select(entry, null);
    }

    @Override
    protected boolean understands(String oid) {
        return PasswordPolicyRequestControl.OID.equals(oid) || writeControls().contains(oid)
                || super.understands(oid);
    }

    /** The controls among Assertion, Pre-Read, Post-Read and Permissive Modify that this write implements. */
    protected Set<String> writeControls() {
        return Set.of();
    }

    /**
     * Goes on if the request has no assertion or it holds for {@code entry} (as stored, read in the write's
     * transaction where there is one; for an add, the entry to be added); else {@code assertionFailed}.
     */
    protected final void requireAssertion(Entry entry) throws BackendException {
        if (assertion != null) {
            assertion.require(entry, server.accessPolicy(), accessRequester());
        }
    }

    /** RFC 4370: every write may run as another identity (access checks and modifiersName are its). */
    @Override
    protected boolean actsAsProxiedIdentity() {
        return true;
    }

    /**
     * On a replica, the answer to a write the master makes (forwarded to it as the requester) or points to (a
     * referral): see {@link io.bindfirst.server.replication.ReplicaWrites}. {@code null} when the write is made here.
     * The master checks access, schema and policy: nothing of that runs here first.
     */
    private Result writtenElsewhere() {
        DN dn = targetDN();
        Backend b = dn.isRootDN() ? null : server.backends().backendFor(dn);
        return b == null ? null : server.replicaWrites().write(b, this::forwardable, requester(), this::errorResult);
    }

    /** A copy of the client's request, as it would be sent to another server (its controls may be changed). */
    protected abstract Request forwardable();

    /** A refusal that the request alone justifies, or {@code null}; runs first. Sets what {@link #targetDN()} needs. */
    protected Result checkRequest() {
        return null;
    }

    /**
     * Whether {@code who} may make this write, as far as the request alone tells: the access policy's decision,
     * with its reason. A write whose decision needs the stored entry answers {@link AccessDecision#ALLOW} here
     * and calls {@link #require} in {@link #write}.
     */
    protected abstract AccessDecision checkAccess(Requester who);

    /** Goes on if {@code decision} allows; else stops the write with {@code insufficientAccessRights}. */
    protected static void require(AccessDecision decision) throws BackendException {
        if (!decision.allowed()) {
            throw new BackendException(ResultCode.INSUFFICIENT_ACCESS_RIGHTS, decision.message());
        }
    }

    /** Work before the transaction, in the target's backend: a refusal, or {@code null} to go on. */
    protected Result prepare(Backend backend) throws BackendException, WriteException, PasswordValues.Refused {
        return null;
    }

    /** The write itself, one backend transaction: the entry before and after it. */
    protected abstract EntryChange write(Backend backend) throws BackendException;

    /** The result of a write that committed. */
    protected Result success() {
        return Responses.newResult(ResultCode.SUCCESS);
    }

    private Backend backendFor(DN dn) throws BackendException {
        if (dn.isRootDN()) {
            throw new BackendException(ResultCode.UNWILLING_TO_PERFORM, "The root DSE cannot be changed by LDAP "
                    + "operations (its attributes come from the configuration)");
        }
        if (dn.equals(VirtualEntries.SCHEMA_DN)) {
            throw new BackendException(ResultCode.UNWILLING_TO_PERFORM, "The schema cannot be changed by LDAP "
                    + "operations: it is read from the files in config/schema at start");
        }
        Backend b = server.backends().backendFor(dn);
        if (b == null) {
            throw new BackendException(ResultCode.NO_SUCH_OBJECT,
                    "The entry " + dn + " is not in any naming context of this server");
        }
        return b;
    }

    /** Sets {@code modifiersName} and {@code modifyTimestamp} (RFC 4512 3.4) on an entry being written. */
    protected final void stampModified(Entry e) {
        replace(e, "modifiersName", nameOf(requester()));
        replace(e, "modifyTimestamp", GeneralizedTime.currentTime().toString());
    }

    /** Sets {@code creatorsName}, {@code createTimestamp} and {@code entryUUID} on a new entry. */
    protected final void stampCreated(Entry e) {
        replace(e, "creatorsName", nameOf(requester()));
        replace(e, "createTimestamp", GeneralizedTime.currentTime().toString());
        replace(e, "entryUUID", UUID.randomUUID().toString());
    }

    /**
     * Refuses a DN whose RDN names an attribute the server maintains (NO-USER-MODIFICATION, RFC 4512 4.1.2), or
     * {@code null}. The RDN's values go into the entry, so such a DN would set that attribute (a forged
     * {@code pwdChangedTime}, {@code entryUUID}, ...) or, where the server writes the attribute itself
     * ({@code modifiersName}), leave an entry whose RDN value is not in it.
     */
    protected final Result refuseServerAttributesIn(RDN rdn) {
        for (AVA ava : rdn) {
            if (ava.getAttributeType().isNoUserModification()) {
                return errorResult(ResultCode.CONSTRAINT_VIOLATION, "The attribute "
                        + ava.getAttributeType().getNameOrOID() + " is set by the server and cannot name an entry");
            }
        }
        return null;
    }

    /** Refuses an entry whose access rules ({@code aci} values) are invalid, saying what is wrong. */
    protected final void checkRules(Entry e) throws WriteException {
        String invalid = server.accessPolicy().invalidRules(e);
        if (invalid != null) {
            throw new WriteException(ResultCode.INVALID_ATTRIBUTE_SYNTAX, invalid);
        }
    }

    /** A schema or modification failure as a backend update function must report it. */
    protected static BackendException toBackend(WriteException e) {
        return new BackendException(e.resultCode(), e.getMessage());
    }

    private static String nameOf(AuthenticationInfo who) {
        return who.isAnonymous() ? "" : who.authenticationDN().toString();
    }

    private void replace(Entry e, String name, String value) {
        e.replaceAttribute(new LinkedAttribute(AttributeDescription.valueOf(name, server.schema()), value));
    }
}
