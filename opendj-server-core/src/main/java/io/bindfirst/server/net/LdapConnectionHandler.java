package io.bindfirst.server.net;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Set;

import org.forgerock.opendj.grizzly.GrizzlyLDAPListener;
import org.forgerock.opendj.ldap.DecodeOptions;
import org.forgerock.opendj.ldap.LDAPClientContext;
import org.forgerock.opendj.ldap.LDAPListener;
import org.forgerock.opendj.ldap.ResultCode;
import org.forgerock.opendj.ldap.responses.Response;
import org.forgerock.opendj.ldap.schema.Schema;
import org.forgerock.opendj.ldap.spi.LdapMessages.LdapRequestEnvelope;
import org.forgerock.util.Options;

import com.forgerock.reactive.ReactiveHandler;
import com.forgerock.reactive.RxJavaStreams;
import com.forgerock.reactive.Stream;

import io.bindfirst.server.auth.AuthenticatedUsers;
import io.bindfirst.server.auth.BoundConnection;
import io.bindfirst.server.config.ServerConfig;
import io.bindfirst.server.core.OperationFactory;
import io.bindfirst.server.log.AccessLog;
import io.bindfirst.server.log.AccessRecord;
import io.bindfirst.server.tls.TlsContext;
import io.bindfirst.server.tls.TlsStatistics;
import io.bindfirst.server.work.WorkQueue;

/**
 * The LDAP listeners: the OpenDJ SDK's Grizzly listener for LDAP (with StartTLS) and, when enabled, one for
 * LDAPS, both on the server's own {@link LdapTransport}, with one {@link LdapRequestHandler} per accepted
 * connection, admitted by {@link ClientConnections} (the maximum number of connections, over both) and read
 * only while the work queue has room ({@link ReadGate}).
 */
public final class LdapConnectionHandler implements AutoCloseable {
    private final ClientConnections connections;
    private final ReadGate gate;
    private final LdapTransport transport;
    private final GrizzlyLDAPListener listener;
    private final GrizzlyLDAPListener ldapsListener;
    private final TlsStatistics tlsStatistics;
    private final TlsLayer tlsLayer;
    /**
     * How long a stop waits for the operations under way: a write takes milliseconds; what is still running
     * after this (a search whose client reads slowly) is abandoned with the connection.
     */
    static final Duration DRAIN_LIMIT = Duration.ofSeconds(10);

    /**
     * @param ldap        the LDAP listener's settings (its selector threads serve both listeners)
     * @param ldaps       the LDAPS listener's settings, or {@code null} for none
     * @param tls         the server's TLS, or {@code null} when none is configured (then {@code ldaps} is null)
     * @param schema      the server schema; requests are decoded with its non-strict form
     * @param operations  builds the operation that answers each request
     * @param connections the server's open connections (the registry of authenticated users resolves
     *                    through them); closed with this handler, or if it cannot start
     * @param tlsStatistics where the TLS handshakes are counted (made by the server, which publishes them)
     */
    public LdapConnectionHandler(ServerConfig.Listener ldap, ServerConfig.Listener ldaps, TlsContext tls,
                                 Schema schema, OperationFactory operations,
                                 AuthenticatedUsers<BoundConnection> authenticatedUsers, AccessLog accessLog,
                                 WorkQueue workQueue, ClientConnections connections, TlsStatistics tlsStatistics)
            throws IOException {
        this.connections = connections;
        this.tlsStatistics = tlsStatistics;
        this.gate = new ReadGate(workQueue, connections);
        this.transport = new LdapTransport(ldap.selectorThreads(), gate);
        // Decode leniently: with the strict schema an unknown attribute in a request fails decoding, and
        // the client gets protocolError instead of the operation's own answer (undefinedAttributeType for
        // an add, a read-only refusal for cn=config...). Operations check names against the strict schema.
        DecodeOptions decodeOptions = new DecodeOptions().setSchema(schema.asNonStrictSchema());
        this.tlsLayer = tls == null ? null : new TlsLayer(tls, tlsStatistics, connections, tls.handshakeThreads(),
                tls.handshakeNice());
        Accept accept = new Accept(operations, decodeOptions, authenticatedUsers, accessLog, workQueue, tlsLayer);
        GrizzlyLDAPListener plain = null;
        try {
            plain = listen(ldap, accept, decodeOptions);
            this.listener = plain;
            if (ldaps != null) {
                transport.useFilters(tlsLayer.ldapsFilters());
            }
            this.ldapsListener = ldaps == null ? null : listen(ldaps, accept, decodeOptions);
        } catch (IOException | RuntimeException e) {
            if (plain != null) {
                plain.close();
            }
            transport.close();
            connections.close();
            if (tlsLayer != null) {
                tlsLayer.close();
            }
            throw new ListenException(ldaps != null && plain != null ? ldaps : ldap, e);
        }
    }

