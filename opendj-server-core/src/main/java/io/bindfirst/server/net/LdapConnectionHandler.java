package io.bindfirst.server.net;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.Set;

import org.forgerock.opendj.grizzly.GrizzlyLDAPListener;
import org.forgerock.opendj.ldap.DecodeOptions;
import org.forgerock.opendj.ldap.LDAPListener;
import org.forgerock.opendj.ldap.ResultCode;
import org.forgerock.opendj.ldap.schema.Schema;
import org.forgerock.util.Options;

import com.forgerock.reactive.RxJavaStreams;

import io.bindfirst.server.auth.AuthenticatedUsers;
import io.bindfirst.server.auth.BoundConnection;
import io.bindfirst.server.config.ServerConfig;
import io.bindfirst.server.core.OperationFactory;
import io.bindfirst.server.log.AccessLog;
import io.bindfirst.server.log.AccessRecord;
import io.bindfirst.server.work.WorkQueue;

/**
 * The LDAP listener: the OpenDJ SDK's Grizzly listener on the server's own {@link LdapTransport}, with one
 * {@link LdapRequestHandler} per accepted connection, admitted by {@link ClientConnections} (the maximum
 * number of connections) and read only while the work queue has room ({@link ReadGate}).
 */
public final class LdapConnectionHandler implements AutoCloseable {
    private final ClientConnections connections;
    private final ReadGate gate;
    private final LdapTransport transport;
    private final GrizzlyLDAPListener listener;

    /**
     * @param schema      the server schema; requests are decoded with its non-strict form
     * @param operations  builds the operation that answers each request
     * @param connections the server's open connections (the registry of authenticated users resolves
     *                    through them); closed with this handler, or if it cannot start
     */
    public LdapConnectionHandler(ServerConfig.Listener cfg, Schema schema, OperationFactory operations,
                                 AuthenticatedUsers<BoundConnection> authenticatedUsers, AccessLog accessLog,
                                 WorkQueue workQueue, ClientConnections connections) throws IOException {
        this.connections = connections;
        this.gate = new ReadGate(workQueue, connections);
        OperationDispatch dispatch = new OperationDispatch(workQueue, cfg.inlineOperations());
        this.transport = new LdapTransport(cfg.selectorThreads(), gate);
        // Decode leniently: with the strict schema an unknown attribute in a request fails decoding, and
        // the client gets protocolError instead of the operation's own answer (undefinedAttributeType for
        // an add, a read-only refusal for cn=config...). Operations check names against the strict schema.
        DecodeOptions decodeOptions = new DecodeOptions().setSchema(schema.asNonStrictSchema());
        Options options = Options.defaultOptions()
                .set(LDAPListener.CONNECT_MAX_BACKLOG, cfg.backlog())
                .set(LDAPListener.REQUEST_MAX_SIZE_IN_BYTES, cfg.maxRequestBytes())
                // Off: the SDK 5.0.3 limit re-delivers a request after suspending a read (see OperationSlots),
                // which enforces the configured limit instead.
                .set(LDAPListener.MAX_CONCURRENT_REQUESTS, Integer.MAX_VALUE)
                .set(LDAPListener.LDAP_DECODE_OPTIONS, decodeOptions)
                .set(LDAPListener.TCP_NO_DELAY, true);
        try {
            this.listener = new GrizzlyLDAPListener(Set.of(new InetSocketAddress(cfg.address(), cfg.port())),
                    context -> {
                        ClientConnection c = new ClientConnection(context, connections, authenticatedUsers,
                                accessLog, cfg.maxConcurrentOpsPerConnection());
                        LdapRequestHandler handler =
                                new LdapRequestHandler(operations, dispatch, decodeOptions, context, c);
                        accessLog.log(AccessRecord.connection("CONNECT", c.id(),
                                "from=" + hostPort(context.getPeerAddress()) + " to="
                                        + hostPort(context.getLocalAddress()) + " protocol=LDAP"));
                        if (!connections.tryAdd(c)) {
                            c.disconnect(ResultCode.ADMIN_LIMIT_EXCEEDED, "The server already has the maximum of "
                                    + connections.max() + " client connections open");
                            return (ctx, request) -> RxJavaStreams.emptyStream();
                        }
                        return handler;
                    }, options, transport.grizzly());
        } catch (IOException | RuntimeException e) {
            transport.close();
            connections.close();
            throw e;
        }
    }

    private static String hostPort(InetSocketAddress a) {
        return a == null ? "unknown" : a.getAddress().getHostAddress() + ":" + a.getPort();
    }

    /** The address actually bound (the port is chosen by the system when configured as 0). */
    public InetSocketAddress address() {
        return listener.getSocketAddresses().iterator().next();
    }

    public ClientConnections connections() {
        return connections;
    }

    /** Reads parked because the work queue was saturated, since the start. */
    public long timesReadsParked() {
        return gate.timesParked();
    }

    /** Stops accepting, then stops every connection with a notice of disconnection (unavailable). */
    @Override
    public void close() {
        listener.close();
        connections.close();
        connections.disconnectAll(ResultCode.UNAVAILABLE, "The Directory Server is shutting down");
        transport.close();
    }
}
