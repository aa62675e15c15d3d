package io.bindfirst.server.auth;

import java.util.concurrent.atomic.AtomicReference;

import org.forgerock.opendj.ldap.DN;

/**
 * Who one connection is bound as, kept in step with the registry of authenticated connections: a bind registers
 * the connection before it publishes the new {@link AuthenticationInfo}, so that a write's scan that misses the
 * publication still finds the registration (the race {@link WriteEpoch} describes); a connection that closed
 * meanwhile is deregistered again; an unbind, a new bind and the close deregister. The transport's connection
 * holds one and answers {@link BoundConnection#authentication()} from it.
 *
 * <p>Thread-safe: the information is swapped whole, never mutated, so a reader on another thread sees one bind's
 * state or the next's; the registry's listener re-keys or refreshes it by compare-and-set, so a concurrent re-bind
 * wins.
 */
public final class BoundIdentity {
    private final AtomicReference<AuthenticationInfo> current = new AtomicReference<>(AuthenticationInfo.ANONYMOUS);
    private final AuthenticatedUsers<BoundConnection> registry;
    private final BoundConnection connection;

    public BoundIdentity(AuthenticatedUsers<BoundConnection> registry, BoundConnection connection) {
        this.registry = registry;
        this.connection = connection;
    }

    public AuthenticationInfo get() {
        return current.get();
    }

    /** Back to anonymous (RFC 4513 4: a bind ends the previous authentication, whatever its outcome). */
    public void reset() {
        AuthenticationInfo old = current.getAndSet(AuthenticationInfo.ANONYMOUS);
        if (!old.isAnonymous()) {
            registry.remove(old.authenticationDN(), connection);
        }
    }

    /** Registers, then publishes; a connection that closed meanwhile is deregistered again. */
    public void authenticated(AuthenticationInfo info) {
        registry.put(info.authenticationDN(), connection);
        current.set(info);
        if (connection.isClosed()) {
            registry.remove(info.authenticationDN(), connection);
        }
    }

    /**
     * Replaces the information only while the connection is still bound as {@code expectedDN}, keeping how it
     * authenticated (see {@link BoundConnection#replaceAuthentication}).
     */
    public boolean replace(DN expectedDN, AuthenticationInfo info) {
        while (true) {
            AuthenticationInfo now = current.get();
            if (now.isAnonymous() || !now.authenticationDN().equals(expectedDN)) {
                return false;
            }
            AuthenticationInfo kept = info.authMethod().equals(now.authMethod()) ? info
                    : info.withAuthMethod(now.authMethod());
            if (current.compareAndSet(now, kept)) {
                return true;
            }
        }
    }

    /** The connection closed: it leaves the registry (its last identity stays readable). */
    public void closed() {
        AuthenticationInfo last = current.get();
        if (!last.isAnonymous()) {
            registry.remove(last.authenticationDN(), connection);
        }
    }
}