    private GrizzlyLDAPListener listen(ServerConfig.Listener cfg, Accept accept, DecodeOptions decodeOptions)
            throws IOException {
        Options options = Options.defaultOptions()
                .set(LDAPListener.CONNECT_MAX_BACKLOG, cfg.backlog())
                .set(LDAPListener.REQUEST_MAX_SIZE_IN_BYTES, cfg.maxRequestBytes())
                // Off: the SDK 5.0.3 limit re-delivers a request after suspending a read (see OperationSlots),
                // which enforces the configured limit instead.
                .set(LDAPListener.MAX_CONCURRENT_REQUESTS, Integer.MAX_VALUE)
                .set(LDAPListener.LDAP_DECODE_OPTIONS, decodeOptions)
                .set(LDAPListener.TCP_NO_DELAY, true);
        OperationDispatch dispatch = new OperationDispatch(accept.workQueue, cfg.inlineOperations(),
                connections::draining);
        return new GrizzlyLDAPListener(Set.of(new InetSocketAddress(cfg.address(), cfg.port())),
                context -> accept.connection(context, cfg, dispatch), options, transport.grizzly());
    }

    /** What every accepted connection is built with. */
    private final class Accept {
        final OperationFactory operations;
        final DecodeOptions decodeOptions;
        final AuthenticatedUsers<BoundConnection> authenticatedUsers;
        final AccessLog accessLog;
        final WorkQueue workQueue;
        final TlsLayer tls;

        Accept(OperationFactory operations, DecodeOptions decodeOptions,
               AuthenticatedUsers<BoundConnection> authenticatedUsers, AccessLog accessLog, WorkQueue workQueue,
               TlsLayer tls) {
            this.operations = operations;
            this.decodeOptions = decodeOptions;
            this.authenticatedUsers = authenticatedUsers;
            this.accessLog = accessLog;
            this.workQueue = workQueue;
            this.tls = tls;
        }

        ReactiveHandler<LDAPClientContext, LdapRequestEnvelope, Stream<Response>> connection(
                LDAPClientContext context, ServerConfig.Listener cfg, OperationDispatch dispatch) {
            ClientConnection c = new ClientConnection(context, connections, authenticatedUsers, accessLog,
                    cfg.maxConcurrentOpsPerConnection(), tls, cfg.allowStartTls());
            LdapRequestHandler handler = new LdapRequestHandler(operations, dispatch, decodeOptions, context, c,
                    transport.gather());
            accessLog.log(AccessRecord.connection("CONNECT", c.id(),
                    "from=" + hostPort(context.getPeerAddress()) + " to=" + hostPort(context.getLocalAddress())
                            + " protocol=" + (cfg.useSsl() ? "LDAPS" : "LDAP")));
            if (!connections.tryAdd(c)) {
                // On LDAPS the notice cannot be read (no handshake yet): the connection is just closed.
                if (cfg.useSsl()) {
                    c.closeWithoutNotice("The server already has the maximum of " + connections.max()
                            + " client connections open");
                } else {
                    c.disconnect(ResultCode.ADMIN_LIMIT_EXCEEDED, "The server already has the maximum of "
                            + connections.max() + " client connections open");
                }
                return (ctx, request) -> RxJavaStreams.emptyStream();
            }
            if (cfg.useSsl()) {
                c.beginTls();
            }
            return handler;
        }
    }

    /** A listener could not start; names which. */
    static final class ListenException extends IOException {
        ListenException(ServerConfig.Listener cfg, Exception cause) {
            super("Cannot listen on " + cfg.address() + ":" + cfg.port() + (cfg.useSsl() ? " (LDAPS)" : "")
                    + ": " + cause.getMessage(), cause);
        }
    }

    private static String hostPort(InetSocketAddress a) {
        return a == null ? "unknown" : a.getAddress().getHostAddress() + ":" + a.getPort();
    }

    /** The address the LDAP listener actually bound (with the real port when 0 was configured). */
    public InetSocketAddress address() {
        return listener.getSocketAddresses().iterator().next();
    }

    /** The address the LDAPS listener bound, or {@code null} when there is none. */
    public InetSocketAddress ldapsAddress() {
        return ldapsListener == null ? null : ldapsListener.getSocketAddresses().iterator().next();
    }

    /** What the TLS handshakes did since the start (all zero without TLS). */
    public TlsStatistics tlsStatistics() {
        return tlsStatistics;
    }

    public ClientConnections connections() {
        return connections;
    }

    /** Reads parked because the work queue was saturated, since the start. */
    public long timesReadsParked() {
        return gate.timesParked();
    }

    /**
     * Stops accepting; lets the operations under way finish and answer while new requests are refused
     * (unavailable), for at most {@link #DRAIN_LIMIT}; then stops every connection with a notice of
     * disconnection (unavailable). A write is thus answered as it ends: a connection closed under it would
     * leave its client not knowing whether it was stored.
     */
    @Override
    public void close() {
        listener.close();
        if (ldapsListener != null) {
            ldapsListener.close();
        }
        connections.drain(DRAIN_LIMIT);
        connections.close();
        connections.disconnectAll(ResultCode.UNAVAILABLE, ClientConnections.SHUTTING_DOWN);
        transport.close();
        if (tlsLayer != null) {
            tlsLayer.close();
        }
    }
}
