package io.bindfirst.server.core;

import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;
import java.util.function.Supplier;

import org.forgerock.opendj.ldap.DN;
import org.forgerock.opendj.ldap.ResultCode;
import org.forgerock.opendj.ldap.controls.Control;
import org.forgerock.opendj.ldap.controls.PasswordPolicyErrorType;
import org.forgerock.opendj.ldap.controls.PasswordPolicyRequestControl;
import org.forgerock.opendj.ldap.controls.PasswordPolicyResponseControl;
import org.forgerock.opendj.ldap.responses.Responses;
import org.forgerock.opendj.ldap.responses.Result;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.bindfirst.server.ServerContext;
import io.bindfirst.server.auth.AuthenticationInfo;
import io.bindfirst.server.backend.EntryChange;
import io.bindfirst.server.log.AccessRecord;
import io.bindfirst.server.plugin.CompletedOperationView;
import io.bindfirst.server.plugin.OperationType;
import io.bindfirst.server.plugin.PluginPhase;
import io.bindfirst.server.plugin.PluginResult;
import io.bindfirst.server.work.WorkQueue;

/**
 * One LDAP request being processed. Decoded on the selector thread, run on a worker (or, for an operation
 * that {@linkplain #startsInline() may start inline}, on the thread that decoded it). Subclasses compute
 * the result in {@link #execute()}; this class runs every operation's phases in the same fixed order:
 * pre-parse plugins, control checks, {@code execute} (which calls {@link #preOperation()} before touching
 * the backend), then in one place: post-operation plugins, stop the timer, log, send the response,
 * post-response plugins. Plugins see it only through the read-only {@link CompletedOperationView}.
 */
public abstract class Operation implements Runnable, CompletedOperationView {
    private static final Logger LOG = LoggerFactory.getLogger(Operation.class);
    /** What {@code execute} returns when the result will come from the slow lane. */
    private static final Result LATER = Responses.newResult(ResultCode.OTHER);

    protected final ServerContext server;
    /** The connection the request came on. */
    protected final Session session;
    protected final int messageId;
    protected final long operationId;
    protected final long startNanos;
    private ResponseSink sink;
    private volatile boolean abandoned;
    private AuthenticationInfo requester;
    private ResultCode resultCode;
    private EntryChange change;
    /** While the operation runs inline: where to continue if it finds work that may block; else null. */
    private WorkQueue handOff;

    protected Operation(ServerContext server, Session session, int messageId) {
        this.server = server;
        this.session = session;
        this.messageId = messageId;
        this.operationId = session.nextOperationId();
        this.startNanos = System.nanoTime();
    }

    /** Set by the transport when the response stream is subscribed, before the operation is queued. */
    public final void attach(ResponseSink responseSink) {
        this.sink = responseSink;
    }

    public int messageId() {
        return messageId;
    }

    /** Whether an Abandon can name this operation; RFC 4511 4.11 excludes bind (and unbind, StartTLS). */
    public boolean abandonable() {
        return true;
    }

    /** RFC 4511 4.11: the operation stops at the next check and no response is sent. */
    public void abandon() {
        abandoned = true;
    }

    /** Whether an abandon, an unbind or the connection's close has stopped this operation. */
    public boolean isAbandoned() {
        return abandoned;
    }

    protected ResponseSink sink() {
        return sink;
    }

    @Override
    public final void run() {
        requester = session.authentication();
        Result result;
        try {
            prepare();
            result = stopped(server.plugins().invokePre(PluginPhase.PRE_PARSE, this));
            if (result == null) {
                result = checkControls(requestControls());
            }
            if (result == null && requester.mustChangePassword() && !allowedBeforePasswordChange()) {
                // draft-behera 8.1.2.2, as OpenLDAP's ppolicy answers it.
                result = errorResult(ResultCode.INSUFFICIENT_ACCESS_RIGHTS, "An administrator reset this "
                        + "account's password: change it first (Password Modify); nothing else is allowed until then");
                if (hasControl(PasswordPolicyRequestControl.OID)) {
                    result.addControl(PasswordPolicyResponseControl.newControl(
                            PasswordPolicyErrorType.CHANGE_AFTER_RESET));
                }
            }
            if (result == null) {
                result = execute();
            }
        } catch (RuntimeException e) {
            result = unexpected(e);
        }
        if (result != LATER) {
            finish(result);
        }
    }

    /** A bug or an unexpected SDK failure: the client gets a clean error, never a dropped connection. */
    private Result unexpected(RuntimeException e) {
        LOG.error("{} on connection {} failed", kind(), session.id(), e);
        return errorResult(ResultCode.OTHER, "The server could not process the request");
    }

    /**
     * Whether a connection whose password an administrator reset ({@code pwdReset}) may run this operation before
     * changing it: a bind, StartTLS and Password Modify may; nothing else.
     */
    protected boolean allowedBeforePasswordChange() {
        return false;
    }

    /**
     * Whether the transport may start this operation on the thread that decoded it, instead of handing it to
     * a worker: true only for operations that can tell, before doing anything that may block or cost, whether
     * they will (a bind finds its entry in memory or not). Such an operation moves itself to the workers
     * ({@link #onWorkers}) when it would. Waking a worker and switching to it costs more CPU than a cached
     * bind does; that is the saving.
     */
    public boolean startsInline() {
        return false;
    }

    /**
     * Runs the operation on the calling thread, a transport thread that must not block: the operation
     * continues on {@code workers} from the first step that might ({@link #onWorkers}).
     */
    public final void runInline(WorkQueue workers) {
        this.handOff = workers;
        run();
    }

    /** Whether the operation is running on a transport thread, where nothing may block. */
    protected final boolean inline() {
        return handOff != null;
    }

