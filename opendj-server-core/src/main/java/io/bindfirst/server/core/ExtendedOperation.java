package io.bindfirst.server.core;

import java.util.List;

import org.forgerock.opendj.ldap.DN;
import org.forgerock.opendj.ldap.ResultCode;
import org.forgerock.opendj.ldap.controls.Control;
import org.forgerock.opendj.ldap.requests.ExtendedRequest;
import org.forgerock.opendj.ldap.responses.Responses;
import org.forgerock.opendj.ldap.responses.Result;

import io.bindfirst.server.log.AccessRecord;
import io.bindfirst.server.plugin.OperationType;
import io.bindfirst.server.virtual.VirtualEntries;

/**
 * An extended operation (RFC 4511 4.12). Supported: Who am I? (RFC 4532). Every answer, errors
 * included, is an ExtendedResult: the SDK closes the connection on any other result type here.
 */
public final class ExtendedOperation extends Operation {
    private final ExtendedRequest<?> request;

    public ExtendedOperation(ServerContext server, Session session, int messageId,
                             ExtendedRequest<?> request) {
        super(server, session, messageId);
        this.request = request;
    }

    @Override
    protected List<Control> requestControls() {
        return request.getControls();
    }

    /** RFC 4370: Who am I? answers the identity acted as (RFC 4532 3). */
    @Override
    protected boolean actsAsProxiedIdentity() {
        return true;
    }

    @Override
    protected Result execute() {
        if (VirtualEntries.OID_WHO_AM_I.equals(request.getOID())) {
            if (request.getValue() != null && !request.getValue().isEmpty()) {
                return errorResult(ResultCode.PROTOCOL_ERROR, "The Who am I? request takes no value");
            }
            return Responses.newWhoAmIExtendedResult(ResultCode.SUCCESS)
                    .setAuthorizationID(requester().authzId());
        }
        // RFC 4511 4.12: an unrecognized request name gets protocolError.
        return errorResult(ResultCode.PROTOCOL_ERROR,
                "The extended operation " + request.getOID() + " is not supported");
    }

    @Override
    protected Result errorResult(ResultCode code, String message) {
        return Responses.newGenericExtendedResult(code).setDiagnosticMessage(message);
    }

    @Override
    protected String kind() {
        return "EXTENDED";
    }

    @Override
    public OperationType operationType() {
        return OperationType.EXTENDED;
    }

    @Override
    public DN targetDN() {
        return null;
    }

    @Override
    protected String logDetails(Result result) {
        return AccessRecord.quoted("oid", request.getOID());
    }
}
