package io.bindfirst.server.testsupport;

import java.net.InetAddress;
import java.security.cert.X509Certificate;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import org.forgerock.opendj.ldap.DN;
import org.forgerock.opendj.ldap.ResultCode;

import io.bindfirst.server.auth.AuthenticatedUsers;
import io.bindfirst.server.auth.AuthenticationInfo;
import io.bindfirst.server.auth.BoundConnection;
import io.bindfirst.server.auth.BoundIdentity;
import io.bindfirst.server.core.Operation;
import io.bindfirst.server.core.Session;

/**
 * A client connection without a socket: a loopback client without TLS, as the integration tests' clients are. Its
 * identity is kept with the server's registry of authenticated connections, as the transport's connection keeps it
 * ({@link BoundIdentity}); it keeps its outstanding operations by message ID, as that connection does (for Cancel),
 * and records the notices of disconnection the server sent it. The registry finds connections through the
 * transport's table, which does not hold this one: a write that disconnects an account's connections does not reach
 * it.
 */
public final class TestSession implements Session, BoundConnection {
    private final long id;
    private final BoundIdentity identity;
    private final AtomicLong nextOperationId = new AtomicLong();
    private final AtomicInteger nextMessageId = new AtomicInteger(1);
    private final Map<Integer, Operation> outstanding = new ConcurrentHashMap<>();
    private final AtomicInteger unfinished = new AtomicInteger();
    private volatile int bindMessageId = -1;
    private final List<String> disconnects = new CopyOnWriteArrayList<>();

    public TestSession(long id, AuthenticatedUsers<BoundConnection> registry) {
        this.id = id;
        this.identity = new BoundIdentity(registry, this);
    }

    /** The message ID of this session's next request. */
    public int nextMessageId() {
        return nextMessageId.getAndIncrement();
    }

    /** The operation was decoded and will run: what the transport's connection records before it starts one. */
    public void started(Operation op) {
        unfinished.incrementAndGet();
        if (op.keptByMessageId()) {
            outstanding.put(op.messageId(), op);
        } else {
            bindMessageId = op.messageId();
        }
    }

    /** Operations started and not yet {@linkplain #operationDone done}: 0 once each has answered. */
    public int unfinished() {
        return unfinished.get();
    }

    /** The notices of disconnection sent to this session, as {@code code: message}. */
    public List<String> disconnects() {
        return List.copyOf(disconnects);
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

    @Override
    public Operation outstanding(int messageId) {
        return outstanding.get(messageId);
    }

    @Override
    public boolean bindInProgress(int messageId) {
        return bindMessageId == messageId;
    }

    @Override
    public void operationDone(Operation operation) {
        if (operation.keptByMessageId()) {
            outstanding.remove(operation.messageId(), operation);
        } else {
            bindMessageId = -1;
        }
        unfinished.decrementAndGet();
    }

    @Override
    public int securityStrength() {
        return 0;
    }

    @Override
    public X509Certificate clientCertificate() {
        return null;
    }

    @Override
    public boolean fromLoopback() {
        return true;
    }

    @Override
    public InetAddress clientAddress() {
        return InetAddress.getLoopbackAddress();
    }

    @Override
    public TlsStart startTls() {
        return TlsStart.NOT_OFFERED;
    }

    @Override
    public boolean isClosed() {
        return !disconnects.isEmpty();
    }

    @Override
    public void disconnect(ResultCode code, String message) {
        disconnects.add(code + ": " + message);
        identity.closed();
    }
}
