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

    /** Called once per operation, when its result is ready: frees its place among the connection's limits. */
    void operationDone(Operation operation);
}