    /**
     * Runs {@code rest} where it may block: at once when the operation already runs on a worker, otherwise
     * on the work queue (and the operation finishes there with its result). {@code execute} returns what this
     * returns. A full work queue answers {@code busy}.
     */
    protected final Result onWorkers(Supplier<Result> rest) {
        WorkQueue workers = handOff;
        if (workers == null) {
            return rest.get();
        }
        handOff = null;
        return later(rest, workers::enqueue);
    }

    /**
     * Moves the rest of the operation to the slow lane ({@link io.bindfirst.server.work.SlowLane}): {@code rest}
     * runs there, paced, and the operation finishes with its result. {@code execute} returns what this returns.
     * A full slow lane answers {@code busy} at once.
     */
    protected final Result onSlowLane(Supplier<Result> rest) {
        handOff = null;
        return later(rest, server.slowLane()::enqueue);
    }

    /** Queues {@code rest} with {@code lane} and finishes the operation there; or answers busy. */
    private Result later(Supplier<Result> rest, Predicate<Runnable> lane) {
        boolean queued = lane.test(() -> {
            Result r;
            try {
                r = rest.get();
            } catch (RuntimeException e) {
                r = unexpected(e);
            }
            if (r != LATER) { // the rest may have moved on again (a worker's bind to the slow lane)
                finish(r);
            }
        });
        return queued ? LATER
                : errorResult(ResultCode.BUSY, "The server is too busy to process the request; try again");
    }

    /** Answers without running, when no worker can take the operation. */
    public final void rejectBusy() {
        requester = session.authentication();
        prepare();
        finish(errorResult(ResultCode.BUSY, "The server is too busy to process the request; try again"));
    }

    /** Pre-operation plugins, called by {@code execute} just before the backend: a result if one stops it. */
    protected final Result preOperation() {
        return stopped(server.plugins().invokePre(PluginPhase.PRE_OPERATION, this));
    }

    /**
     * Records the entry before and after a successful write, for post-operation and post-response plugins;
     * called by {@link WriteOperation}, and by a bind whose failure locked its account.
     */
    final void changed(EntryChange entryChange) {
        this.change = entryChange;
    }

    private Result stopped(PluginResult r) {
        return r.continues() ? null : errorResult(r.stopWith(), r.message());
    }

    private void finish(Result result) {
        resultCode = result.getResultCode();
        server.operationCounts().completed(operationType()); // one LongAdder add: cn=monitor's counts
        session.operationDone(this);
        server.plugins().invokePost(PluginPhase.POST_OPERATION, this);
        long etime = System.nanoTime() - startNanos;
        try {
            server.accessLog().log(new AccessRecord(System.currentTimeMillis(), kind(), session.id(),
                    operationId, messageId, logDN(), resultCode.intValue(), etime, logDetails(result)));
            if (!abandoned) {
                sink.send(result);
            }
        } finally {
            sink.complete();
        }
        server.plugins().invokePost(PluginPhase.POST_RESPONSE, this);
    }

    /** Refuses a critical control this operation does not implement (RFC 4511 4.1.11). */
    private Result checkControls(List<Control> controls) {
        for (Control c : controls) {
            if (c.isCritical() && !understands(c.getOID())) {
                return errorResult(ResultCode.UNAVAILABLE_CRITICAL_EXTENSION,
                        "The critical control " + c.getOID() + " is not supported for this operation");
            }
        }
        return null;
    }

    /** Whether the request carries a control with this OID. */
    protected final boolean hasControl(String oid) {
        for (Control c : requestControls()) {
            if (c.getOID().equals(oid)) {
                return true;
            }
        }
        return false;
    }

    // --- the read-only view plugins get ---

    @Override
    public long connectionId() {
        return session.id();
    }

    @Override
    public long operationId() {
        return operationId;
    }

    @Override
    public AuthenticationInfo requester() {
        return requester;
    }

    @Override
    public ResultCode resultCode() {
        return resultCode;
    }

    @Override
    public Optional<EntryChange> change() {
        // A bind that locked its account failed (invalidCredentials), and its lock committed all the same.
        return resultCode == ResultCode.SUCCESS || operationType() == OperationType.BIND
                ? Optional.ofNullable(change) : Optional.empty();
    }

    // --- what each operation provides ---

    /** Runs first, before the request is checked: for state every outcome must change (a bind's reset). */
    protected void prepare() {
    }

    /**
     * Whether this operation implements the control with {@code oid}. ManageDsaIT is accepted everywhere:
     * this server holds no referral entries, so it changes nothing.
     */
    protected boolean understands(String oid) {
        return io.bindfirst.server.virtual.VirtualEntries.OID_MANAGE_DSAIT.equals(oid);
    }

    protected abstract List<Control> requestControls();

    /** Runs the operation, sending any intermediate responses through {@link #sink()}. */
    protected abstract Result execute();

    /**
     * A result of the right type for this operation: a plain LDAPResult by default; bind, compare and
     * extended operations override it (the SDK drops the connection on a plain Result for those).
     */
    protected Result errorResult(ResultCode code, String message) {
        return Responses.newResult(code).setDiagnosticMessage(message);
    }

    /** {@code BIND}, {@code SEARCH}, ...: the access log's word for the operation. */
    protected abstract String kind();

    /** The DN the access log shows for this operation (the target DN by default); never a password. */
    protected String logDN() {
        DN dn = targetDN();
        return dn == null ? null : dn.toString();
    }

    @Override
    public abstract DN targetDN();

    /** Extra {@code key=value} pairs for the access log; override to add some. */
    protected String logDetails(Result result) {
        return "";
    }
}
