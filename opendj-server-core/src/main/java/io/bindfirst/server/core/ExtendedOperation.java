package io.bindfirst.server.core;


import org.forgerock.opendj.ldap.ResultCode;
import org.forgerock.opendj.ldap.requests.ExtendedRequest;
import org.forgerock.opendj.ldap.responses.Responses;
import org.forgerock.opendj.ldap.responses.Result;

import io.bindfirst.server.virtual.VirtualEntries;

/**
 * An extended operation (RFC 4511 4.12). Supported: Who am I? (RFC 4532). Every answer, errors
 * included, is an ExtendedResult: the SDK closes the connection on any other result type here.
 */
public final class ExtendedOperation extends ExtendedRequestOperation {

    public ExtendedOperation(ServerContext server, Session session, int messageId,
                             ExtendedRequest<?> request) {
        super(server, session, messageId, request);
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
}
