package io.bindfirst.server.core;

import org.forgerock.opendj.ldap.ResultCode;
import org.forgerock.opendj.ldap.requests.GenericBindRequest;
import org.forgerock.opendj.ldap.responses.Responses;
import org.forgerock.opendj.ldap.responses.Result;


/**
 * A bind answered SUCCESS without looking at its DN or password, for the benchmark-only
 * {@code ds-cfg-benchmark-bind-ceiling} (refused on non-loopback listeners): it measures what decoding,
 * the hand-off, the access log and the response cost without the bind itself. Everything but
 * {@code execute} is the real bind's, so both pay the same around it; the connection stays anonymous.
 */
final class BindCeilingOperation extends BindOperation {

    BindCeilingOperation(ServerContext server, Session session, int messageId, int version,
                         GenericBindRequest request) {
        super(server, session, messageId, version, request);
    }

    @Override
    protected Result execute() {
        return Responses.newBindResult(ResultCode.SUCCESS);
    }
}
