package io.bindfirst.server.core;


import org.forgerock.opendj.ldap.DecodeException;
import org.forgerock.opendj.ldap.DecodeOptions;
import org.forgerock.opendj.ldap.ResultCode;
import org.forgerock.opendj.ldap.requests.CancelExtendedRequest;
import org.forgerock.opendj.ldap.requests.ExtendedRequest;
import org.forgerock.opendj.ldap.responses.Responses;
import org.forgerock.opendj.ldap.responses.Result;

import io.bindfirst.server.log.AccessRecord;

/**
 * The Cancel extended operation (RFC 3909): stops an outstanding operation of the same connection, named by its
 * message ID, which then answers {@code canceled}; the cancel answers once it has, with {@code success}, or
 * {@code tooLate} if the operation answered otherwise (a write past its transaction's start completes).
 * {@code noSuchOperation} when nothing outstanding has that ID, {@code cannotCancel} for a bind, StartTLS or
 * another cancel. Nothing blocks meanwhile: the cancel finishes on the thread where the other operation does.
 */
public final class CancelOperation extends ExtendedRequestOperation {
    private int target = -1;

    public CancelOperation(ServerContext server, Session session, int messageId, ExtendedRequest<?> request) {
        super(server, session, messageId, request);
    }

    /** RFC 3909 2: a cancel can be neither abandoned nor cancelled. */
    @Override
    public boolean abandonable() {
        return false;
    }

    @Override
    protected Result execute() {
        try {
            target = CancelExtendedRequest.DECODER.decodeExtendedRequest(request, new DecodeOptions())
                    .getRequestID();
        } catch (DecodeException | IllegalArgumentException | IndexOutOfBoundsException e) { // see SdkDecodeErrors
            return errorResult(ResultCode.PROTOCOL_ERROR, "The cancel request's value is malformed");
        }
        if (target == messageId || session.bindInProgress(target)) {
            return errorResult(ResultCode.CANNOT_CANCEL, "Operation " + target + " cannot be cancelled");
        }
        Operation op = session.outstanding(target);
        if (op == null) {
            return errorResult(ResultCode.NO_SUCH_OPERATION, "No operation " + target + " is outstanding");
        }
        if (!op.cancelable()) {
            return errorResult(ResultCode.CANNOT_CANCEL, "Operation " + target + " cannot be cancelled");
        }
        return finishWhen(op.cancel().thenApply(code -> ResultCode.CANCELLED.equals(code)
                ? Responses.newGenericExtendedResult(ResultCode.SUCCESS)
                : errorResult(ResultCode.TOO_LATE, "Operation " + target + " had gone too far to be cancelled")));
    }

    @Override
    protected String logDetails(Result result) {
        return AccessRecord.quoted("oid", request.getOID()) + " cancelMsgID=" + target;
    }
}
