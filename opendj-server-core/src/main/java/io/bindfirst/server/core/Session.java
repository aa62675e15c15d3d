package io.bindfirst.server.core;

import io.bindfirst.server.auth.AuthenticationInfo;

/**
 * What an operation needs of the client connection it came from: its number, who it is authenticated as,
 * and the bind's changes to that. The transport implements it; the core never sees sockets, and its
 * responses go through a {@link ResponseSink}. Called from worker threads, so implementations are
 * thread-safe.
 */
public interface Session {

    /** The connection's number, unique among this server's connections while it runs (access log, plugins). */
    long id();

    /** The next number of an operation on this connection (the access log's {@code op=}). */
    long nextOperationId();

    /** Who the connection is authenticated as now. */
    AuthenticationInfo authentication();

    /**
     * Makes the connection anonymous and forgets its registration; the first step of every bind (RFC 4513 4:
     * a bind, whatever its outcome, ends the previous authentication).
     */
    void resetAuthentication();

    /**
     * Records a successful bind: registers the connection as {@code info}'s DN before publishing {@code info},
     * so that a write to the entry from then on finds it (docs/ARCHITECTURE.md, the registry).
     */
    void authenticated(AuthenticationInfo info);

    /**
     * The operation with this message ID that is outstanding on the connection and
     * {@linkplain Operation#keptByMessageId() kept by it}, or {@code null}: what a Cancel (RFC 3909) names.
     */
    Operation outstanding(int messageId);

    /**
     * Whether a bind with this message ID seems to be in progress on the connection: best effort (read without
     * synchronization, so it costs a bind nothing), for a Cancel's {@code cannotCancel}.
     */
    boolean bindInProgress(int messageId);

    /** Called once per operation, when its result is ready: frees its place among the connection's limits. */
    void operationDone(Operation operation);

    /**
     * The connection's security strength factor: the key size of its negotiated TLS cipher, 0 without TLS or
     * before its handshake has finished.
     */
    int securityStrength();

    /**
     * The certificate the client presented in its TLS handshake, verified against the configured client CAs,
     * or {@code null} (no TLS, the handshake not finished, or no certificate sent).
     */
    java.security.cert.X509Certificate clientCertificate();

    /** Whether the client connected from a loopback address (the same machine). */
    boolean fromLoopback();

    /** The client's IP address, or {@code null} when the transport does not know it. */
    java.net.InetAddress clientAddress();

    /**
     * Starts TLS on the connection for the StartTLS extended operation (RFC 4511 4.14): the response the
     * operation is about to send is the last one in clear, and the client's next bytes are its TLS handshake.
     * Called with the StartTLS operation itself outstanding.
     */
    TlsStart startTls();

    /** What {@link #startTls()} did. */
    enum TlsStart {
        /** TLS begins after the response. */
        STARTED,
        /** The connection already has TLS (a second StartTLS, or StartTLS on LDAPS). */
        ALREADY_SECURE,
        /** Other operations are outstanding on the connection. */
        OPERATIONS_OUTSTANDING,
        /** This listener offers no StartTLS (no key and certificate are configured, or it is switched off). */
        NOT_OFFERED
    }
}
