package io.bindfirst.server.net;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import java.security.cert.Certificate;
import java.security.cert.X509Certificate;

import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLPeerUnverifiedException;

import org.forgerock.opendj.ldap.DN;
import org.forgerock.opendj.ldap.LDAPClientContext;
import org.forgerock.opendj.ldap.ResultCode;
import org.glassfish.grizzly.Connection;

import io.bindfirst.server.auth.AuthenticatedUsers;
import io.bindfirst.server.auth.AuthenticationInfo;
import io.bindfirst.server.auth.BoundConnection;
import io.bindfirst.server.auth.BoundIdentity;
import io.bindfirst.server.core.Operation;
import io.bindfirst.server.plugin.OperationType;
import io.bindfirst.server.core.Session;
import io.bindfirst.server.log.AccessLog;
import io.bindfirst.server.log.AccessRecord;
import io.bindfirst.server.tls.SecurityStrength;
import io.bindfirst.server.tls.TlsStatistics;

/**
 * The server's view of one client connection: its number, who it is authenticated as, and its
 * operations in flight (for abandon). Shared by the selector thread that decodes its requests and the
 * workers that run them, so every field is thread-safe. It is the core's {@link Session} and the
 * registry's {@link BoundConnection}: those two interfaces are all the rest of the server sees of it.
 */
public final class ClientConnection implements Session, BoundConnection {
    private final long id;
    private final LDAPClientContext context;
    private final ClientConnections connections;
    private final AccessLog accessLog;
    /** Activity is recorded only when an idle time limit is set: nothing per request otherwise. */
    private final boolean tracksActivity;
    private final OperationSlots slots;
    private volatile long lastActivityNanos = System.nanoTime();
    private final AtomicLong nextOperationId = new AtomicLong();
    private final ConcurrentHashMap<Integer, Operation> inFlight = new ConcurrentHashMap<>();
    /** The message ID of the bind in progress, or -1: a plain field, so that a bind pays no fence for it. */
    private int bindMessageId = -1;
    private final AtomicBoolean closed = new AtomicBoolean();
    /** Who it is bound as, in step with the registry (auth's to keep). */
    private final BoundIdentity identity;
    /** TLS for this connection (LDAPS, or StartTLS on a listener that offers it), or {@code null}. */
    private final TlsLayer tls;
    private final boolean startTlsOffered;
    private final boolean fromLoopback;
    private final java.net.InetAddress clientAddress;
    /** The Grizzly connection under this one, once its first read or handshake has named it. */
    private volatile Connection<?> transport;
    /** {@link #TLS_NONE}, then {@link #TLS_HANDSHAKING}, then {@link #TLS_UP} or {@link #TLS_ENDED}. */
    private final AtomicInteger tlsState = new AtomicInteger(TLS_NONE);
    private static final int TLS_NONE = 0;
    private static final int TLS_HANDSHAKING = 1;
    private static final int TLS_UP = 2;
    private static final int TLS_ENDED = 3;
    /** Set when the handshake's first bytes arrive. */
    private volatile SSLEngine tlsEngine;
    private volatile long handshakeStartNanos;
    private volatile long handshakeStartMillis;
    /**
     * The handshake's deadline while it is pending; cancelled when the handshake ends, so that the timer does
     * not hold a closed connection and its TLS buffers for the rest of the time limit (in a reconnect storm,
     * thousands of them).
     */
    private volatile ScheduledFuture<?> handshakeDeadline;
    /** The negotiated protocol once the handshake has finished. */
    private volatile String tlsProtocol;
    /** The negotiated cipher's strength, once known (0 until the handshake has finished). */
    private volatile int securityStrength;

    /**
     * @param connections          the server's open connections: they number this one, and it leaves them
     *                             when it closes
     * @param maxOperationsInFlight the per-connection limit on outstanding operations
     * @param tls                  the server's TLS, or {@code null} when none is configured
     * @param startTlsOffered      whether this connection's listener offers StartTLS
     */
    ClientConnection(LDAPClientContext context, ClientConnections connections,
                     AuthenticatedUsers<BoundConnection> authenticatedUsers, AccessLog accessLog,
                     int maxOperationsInFlight, TlsLayer tls, boolean startTlsOffered) {
        this.id = connections.nextId();
        this.context = context;
        this.connections = connections;
        this.identity = new BoundIdentity(authenticatedUsers, this);
        this.accessLog = accessLog;
        this.tracksActivity = connections.tracksActivity();
        this.slots = new OperationSlots(maxOperationsInFlight);
        this.tls = tls;
        this.startTlsOffered = tls != null && startTlsOffered;
        InetSocketAddress peer = context == null ? null : context.getPeerAddress();
        this.clientAddress = peer == null ? null : peer.getAddress();
        this.fromLoopback = clientAddress != null && clientAddress.isLoopbackAddress();
    }

