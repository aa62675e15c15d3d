package io.bindfirst.server.auth;

import org.forgerock.opendj.ldap.DN;
import org.forgerock.opendj.ldap.ResultCode;

/**
 * What the registry of authenticated connections and its plugin need of a connection: its number, its
 * authentication (to re-key it after a rename or refresh it after a modify) and a way to end it. The
 * transport implements it.
 */
public interface BoundConnection {

    /** The connection's number: not negative, never given to another connection while the server runs. */
    long id();

    AuthenticationInfo authentication();

    /**
     * Replaces the authentication only if the connection is still bound as {@code expectedDN}: a refresh or a
     * re-key must not overwrite a re-bind that won the race. How the connection authenticated
     * ({@link AuthenticationInfo#authMethod()}) is kept: a refresh from the entry does not know it.
     *
     * @return whether it was replaced
     */
    boolean replaceAuthentication(DN expectedDN, AuthenticationInfo info);

    boolean isClosed();

    /** Sends a notice of disconnection (RFC 4511 4.4.1) and closes the connection. */
    void disconnect(ResultCode code, String message);
}
