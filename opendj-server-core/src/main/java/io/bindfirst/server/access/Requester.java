package io.bindfirst.server.access;

import java.net.InetAddress;

import org.forgerock.opendj.ldap.DN;

import io.bindfirst.server.auth.AuthenticationInfo;

/**
 * Who asks for an operation, as access control sees it: the authentication, and the facts of the connection
 * that rules may name (the client's address, the connection's security strength). Taken once per operation,
 * when the operation starts.
 *
 * @param auth who the connection is authenticated as
 * @param address the client's IP address, or {@code null} when the transport does not know it
 * @param securityStrength the connection's security strength factor (0 without TLS)
 */
public record Requester(AuthenticationInfo auth, InetAddress address, int securityStrength) {

    /** Whether the requester is a root user. */
    public boolean root() {
        return auth.root();
    }

    public boolean isAnonymous() {
        return auth.isAnonymous();
    }

    /** The DN the requester is authenticated as, or {@code null} when anonymous. */
    public DN dn() {
        return auth.authenticationDN();
    }

    /** Whether the requester is authenticated as {@code entry}. */
    public boolean isSelf(DN entry) {
        return !auth.isAnonymous() && entry.equals(auth.authenticationDN());
    }
}
