package io.bindfirst.server.core;

import java.util.List;

import org.forgerock.opendj.ldap.ResultCode;
import org.forgerock.opendj.ldap.controls.Control;
import org.forgerock.opendj.ldap.responses.Result;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.bindfirst.server.ServerContext;
import io.bindfirst.server.log.AccessRecord;
import io.bindfirst.server.net.ClientConnection;

/**
 * One LDAP request being processed. Decoded on the selector thread, run on a worker. Subclasses compute
 * the result in {@link #execute()}; this class finishes every operation the same way, in one place:
 * stop the timer, log, send the response (then, with issue #3, post-response plugins).
 */
public abstract class Operation implements Runnable {
    private static final Logger LOG = LoggerFactory.getLogger(Operation.class);

    /** Controls this server understands in any request; a critical control outside these is refused. */
    static final String OID_MANAGE_DSAIT = "2.16.840.1.113730.3.4.2";

    protected final ServerContext server;
    protected final ClientConnection connection;
    protected final int messageId;
    protected final long operationId;
    protected final long startNanos;
    private ResponseSink sink;
    private volatile boolean abandoned;

    protected Operation(ServerContext server, ClientConnection connection, int messageId) {
        this.server = server;
        this.connection = connection;
        this.messageId = messageId;
        this.operationId = connection.nextOperationId();
        this.startNanos = System.nanoTime();
    }

    /** Set by the transport when the response stream is subscribed, before the operation is queued. */
    public final void attach(ResponseSink responseSink) {
        this.sink = responseSink;
    }

    public int messageId() {
        return messageId;
    }

    /** RFC 4511 4.11: the operation stops at the next check and no response is sent. */
    public void abandon() {
        abandoned = true;
    }

    protected boolean isAbandoned() {
        return abandoned;
    }

    protected ResponseSink sink() {
        return sink;
    }

    @Override
    public final void run() {
        Result result;
        try {
            prepare();
            result = checkControls(requestControls());
            if (result == null) {
                result = execute();
            }
        } catch (RuntimeException e) {
            // A bug or an unexpected SDK failure: the client gets a clean error, never a dropped connection.
            LOG.error("{} on connection {} failed", kind(), connection.id(), e);
            result = errorResult(ResultCode.OTHER, "The server could not process the request");
        }
        finish(result);
    }

    /** Answers without running, when no worker can take the operation. */
    public final void rejectBusy() {
        prepare();
        finish(errorResult(ResultCode.BUSY, "The server is too busy to process the request; try again"));
    }

    private void finish(Result result) {
        long etime = System.nanoTime() - startNanos;
        connection.operationDone(this);
        try {
            server.accessLog().log(new AccessRecord(System.currentTimeMillis(), kind(), connection.id(),
                    operationId, messageId, logDN(), result.getResultCode().intValue(), etime,
                    logDetails(result)));
            if (!abandoned) {
                sink.send(result);
            }
        } finally {
            sink.complete();
        }
    }

    /** Refuses a critical control this operation does not implement (RFC 4511 4.1.11). */
    private Result checkControls(List<Control> controls) {
        for (Control c : controls) {
            if (c.isCritical() && !OID_MANAGE_DSAIT.equals(c.getOID()) && !understands(c.getOID())) {
                return errorResult(ResultCode.UNAVAILABLE_CRITICAL_EXTENSION,
                        "The critical control " + c.getOID() + " is not supported for this operation");
            }
        }
        return null;
    }

    /** Runs first, before the request is checked: for state every outcome must change (a bind's reset). */
    protected void prepare() {
    }

    /** Whether this operation implements the control with {@code oid}; none by default. */
    protected boolean understands(String oid) {
        return false;
    }

    protected abstract List<Control> requestControls();

    /** Runs the operation, sending any intermediate responses through {@link #sink()}. */
    protected abstract Result execute();

    /** A result of the right type for this operation (a BindResult for a bind, ...). */
    protected abstract Result errorResult(ResultCode code, String message);

    /** {@code BIND}, {@code SEARCH}, ...: the access log's word for the operation. */
    protected abstract String kind();

    /** The DN the access log shows for this operation; never a password. */
    protected abstract String logDN();

    /** Extra {@code key=value} pairs for the access log; override to add some. */
    protected String logDetails(Result result) {
        return "";
    }
}
