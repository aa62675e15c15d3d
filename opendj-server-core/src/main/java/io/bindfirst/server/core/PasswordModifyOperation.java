package io.bindfirst.server.core;

import java.security.SecureRandom;
import java.util.List;

import org.forgerock.i18n.LocalizedIllegalArgumentException;
import org.forgerock.opendj.ldap.ByteString;
import org.forgerock.opendj.ldap.DN;
import org.forgerock.opendj.ldap.DecodeException;
import org.forgerock.opendj.ldap.DecodeOptions;
import org.forgerock.opendj.ldap.Entry;
import org.forgerock.opendj.ldap.LinkedAttribute;
import org.forgerock.opendj.ldap.LinkedHashMapEntry;
import org.forgerock.opendj.ldap.ResultCode;
import org.forgerock.opendj.ldap.controls.Control;
import org.forgerock.opendj.ldap.requests.Request;
import org.forgerock.opendj.ldap.requests.Requests;
import org.forgerock.opendj.ldap.requests.ExtendedRequest;
import org.forgerock.opendj.ldap.requests.PasswordModifyExtendedRequest;
import org.forgerock.opendj.ldap.responses.PasswordModifyExtendedResult;
import org.forgerock.opendj.ldap.responses.Responses;
import org.forgerock.opendj.ldap.responses.Result;

import io.bindfirst.server.access.AccessDecision;
import io.bindfirst.server.access.Requester;
import io.bindfirst.server.auth.AuthenticationInfo;
import io.bindfirst.server.backend.Backend;
import io.bindfirst.server.backend.BackendException;
import io.bindfirst.server.backend.EntryChange;
import io.bindfirst.server.plugin.OperationType;
import io.bindfirst.server.pwd.Pacer;

/**
 * Password Modify (RFC 3062): a user changes their own password (the old one is checked when the request
 * carries it), a root user resets anyone's; without a new password one is generated and returned. The
 * new password is stored with the default storage scheme.
 */
public final class PasswordModifyOperation extends WriteOperation {
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final char[] ALPHABET =
            "ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789".toCharArray();
    private static final int GENERATED_LENGTH = 16;

    private final ExtendedRequest<?> raw;
    private PasswordModifyExtendedRequest request;
    private DN target;
    /** The password generated for the user when the request carries none, returned in the result. */
    private ByteString generated;
    /** The new password as stored, encoded by {@link #prepare} before the transaction. */
    private ByteString stored;
    /** The new password in clear, for the password history's check in the transaction; never logged. */
    private ByteString newClear;

    public PasswordModifyOperation(ServerContext server, Session session, int messageId,
                                   ExtendedRequest<?> request) {
        super(server, session, messageId);
        this.raw = request;
    }

    @Override
    protected boolean allowedBeforePasswordChange() {
        return true;
    }

    @Override
    protected Request forwardable() {
        return Requests.copyOfPasswordModifyExtendedRequest(request);
    }

    @Override
    protected List<Control> requestControls() {
        return raw.getControls();
    }

    @Override
    protected Result checkRequest() {
        try {
            request = PasswordModifyExtendedRequest.DECODER.decodeExtendedRequest(raw,
                    new DecodeOptions().setSchema(server.schema()));
        } catch (DecodeException | IllegalArgumentException | IndexOutOfBoundsException e) { // see SdkDecodeErrors
            return errorResult(ResultCode.PROTOCOL_ERROR, "The password modify request cannot be decoded");
        }
        try {
            target = targetOf(request, requester());
        } catch (LocalizedIllegalArgumentException e) {
            return errorResult(ResultCode.INVALID_DN_SYNTAX, "The user identity is not a valid DN");
        }
        if (target == null) {
            return errorResult(ResultCode.UNWILLING_TO_PERFORM, requester().isAnonymous()
                    ? "Bind first, or name the user whose password to change"
                    : "Name the user whose password to change: a root user's password is changed in config.ldif");
        }
        if (request.getNewPassword() != null && request.getNewPassword().length == 0) {
            // RFC 3062 2: a password is generated when newPasswd is absent; an empty one is not a request for that.
            return errorResult(ResultCode.UNWILLING_TO_PERFORM, "The new password is empty: give one, or leave "
                    + "newPasswd out for the server to generate one");
        }
        return null;
    }

