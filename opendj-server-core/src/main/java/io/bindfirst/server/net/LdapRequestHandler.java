package io.bindfirst.server.net;

import java.time.Duration;

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

import io.bindfirst.server.core.Operation;
import io.bindfirst.server.core.OperationFactory;
import io.bindfirst.server.plugin.OperationType;

/**
 * The per-connection entry point the SDK's Grizzly filter calls for every request, on a selector thread.
 * It decodes the request there (the envelope's buffer is only valid during this call) and returns a
 * stream that, when the transport subscribes, starts the operation ({@link OperationDispatch}: here or on
 * a worker), which then emits the responses. What one connection can have outstanding is bounded by its
 * {@link OperationSlots}.
 */
final class LdapRequestHandler implements ReactiveHandler<LDAPClientContext, LdapRequestEnvelope, Stream<Response>> {
    private static final Logger LOG = LoggerFactory.getLogger(LdapRequestHandler.class);
    /**
     * How long an operation whose responses the client does not read waits for it (its thread stands aside
     * meanwhile); then the connection is closed. OpenDJ's {@code ds-cfg-max-blocked-write-time-limit} default.
     */
    static final Duration LONGEST_WAIT_FOR_CLIENT = Duration.ofMinutes(2);

    private final OperationFactory operations;
    private final OperationDispatch dispatch;
    private final RequestReader reader;
    private final ClientConnection connection;
    /** Closes a connection whose client stopped reading; made once per connection, not with each request. */
    private final Runnable cutOff;
    private final WriteGather gather;

    LdapRequestHandler(OperationFactory operations, OperationDispatch dispatch, DecodeOptions decodeOptions,
                       LDAPClientContext context, ClientConnection connection, WriteGather gather) {
        this.operations = operations;
        this.gather = gather;
        this.dispatch = dispatch;
        this.reader = new RequestReader(decodeOptions);
        this.connection = connection;
        this.cutOff = () -> connection.terminate("The client did not read its results for "
                + LONGEST_WAIT_FOR_CLIENT.toSeconds() + " s");
        context.addListener(new LDAPClientContextEventListener() {
            @Override
            public void handleConnectionError(LDAPClientContext ctx, Throwable error) {
                if (error instanceof DecodeException) {
                    // The SDK's decoder failed on the PDU itself (bad BER, or longer than the maximum request
                    // size) and is about to close the connection; tell the client why first (RFC 4511 4.4.1).
                    // The close that follows is graceful: Grizzly writes the queued notice before closing.
                    connection.disconnect(ResultCode.PROTOCOL_ERROR, "The request could not be decoded: "
                            + error.getMessage());
                } else {
                    connection.closed("I/O error");
                }
            }

            @Override
            public void handleConnectionClosed(LDAPClientContext ctx, UnbindRequest unbindRequest) {
                connection.closed(unbindRequest != null ? "Client Unbind" : "Client Disconnect");
                if (unbindRequest != null) {
                    // RFC 4511 4.3: the server ends the session (the SDK only reports the unbind); no notice.
                    ctx.disconnect();
                }
            }

            @Override
            public void handleConnectionDisconnected(LDAPClientContext ctx, ResultCode resultCode, String message) {
                connection.closed(message != null ? message : "Server Disconnect");
            }
        });
    }

    @Override
    public Stream<Response> handle(LDAPClientContext context, LdapRequestEnvelope envelope) {
        connection.requestReceived();
        RequestDecoder decoder = new RequestDecoder(operations, connection);
        try {
            decoder.addControls(reader.read((ASN1Reader) envelope.getContent(), decoder));
        } catch (DecodeException e) {
            if (e.isFatal()) {
                connection.disconnect(ResultCode.PROTOCOL_ERROR, "Cannot decode the request: " + e.getMessage());
                return RxJavaStreams.emptyStream();
            }
            return RxJavaStreams.streamFrom(errorResponse(envelope, ResultCode.PROTOCOL_ERROR, e.getMessage()));
        } catch (RefusedRequest e) {
            return RxJavaStreams.streamFrom(errorResponse(envelope, e.resultCode(), e.getMessage()));
        } catch (Exception e) {
            LOG.debug("Undecodable request on {}", connection, e);
            connection.disconnect(ResultCode.PROTOCOL_ERROR, "Cannot decode the request");
            return RxJavaStreams.emptyStream();
        } catch (StackOverflowError e) {
            // The SDK decodes recursively. Search filters are cut to a refusable depth before it sees them
            // (DeepFilterCut); should anything else nest deep enough to exhaust this thread's stack, the stack has
            // unwound here and the client gets a notice.
            connection.disconnect(ResultCode.PROTOCOL_ERROR, "Cannot decode the request: it nests too deeply");
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
        if (op.operationType() == OperationType.BIND) {
            connection.abandonBeforeBind();
        }
        connection.operationStarted(op);
        return RxJavaStreams.streamFromPublisher(new OperationResponses(op, connection.slots(), dispatch,
                LONGEST_WAIT_FOR_CLIENT, cutOff, gather));
    }

    /** A request whose parts are malformed but whose envelope is sound: answered with a result of its type. */
    private static Response errorResponse(LdapRequestEnvelope envelope, ResultCode rc, String message) {
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
