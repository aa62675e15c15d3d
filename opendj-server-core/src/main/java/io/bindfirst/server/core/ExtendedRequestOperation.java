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

/**
 * What every extended operation (RFC 4511 4.12) but Password Modify shares: its request's controls, the access
 * log's kind and its {@code oid} detail, no target entry, and errors answered as an ExtendedResult (the SDK
 * closes the connection on any other result type for an extended request). Password Modify is a write, and
 * takes the writes' template instead.
 */
abstract class ExtendedRequestOperation extends Operation {
    protected final ExtendedRequest<?> request;

    protected ExtendedRequestOperation(ServerContext server, Session session, int messageId,
                                       ExtendedRequest<?> request) {
        super(server, session, messageId);
        this.request = request;
    }

    @Override
    protected List<Control> requestControls() {
        return request.getControls();
    }

    @Override
    protected Result errorResult(ResultCode code, String message) {
        return Responses.newGenericExtendedResult(code).setDiagnosticMessage(message);
    }

    @Override
    protected final String kind() {
        return "EXTENDED";
    }

    @Override
    public final OperationType operationType() {
        return OperationType.EXTENDED;
    }

    @Override
    public final DN targetDN() {
        return null;
    }

    /** The request's OID, for the access log; an operation adds what else it knows. */
    @Override
    protected String logDetails(Result result) {
        return AccessRecord.quoted("oid", request.getOID());
    }
}