    @Override
    public long id() {
        return id;
    }

    @Override
    public long nextOperationId() {
        return nextOperationId.getAndIncrement();
    }

    @Override
    public AuthenticationInfo authentication() {
        return identity.get();
    }

    public InetSocketAddress peerAddress() {
        return context.getPeerAddress();
    }

    InetSocketAddress localAddress() {
        return context.getLocalAddress();
    }

    /** The Grizzly connection under this one (see {@link ClientConnections#of}). */
    void attachTransport(Connection<?> grizzly) {
        transport = grizzly;
    }

    @Override
    public boolean isClosed() {
        return closed.get();
    }

    @Override
    public void resetAuthentication() {
        identity.reset();
    }

    @Override
    public void authenticated(AuthenticationInfo info) {
        identity.authenticated(info);
    }

    @Override
    public boolean replaceAuthentication(DN expectedDN, AuthenticationInfo info) {
        return identity.replace(expectedDN, info);
    }

    /** A request arrived (any request, including abandon). */
    void requestReceived() {
        if (tracksActivity) {
            lastActivityNanos = System.nanoTime();
        }
    }

    /** An operation was decoded and will run; all but binds are kept by message ID, for abandon and cancel. */
    void operationStarted(Operation op) {
        slots.received();
        if (op.keptByMessageId()) {
            inFlight.put(op.messageId(), op);
        } else {
            bindMessageId = op.messageId();
        }
    }

    @Override
    public void operationDone(Operation op) {
        if (tracksActivity) {
            lastActivityNanos = System.nanoTime();
        }
        if (op.keptByMessageId()) {
            inFlight.remove(op.messageId(), op);
        } else {
            bindMessageId = -1;
        }
        slots.done();
    }

    /** The connection's limit on outstanding operations. */
    OperationSlots slots() {
        return slots;
    }

    /** How long the connection has been idle at {@code now}: 0 while an operation is in progress. */
    long idleNanos(long now) {
        return slots.outstanding() > 0 ? 0 : now - lastActivityNanos;
    }

    /** Stops its searches at their next check, without an answer: the server is stopping (see ClientConnections). */
    void abandonSearches() {
        for (Operation op : inFlight.values()) {
            if (op.operationType() == OperationType.SEARCH) {
                op.abandon();
            }
        }
    }

    /**
     * RFC 4511 4.2.1: "Before processing a BindRequest, all uncompleted operations MUST either complete or be
     * abandoned." Called when a bind is received, before it is queued: every outstanding operation is abandoned,
     * as slapd does. Without this, a search sent just before a bind could run after it, as the bind's identity
     * (the bind may run inline, or on another worker first).
     */
    void abandonBeforeBind() {
        if (inFlight.isEmpty()) {
            return; // the common case (binds are not kept in it): no iterator for every bind
        }
        for (Operation op : inFlight.values()) {
            if (op.abandonable()) {
                op.abandon();
            }
        }
    }

    void abandon(int messageId) {
        Operation op = inFlight.get(messageId);
        if (op != null && op.abandonable()) {
            op.abandon();
        }
    }

    @Override
    public Operation outstanding(int messageId) {
        return inFlight.get(messageId);
    }

    @Override
    public boolean bindInProgress(int messageId) {
        return bindMessageId == messageId;
    }

    /**
     * Sends the notice of disconnection and closes; mid-handshake (after StartTLS, or on LDAPS before the first
     * handshake ends) closes without it. The client then reads TLS records and none can carry a notice yet: the
     * SDK would queue it behind the handshake and keep the connection open until the client finished it, for
     * ever if it never did (the handshake's time limit ends with {@link #closed}), e.g. a connection of a user
     * deleted between StartTLS and the handshake's end.
     */
    @Override
    public void disconnect(ResultCode code, String message) {
        if (tlsState.get() == TLS_HANDSHAKING) {
            closeWithoutNotice(message);
            return;
        }
        context.disconnect(code, message);
        closed(message);
    }

    /**
     * Closes the connection at once, dropping whatever is queued for the client and not yet given to the
     * kernel: for a client that has not read its results for the longest a search waits for it, to which
     * nothing more could be written.
     */
    void terminate(String reason) {
        closed(reason);
        Connection<?> grizzly = transport;
        if (grizzly != null) {
            grizzly.terminateSilently();
        } else {
            context.disconnect();
        }
    }

    /** Called once the transport reports the connection gone, however it went. */
    void closed(String reason) {
        if (closed.compareAndSet(false, true)) {
            connections.remove(this);
            identity.closed();
            for (Operation op : inFlight.values()) {
                op.abandon();
            }
            tlsClosed();
            accessLog.log(AccessRecord.connection("DISCONNECT", id, AccessRecord.quoted("reason", reason)));
        }
    }

    @Override
    public boolean fromLoopback() {
        return fromLoopback;
    }

