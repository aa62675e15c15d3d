package io.bindfirst.server.core;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Predicate;
import java.util.function.Supplier;

import org.forgerock.opendj.ldap.DN;
import org.forgerock.opendj.ldap.DecodeException;
import org.forgerock.opendj.ldap.ResultCode;
import org.forgerock.opendj.ldap.controls.Control;
import org.forgerock.opendj.ldap.controls.ControlDecoder;
import org.forgerock.opendj.ldap.controls.PasswordPolicyErrorType;
import org.forgerock.opendj.ldap.controls.PasswordPolicyRequestControl;
import org.forgerock.opendj.ldap.controls.PasswordPolicyResponseControl;
import org.forgerock.opendj.ldap.responses.Response;
import org.forgerock.opendj.ldap.responses.Responses;
import org.forgerock.opendj.ldap.responses.Result;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.bindfirst.server.access.AccessDecision;
import io.bindfirst.server.access.Requester;
import io.bindfirst.server.auth.AuthenticationInfo;
import io.bindfirst.server.backend.Backend;
import io.bindfirst.server.backend.BackendException;
import io.bindfirst.server.backend.EntryChange;
import io.bindfirst.server.commit.AfterAnswer;
import io.bindfirst.server.commit.Change;
import io.bindfirst.server.log.AccessRecord;
import io.bindfirst.server.plugin.CompletedOperationView;
import io.bindfirst.server.plugin.OperationType;
import io.bindfirst.server.plugin.PluginPhase;
import io.bindfirst.server.plugin.PluginResult;
import io.bindfirst.server.virtual.VirtualEntries;
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
    /** In {@link #cancellation} once the operation has finished: a later cancel comes too late. */
    private static final CompletableFuture<ResultCode> FINISHED = CompletableFuture.completedFuture(null);
    /** Atomic access to {@link #cancellation} without an object per operation (binds are counted in bytes). */
    private static final VarHandle CANCELLATION;

    static {
        try {
            CANCELLATION = MethodHandles.lookup().findVarHandle(Operation.class, "cancellation",
                    CompletableFuture.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    protected final ServerContext server;
    /** The connection the request came on. */
    protected final Session session;
    protected final int messageId;
    protected final long operationId;
    protected final long startNanos;
    private ResponseSink sink;
    private volatile boolean abandoned;
    /**
     * {@code null}; a Cancel's request (RFC 3909), completed with the result code this operation answered; or
     * {@link #FINISHED}.
     */
    private volatile CompletableFuture<ResultCode> cancellation;
    private AuthenticationInfo requester;
    private Requester accessRequester;
    /** The request's Proxied Authorization control (RFC 4370), found while the controls are checked; or null. */
    private Control proxiedAuthorization;
    /** Set when the operation runs as the identity a Proxied Authorization control named. */
    private boolean proxied;
    private ResultCode resultCode;
    private EntryChange change;
    /** What the commit path left for after this operation's answer, or {@code null}. */
    private AfterAnswer afterAnswer;
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

    /**
     * Whether the connection keeps this operation by its message ID while it is outstanding (for Abandon and
     * Cancel): every operation but a bind, which is alone on its connection (RFC 4511 4.2.1) and cannot be
     * abandoned or cancelled, and for which keeping it would cost every bind a map write.
     */
    public boolean keptByMessageId() {
        return operationType() != OperationType.BIND;
    }

    /** Whether a Cancel may name this operation (RFC 3909 2: not bind, unbind, abandon, StartTLS, cancel). */
    public boolean cancelable() {
        return abandonable();
    }

    /**
     * RFC 3909: asks the operation to stop at its next check (before it starts, between a search's entries,
     * before a write's transaction); it then answers {@code canceled}. A write past that point completes.
     *
     * @return completes once the operation has answered, with its result code ({@code null} if it had already
     *         finished); {@code canceled} means the cancel succeeded, anything else that it came too late
     */
    public final CompletableFuture<ResultCode> cancel() {
        CompletableFuture<ResultCode> requested = new CompletableFuture<>();
        if (CANCELLATION.compareAndSet(this, null, requested)) {
            return requested;
        }
        return cancellation; // an earlier cancel's, or FINISHED
    }

    /** Whether a Cancel asked this operation to stop. */
    protected final boolean cancelRequested() {
        CompletableFuture<ResultCode> c = cancellation;
        return c != null && c != FINISHED;
    }

    /** The answer of an operation that stopped because it was cancelled. */
    protected final Result cancelled() {
        return errorResult(ResultCode.CANCELLED, "Cancelled by the client (RFC 3909)");
    }

    protected ResponseSink sink() {
        return sink;
    }

    /**
     * A response the operation kept back to go out with its result (one write for both), or {@code null}: a
     * search keeps its latest entry back until it finds the next or is done. Asked once, when it finishes.
     */
    protected Response keptBack() {
        return null;
    }

    @Override
    public final void run() {
        requester = session.authentication();
        if (abandoned) {
            // Abandoned before it started (an Abandon, or a bind received after it: RFC 4511 4.2.1): it must not
            // run, least of all as the identity a later bind gave the connection. Logged; nothing is sent. The
            // identity is read first: a bind abandons the operations before it can change the connection's
            // identity, so an operation that reads the new identity finds itself abandoned here.
            prepare();
            finish(errorResult(ResultCode.CANCELLED, "Abandoned before it ran"));
            return;
        }
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
            if (result == null && proxiedAuthorization != null) {
                result = actAsProxiedIdentity(proxiedAuthorization);
            }
            if (result == null && cancelRequested()) {
                result = cancelled();
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

    /**
     * Finishes the operation with {@code later}'s result when it completes (at once, on this thread, if it has);
     * {@code execute} returns what this returns. For an operation whose answer waits on another's (Cancel).
     */
    protected final Result finishWhen(CompletionStage<Result> later) {
        handOff = null;
        later.whenComplete((r, e) -> finish(r != null ? r
                : unexpected(e instanceof RuntimeException re ? re : new IllegalStateException(e))));
        return LATER;
    }

    /** Answers without running, when no worker can take the operation. */
    public final void rejectBusy() {
        refuse(ResultCode.BUSY, "The server is too busy to process the request; try again");
    }

    /** Answers {@code code} without running: the operation changes nothing. */
    public final void refuse(ResultCode code, String message) {
        requester = session.authentication();
        prepare();
        finish(errorResult(code, message));
    }

    /** Pre-operation plugins, called by {@code execute} just before the backend: a result if one stops it. */
    protected final Result preOperation() {
        return stopped(server.plugins().invokePre(PluginPhase.PRE_OPERATION, this));
    }

    /**
     * A write of this operation committed: hands it to the {@link io.bindfirst.server.commit.CommitPath} (every
     * listener sees it before the answer) and records it for post-operation and post-response plugins. Called by
     * {@link WriteOperation}, and by a bind that locked its account or used a grace login.
     */
    final void committed(EntryChange entryChange) {
        this.change = entryChange;
        AfterAnswer after = server.commits().commit(Change.of(entryChange, session.id()));
        if (!after.isEmpty()) {
            if (afterAnswer == null) {
                afterAnswer = after;
            } else {
                afterAnswer.addAll(after);
            }
        }
    }

    private Result stopped(PluginResult r) {
        return r.continues() ? null : errorResult(r.stopWith(), r.message());
    }

    private void finish(Result result) {
        resultCode = result.getResultCode();
        // One LongAdder add, by type and result, found by arithmetic: cn=monitor's and /metrics' counts.
        server.operationCounts().completed(operationType(), resultCode);
        session.operationDone(this);
        server.plugins().invokePost(PluginPhase.POST_OPERATION, this);
        long etime = System.nanoTime() - startNanos;
        timed(etime);
        try {
            String details = logDetails(result);
            if (proxied) { // whom the operation acted as; the connection's own identity is in its bind's record
                String authz = AccessRecord.quoted("authzDN",
                        requester.isAnonymous() ? "" : requester.authenticationDN());
                details = details.isEmpty() ? authz : details + " " + authz;
            }
            server.accessLog().log(new AccessRecord(System.currentTimeMillis(), kind(), session.id(),
                    operationId, messageId, logDN(), resultCode.intValue(), etime, details));
            Response last = keptBack();
            if (abandoned) {
                // nothing more for the client, what was kept back included
            } else if (last == null) {
                sink.send(result);
            } else {
                sink.sendWithResult(last, result);
            }
        } finally {
            sink.complete();
            // After this operation's response: a Cancel waiting on it answers next (RFC 3909 2.1).
            @SuppressWarnings("unchecked")
            CompletableFuture<ResultCode> c = (CompletableFuture<ResultCode>) CANCELLATION.getAndSet(this, FINISHED);
            if (c != null && c != FINISHED) {
                c.complete(resultCode);
            }
        }
        if (afterAnswer != null) {
            afterAnswer.run();
        }
        server.plugins().invokePost(PluginPhase.POST_RESPONSE, this);
    }

    /**
     * The operation's time is known (what the access log shows as its etime), once, when it finishes: for an
     * operation that records it. It runs on the bind path, so it must not allocate or look anything up.
     */
    protected void timed(long etimeNanos) {
    }

    /**
     * Refuses a critical control this operation does not implement (RFC 4511 4.1.11), and notes the Proxied
     * Authorization control, which {@link #actAsProxiedIdentity} applies once the controls are known good.
     */
    private Result checkControls(List<Control> controls) {
        for (Control c : controls) {
            if (VirtualEntries.OID_PROXIED_AUTHZ_V2.equals(c.getOID())) {
                if (!c.isCritical()) {
                    // RFC 4370 3: the control must be critical, and a server must refuse it otherwise so.
                    return errorResult(ResultCode.PROTOCOL_ERROR, "The proxied authorization control must be "
                            + "critical");
                }
                if (proxiedAuthorization != null) {
                    return errorResult(ResultCode.PROTOCOL_ERROR, "The proxied authorization control appears twice");
                }
                proxiedAuthorization = c;
            }
            if (c.isCritical() && !understands(c.getOID())) {
                return errorResult(ResultCode.UNAVAILABLE_CRITICAL_EXTENSION,
                        "The critical control " + c.getOID() + " is not supported for this operation");
            }
        }
        return null;
    }

    /**
     * RFC 4370: the operation runs as the identity the control names ({@code dn:}, {@code u:} mapped by the
     * identity mapper, or empty for anonymous), if the access policy lets the requester act as it: from here on
     * {@link #requester()} and {@link #accessRequester()} are that identity's, for access checks, search limits and
     * {@code modifiersName}. An identity that names no entry, or one the requester may not act as:
     * authorizationDenied. Runs on a worker (it may read the backends): no operation that takes it starts inline.
     */
    private Result actAsProxiedIdentity(Control control) {
        if (!control.hasValue()) {
            return errorResult(ResultCode.PROTOCOL_ERROR, "The proxied authorization control has no value");
        }
        AuthorizationIdentity target;
        try {
            target = AuthorizationIdentity.resolve(server, AuthorizationIdentity.ofControlValue(control.getValue()),
                    requester.authMethod());
        } catch (BackendException e) {
            return errorResult(e.resultCode(), e.getMessage());
        }
        if (target == null) {
            return errorResult(ResultCode.AUTHORIZATION_DENIED,
                    "The proxied authorization identity names no user that can be acted as");
        }
        AccessDecision allowed = server.accessPolicy().mayProxyAs(accessRequester(), target.entry());
        if (!allowed.allowed()) {
            return errorResult(ResultCode.AUTHORIZATION_DENIED, allowed.message());
        }
        requester = target.as();
        accessRequester = null; // taken again, for the new identity, on first use
        proxied = true;
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

    /**
     * The request's control decoded with {@code decoder}, or {@code null} when the request has none.
     *
     * @throws DecodeException when its value is malformed: the operation answers {@code protocolError}
     */
    protected final <C extends Control> C control(ControlDecoder<C> decoder) throws DecodeException {
        for (Control c : requestControls()) {
            if (c.getOID().equals(decoder.getOID())) {
                return SdkDecodeErrors.decodeControl(decoder, c, server.schema());
            }
        }
        return null;
    }

    /** The answer to a request whose control could not be decoded. */
    protected final Result malformedControl(DecodeException e) {
        return errorResult(ResultCode.PROTOCOL_ERROR, "A request control is malformed: " + e.getMessage());
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

    /**
     * The requester as access control sees it: {@link #requester()} with its connection's address and security
     * strength, taken on first use.
     */
    protected final Requester accessRequester() {
        Requester r = accessRequester;
        if (r == null) {
            r = new Requester(requester, session.clientAddress(), session.securityStrength());
            accessRequester = r;
        }
        return r;
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
        return VirtualEntries.OID_MANAGE_DSAIT.equals(oid)
                || VirtualEntries.OID_PROXIED_AUTHZ_V2.equals(oid) && actsAsProxiedIdentity();
    }

    /**
     * Whether the operation takes the Proxied Authorization control (RFC 4370): searches, compares, writes and the
     * extended operations that act for a user do; bind and StartTLS cannot (a critical one is refused as any
     * control the operation does not implement).
     */
    protected boolean actsAsProxiedIdentity() {
        return false;
    }

    protected abstract List<Control> requestControls();

    /** Runs the operation, sending any intermediate responses through {@link #sink()}. */
    protected abstract Result execute();

    /**
     * The deepest existing superior of {@code dn}, for a noSuchObject result (RFC 4511 4.1.9: "the name of the last
     * entry used in finding the target"), or "" when none is (or the storage cannot tell).
     */
    protected final String matchedDN(DN dn) {
        Backend backend = server.backends().backendFor(dn);
        if (backend == null) {
            return "";
        }
        try {
            for (DN p = dn.parent(); p != null && !p.isRootDN(); p = p.parent()) {
                if (backend.entryExists(p)) {
                    return p.toString();
                }
            }
        } catch (BackendException e) {
            // no matched DN then
        }
        return "";
    }

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
