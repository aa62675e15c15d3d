package io.bindfirst.server.net;

import org.forgerock.opendj.io.ASN1Reader;
import org.forgerock.opendj.io.LDAP;
import org.forgerock.opendj.ldap.DecodeException;
import org.forgerock.opendj.ldap.DecodeOptions;
import org.forgerock.opendj.ldap.LDAPClientContext;
import org.forgerock.opendj.ldap.LDAPClientContextEventListener;
import org.forgerock.opendj.ldap.ResultCode;
import org.forgerock.opendj.ldap.requests.UnbindRequest;
import org.forgerock.opendj.ldap.responses.Response;
import org.forgerock.opendj.ldap.responses.Responses;
import org.forgerock.opendj.ldap.responses.Result;
import org.forgerock.opendj.ldap.spi.LdapMessages.LdapRequestEnvelope;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import com.forgerock.reactive.ReactiveHandler;
import com.forgerock.reactive.RxJavaStreams;
import com.forgerock.reactive.Stream;

import io.bindfirst.server.ServerContext;
import io.bindfirst.server.core.Operation;
import io.bindfirst.server.work.WorkQueue;

/**
 * The per-connection entry point the SDK's Grizzly filter calls for every request, on a selector thread.
 * It decodes the request there (the envelope's buffer is only valid during this call) and returns a
 * stream that, when the transport subscribes, queues the operation on the worker pool; the worker then
 * emits the responses. The SDK allows a bounded number of such streams per connection and stops reading
 * beyond it, which bounds what one client can queue.
 */
final class LdapRequestHandler implements ReactiveHandler<LDAPClientContext, LdapRequestEnvelope, Stream<Response>> {
    private static final Logger LOG = LoggerFactory.getLogger(LdapRequestHandler.class);

    private final ServerContext server;
    private final WorkQueue workQueue;
    private final RequestReader reader;
    private final ClientConnection connection;

    LdapRequestHandler(ServerContext server, WorkQueue workQueue, DecodeOptions decodeOptions,
                       LDAPClientContext context) {
        this.server = server;
        this.workQueue = workQueue;
        this.reader = new RequestReader(decodeOptions);
        this.connection = new ClientConnection(server, context);
        context.addListener(new LDAPClientContextEventListener() {
            @Override
            public void handleConnectionError(LDAPClientContext ctx, Throwable error) {
                connection.closed("I/O error");
            }

            @Override
            public void handleConnectionClosed(LDAPClientContext ctx, UnbindRequest unbindRequest) {
                connection.closed(unbindRequest != null ? "Client Unbind" : "Client Disconnect");
            }

            @Override
            public void handleConnectionDisconnected(LDAPClientContext ctx, ResultCode resultCode, String message) {
                connection.closed(message != null ? message : "Server Disconnect");
            }
        });
    }

    ClientConnection connection() {
        return connection;
    }

    @Override
    public Stream<Response> handle(LDAPClientContext context, LdapRequestEnvelope envelope) {
        RequestDecoder decoder = new RequestDecoder(server, connection);
        try {
            decoder.addControls(reader.read((ASN1Reader) envelope.getContent(), decoder));
        } catch (DecodeException e) {
            if (e.isFatal()) {
                connection.disconnect(ResultCode.PROTOCOL_ERROR, "Cannot decode the request: " + e.getMessage());
                return RxJavaStreams.emptyStream();
            }
            return RxJavaStreams.streamFrom(protocolError(envelope, e.getMessage()));
        } catch (Exception e) {
            LOG.debug("Undecodable request on {}", connection, e);
            connection.disconnect(ResultCode.PROTOCOL_ERROR, "Cannot decode the request");
            return RxJavaStreams.emptyStream();
        }
        if (decoder.abandonedMessageId >= 0) {
            connection.abandon(decoder.abandonedMessageId);
            return RxJavaStreams.emptyStream();
        }
        Operation op = decoder.operation;
        if (op == null) {
            return RxJavaStreams.emptyStream();
        }
        // Only what can be abandoned goes in the in-flight map: binds (the hot path) cannot (RFC 4511 4.11).
        if (op.abandonable()) {
            connection.operationStarted(op);
        }
        return RxJavaStreams.streamFromPublisher(new OperationResponses(op, workQueue));
    }

    /** A request whose parts are malformed but whose envelope is sound: answered with a result of its type. */
    private static Response protocolError(LdapRequestEnvelope envelope, String message) {
        ResultCode rc = ResultCode.PROTOCOL_ERROR;
        Result r;
        switch (envelope.getMessageType()) {
            case LDAP.OP_TYPE_BIND_REQUEST: r = Responses.newBindResult(rc); break;
            case LDAP.OP_TYPE_COMPARE_REQUEST: r = Responses.newCompareResult(rc); break;
            case LDAP.OP_TYPE_EXTENDED_REQUEST: r = Responses.newGenericExtendedResult(rc); break;
            default: r = Responses.newResult(rc); break;
        }
        return r.setDiagnosticMessage(message);
    }
}