    @Override
    public java.net.InetAddress clientAddress() {
        return clientAddress;
    }

    @Override
    public int securityStrength() {
        int known = securityStrength;
        if (known > 0 || tlsState.get() != TLS_UP) {
            return known;
        }
        int ssf = SecurityStrength.ofCipherSuite(tlsEngine.getSession().getCipherSuite());
        securityStrength = ssf;
        return ssf;
    }

    @Override
    public X509Certificate clientCertificate() {
        if (tlsState.get() != TLS_UP) {
            return null;
        }
        try {
            Certificate[] chain = tlsEngine.getSession().getPeerCertificates();
            return chain.length > 0 && chain[0] instanceof X509Certificate x ? x : null;
        } catch (SSLPeerUnverifiedException none) {
            return null;
        }
    }

    /** Whether a TLS handshake has begun (or is expected, on LDAPS) and not yet ended. */
    boolean tlsHandshaking() {
        return tlsState.get() == TLS_HANDSHAKING;
    }

    /** LDAPS: TLS from the first byte (the listener's chain has the TLS filter). */
    void beginTls() {
        if (tlsState.compareAndSet(TLS_NONE, TLS_HANDSHAKING)) {
            handshakeDeadline();
        }
    }

    @Override
    public TlsStart startTls() {
        if (tlsState.get() != TLS_NONE) {
            return TlsStart.ALREADY_SECURE;
        }
        if (!startTlsOffered) {
            return TlsStart.NOT_OFFERED;
        }
        if (slots.outstanding() > 1) {
            return TlsStart.OPERATIONS_OUTSTANDING;
        }
        Connection<?> grizzly = transport;
        if (grizzly == null || !tlsState.compareAndSet(TLS_NONE, TLS_HANDSHAKING)) {
            return TlsStart.ALREADY_SECURE;
        }
        if (!tls.startTls(grizzly)) {
            return TlsStart.ALREADY_SECURE;
        }
        handshakeDeadline();
        return TlsStart.STARTED;
    }

    /**
     * The handshake has {@link TlsLayer#handshakeTimeout()} to finish, enforced here on the connections' timer:
     * a client that opens a connection and never finishes a handshake must not hold it.
     */
    private void handshakeDeadline() {
        Duration timeout = tls.handshakeTimeout();
        handshakeDeadline = connections.afterDelay(timeout, () -> {
            if (!isClosed() && tlsState.get() == TLS_HANDSHAKING) {
                handshakeFailed("timeout");
                closeWithoutNotice("TLS handshake not finished within " + timeout.toMillis() + " ms");
            }
        });
        if (tlsState.get() != TLS_HANDSHAKING) {
            cancelHandshakeDeadline(); // it ended while the deadline was being set
        }
    }

    private void cancelHandshakeDeadline() {
        ScheduledFuture<?> deadline = handshakeDeadline;
        if (deadline != null) {
            deadline.cancel(false);
            handshakeDeadline = null;
        }
    }

    /** The client's first handshake bytes arrived and made {@code engine}. */
    void handshakeStarted(SSLEngine engine) {
        tlsEngine = engine;
        handshakeStartMillis = System.currentTimeMillis();
        handshakeStartNanos = System.nanoTime();
        tls.statistics().handshakeStarted();
    }

    void handshakeFinished() {
        SSLEngine engine = tlsEngine;
        if (engine != null && tlsState.compareAndSet(TLS_HANDSHAKING, TLS_UP)) {
            String protocol = engine.getSession().getProtocol();
            tlsProtocol = protocol;
            TlsStatistics.Kind kind = TlsStatistics.kindOf(engine.getSession(), handshakeStartMillis,
                    tls.sessionTimeResolutionMillis());
            tls.statistics().handshakeFinished(kind, protocol, System.nanoTime() - handshakeStartNanos);
            cancelHandshakeDeadline();
        }
    }

    /** The handshake failed ({@link TlsStatistics#reasonOf}); counted once, whatever reports it after. */
    void handshakeFailed(String reason) {
        if (tlsState.compareAndSet(TLS_HANDSHAKING, TLS_ENDED)) {
            tls.statistics().handshakeFailed(reason);
            cancelHandshakeDeadline();
        }
    }

    /** The connection closed: a handshake in progress counts as failed, an established one leaves the gauge. */
    private void tlsClosed() {
        if (tlsState.compareAndSet(TLS_UP, TLS_ENDED)) {
            tls.statistics().connectionClosed(tlsProtocol);
        } else {
            handshakeFailed("closed");
        }
    }

    /**
     * Closes the connection without a notice of disconnection: for a connection whose TLS handshake never
     * finished, where nothing can be sent that the client could read.
     */
    void closeWithoutNotice(String reason) {
        closed(reason); // first: the transport's own report of the close would name no reason
        context.disconnect();
    }

    @Override
    public String toString() {
        return "conn=" + id;
    }
}