    @Override
    protected AccessDecision checkAccess(Requester who) {
        return AccessDecision.ALLOW; // decided on the entry as stored, in write
    }

    @Override
    protected Result prepare(Backend backend) {
        if (server.backends().isConfigBackend(backend)) {
            return errorResult(ResultCode.UNWILLING_TO_PERFORM, "Root user passwords are changed in config.ldif");
        }
        byte[] givenNew = request.getNewPassword();
        ByteString newPassword;
        if (givenNew != null && givenNew.length > 0) {
            newPassword = ByteString.wrap(givenNew);
        } else {
            generated = generate();
            newPassword = generated;
        }
        stored = server.passwordSchemes().encode(newPassword);
        newClear = newPassword;
        return null;
    }

    @Override
    protected EntryChange write(Backend backend) throws BackendException {
        ByteString oldPassword = request.getOldPassword() == null ? null : ByteString.wrap(request.getOldPassword());
        // A user naming an entry that does not exist learns no more than with a wrong old password.
        return backend.modifyEntry(target, current -> {
            require(server.accessPolicy().mayChangePassword(accessRequester(), current));
            if (oldPassword != null && !server.passwordAttribute().anyMatches(current, oldPassword, Pacer.NONE)) {
                throw new BackendException(ResultCode.INVALID_CREDENTIALS, "The old password is not correct");
            }
            // A deep copy: the SDK's copy constructor shares the attributes, and replacing one would change the
            // entry as stored (the backend's "before"), so the change would look like no password change at all.
            server.accounts().passwordChanges().refuse(current, List.of(newClear),
                    !requester().root() && target.equals(requester().authenticationDN()));
            Entry updated = LinkedHashMapEntry.deepCopyOfEntry(current);
            updated.replaceAttribute(new LinkedAttribute(server.passwordAttribute().description(), stored));
            stampModified(updated);
            server.accounts().passwordChanges().stamp(current, updated, requester().root());
            return updated;
        });
    }

    @Override
    protected Result success() {
        PasswordModifyExtendedResult result = Responses.newPasswordModifyExtendedResult(ResultCode.SUCCESS);
        if (generated != null) {
            result.setGeneratedPassword(generated.toByteArray());
        }
        return result;
    }

    /** The userIdentity as a DN ({@code dn:} prefix optional), or the requester's own entry when absent. */
    private DN targetOf(PasswordModifyExtendedRequest request, AuthenticationInfo who) {
        String id = request.getUserIdentityAsString();
        if (id == null || id.isEmpty()) {
            return who.isAnonymous() || who.root() ? null : who.authenticationDN();
        }
        if (id.regionMatches(true, 0, "dn:", 0, 3)) {
            id = id.substring(3);
        }
        return DN.valueOf(id, server.schema());
    }

    private static ByteString generate() {
        char[] c = new char[GENERATED_LENGTH];
        for (int i = 0; i < c.length; i++) {
            c[i] = ALPHABET[RANDOM.nextInt(ALPHABET.length)];
        }
        return ByteString.valueOfUtf8(new String(c));
    }

    @Override
    protected Result errorResult(ResultCode code, String message) {
        return Responses.newPasswordModifyExtendedResult(code).setDiagnosticMessage(message);
    }

    @Override
    protected String kind() {
        return "EXTENDED";
    }

    @Override
    protected String logDetails(Result result) {
        return "oid=\"" + PasswordModifyExtendedRequest.OID + "\"";
    }

    @Override
    public OperationType operationType() {
        return OperationType.EXTENDED;
    }

    @Override
    public DN targetDN() {
        return target;
    }
}
