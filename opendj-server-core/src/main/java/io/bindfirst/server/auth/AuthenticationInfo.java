package io.bindfirst.server.auth;

import org.forgerock.opendj.ldap.DN;

/**
 * Who a connection is authenticated as. Immutable: a connection swaps its reference atomically, so
 * readers on other threads (WhoAmI, search access checks, post-response plugins) never see half a bind.
 *
 * @param authenticationDN the entry the client bound as, or {@code null} when anonymous
 * @param root whether that entry is a root user (server-wide limits and access do not apply)
 */
public record AuthenticationInfo(DN authenticationDN, boolean root) {

    /** The state of every new connection and of every connection whose bind failed (RFC 4513 4). */
    public static final AuthenticationInfo ANONYMOUS = new AuthenticationInfo(null, false);

    public static AuthenticationInfo user(DN dn) {
        return new AuthenticationInfo(dn, false);
    }

    public static AuthenticationInfo rootUser(DN dn) {
        return new AuthenticationInfo(dn, true);
    }

    public boolean isAnonymous() {
        return authenticationDN == null;
    }

    /** The authorization identity as RFC 4532 WhoAmI answers it: {@code dn:...}, or empty when anonymous. */
    public String authzId() {
        return authenticationDN == null ? "" : "dn:" + authenticationDN;
    }
}
