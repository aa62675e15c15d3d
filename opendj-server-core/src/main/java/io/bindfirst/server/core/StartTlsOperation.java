package io.bindfirst.server.core;


import org.forgerock.opendj.ldap.ResultCode;
import org.forgerock.opendj.ldap.requests.ExtendedRequest;
import org.forgerock.opendj.ldap.requests.StartTLSExtendedRequest;
import org.forgerock.opendj.ldap.responses.Responses;
import org.forgerock.opendj.ldap.responses.Result;


/**
 * StartTLS (RFC 4511 4.14, RFC 4513 3): on success the response goes out in clear and the client's next bytes
 * are its TLS handshake. Refused with operationsError while other operations are outstanding or when TLS is
 * already established; with unavailable where this listener offers no StartTLS. Every response names the
 * StartTLS OID. Not abandonable (RFC 4511 4.11).
 */
public final class StartTlsOperation extends ExtendedRequestOperation {

    public StartTlsOperation(ServerContext server, Session session, int messageId, ExtendedRequest<?> request) {
        super(server, session, messageId, request);
    }

    @Override
    public boolean abandonable() {
        return false;
    }

    @Override
    protected boolean allowedBeforePasswordChange() {
        return true;
    }

    @Override
    protected Result execute() {
        if (request.getValue() != null && !request.getValue().isEmpty()) {
            return errorResult(ResultCode.PROTOCOL_ERROR, "The StartTLS request takes no value");
        }
        switch (session.startTls()) {
            case STARTED:
                return Responses.newGenericExtendedResult(ResultCode.SUCCESS).setOID(StartTLSExtendedRequest.OID);
            case ALREADY_SECURE:
                return errorResult(ResultCode.OPERATIONS_ERROR, "TLS is already established on this connection");
            case OPERATIONS_OUTSTANDING:
                return errorResult(ResultCode.OPERATIONS_ERROR,
                        "StartTLS must be the only operation outstanding on the connection");
            default:
                return errorResult(ResultCode.UNAVAILABLE, "StartTLS is not offered on this port: the server has "
                        + "no TLS key and certificate configured, or ds-cfg-allow-start-tls is off");
        }
    }

    @Override
    protected Result errorResult(ResultCode code, String message) {
        return Responses.newGenericExtendedResult(code).setOID(StartTLSExtendedRequest.OID)
                .setDiagnosticMessage(message);
    }

    @Override
    protected String logDetails(Result result) {
        return "oid=\"" + StartTLSExtendedRequest.OID + "\" name=\"StartTLS\"";
    }
}
