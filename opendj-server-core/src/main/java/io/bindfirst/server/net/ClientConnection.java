package io.bindfirst.server.net;

import java.net.InetSocketAddress;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import org.forgerock.opendj.ldap.LDAPClientContext;
import org.forgerock.opendj.ldap.ResultCode;

import io.bindfirst.server.ServerContext;
import io.bindfirst.server.auth.AuthenticationInfo;
import io.bindfirst.server.core.Operation;
import io.bindfirst.server.log.AccessRecord;

/**
 * The server's view of one client connection: its number, who it is authenticated as, and its
 * operations in flight (for abandon). Shared by the selector thread that decodes its requests and the
 * workers that run them, so every field is thread-safe.
 */
public final class ClientConnection {
    private static final AtomicLong NEXT_ID = new AtomicLong();

    private final long id = NEXT_ID.getAndIncrement();
    private final ServerContext server;
    private final LDAPClientContext context;
    private final ClientConnections connections;
    /** Activity is recorded only when an idle time limit is set: nothing per request otherwise. */
    private final boolean tracksActivity;
    private final OperationSlots slots;
    private volatile long lastActivityNanos = System.nanoTime();
    private final AtomicLong nextOperationId = new AtomicLong();
    private final ConcurrentHashMap<Integer, Operation> inFlight = new ConcurrentHashMap<>();
    private final AtomicBoolean closed = new AtomicBoolean();
    /** Swapped whole, never mutated: readers on other threads see one bind's state or the next's. */
    private final AtomicReference<AuthenticationInfo> authentication =
            new AtomicReference<>(AuthenticationInfo.ANONYMOUS);

    ClientConnection(ServerContext server, LDAPClientContext context, ClientConnections connections) {
        this.server = server;
        this.context = context;
        this.connections = connections;
        this.tracksActivity = connections.tracksActivity();
        this.slots = new OperationSlots(server.config().listener().maxConcurrentOpsPerConnection());
    }

    public long id() {
        return id;
    }

    public long nextOperationId() {
        return nextOperationId.getAndIncrement();
    }

    public AuthenticationInfo authentication() {
        return authentication.get();
    }

    public InetSocketAddress peerAddress() {
        return context.getPeerAddress();
    }

    public boolean isClosed() {
        return closed.get();
    }

    /**
     * Makes the connection anonymous and forgets its registration; the first step of every bind
     * (RFC 4513 4: a bind, whatever its outcome, ends the previous authentication).
     */
    public void resetAuthentication() {
        AuthenticationInfo old = authentication.getAndSet(AuthenticationInfo.ANONYMOUS);
        if (!old.isAnonymous()) {
            server.authenticatedUsers().remove(old.authenticationDN(), this);
        }
    }

    /**
     * Records a successful bind. Registers before publishing, so that a change to the entry made from
     * now on finds this connection. A connection closed meanwhile is deregistered again.
     */
    public void authenticated(AuthenticationInfo info) {
        server.authenticatedUsers().put(info.authenticationDN(), this);
        authentication.set(info);
        if (closed.get()) {
            server.authenticatedUsers().remove(info.authenticationDN(), this);
        }
    }

    /**
     * Replaces the authentication only if the connection is still bound as {@code expectedDN}: a
     * post-response plugin refreshing or re-keying it must not overwrite a re-bind that won the race.
     *
     * @return whether it was replaced
     */
    public boolean replaceAuthentication(org.forgerock.opendj.ldap.DN expectedDN, AuthenticationInfo info) {
        while (true) {
            AuthenticationInfo current = authentication.get();
            if (current.isAnonymous() || !current.authenticationDN().equals(expectedDN)) {
                return false;
            }
            if (authentication.compareAndSet(current, info)) {
                return true;
            }
        }
    }

    /** A request arrived (any request, including abandon). */
    void requestReceived() {
        if (tracksActivity) {
            lastActivityNanos = System.nanoTime();
        }
    }

    /** An operation was decoded and will run; abandonable ones are kept by message ID for abandon. */
    void operationStarted(Operation op) {
        slots.received();
        if (op.abandonable()) {
            inFlight.put(op.messageId(), op);
        }
    }

    /** Called once per started operation, when its result is ready. */
    public void operationDone(Operation op) {
        if (tracksActivity) {
            lastActivityNanos = System.nanoTime();
        }
        if (op.abandonable()) {
            inFlight.remove(op.messageId(), op);
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

    void abandon(int messageId) {
        Operation op = inFlight.get(messageId);
        if (op != null) {
            op.abandon();
        }
    }

    /** Sends a notice of disconnection (RFC 4511 4.4.1) and closes. */
    public void disconnect(ResultCode code, String message) {
        context.disconnect(code, message);
        closed(message);
    }

    /** Called once the transport reports the connection gone, however it went. */
    void closed(String reason) {
        if (closed.compareAndSet(false, true)) {
            connections.remove(this);
            AuthenticationInfo old = authentication.get();
            if (!old.isAnonymous()) {
                server.authenticatedUsers().remove(old.authenticationDN(), this);
            }
            for (Operation op : inFlight.values()) {
                op.abandon();
            }
            server.accessLog().log(AccessRecord.connection("DISCONNECT", id, "reason=\"" + reason + "\""));
        }
    }

    @Override
    public String toString() {
        return "conn=" + id;
    }
}
