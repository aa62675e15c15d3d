package io.bindfirst.server.core;

import org.forgerock.i18n.LocalizedIllegalArgumentException;
import org.forgerock.opendj.ldap.ByteString;
import org.forgerock.opendj.ldap.DN;
import org.forgerock.opendj.ldap.Entry;
import org.forgerock.opendj.ldap.ResultCode;
import org.forgerock.opendj.ldap.responses.Result;

import io.bindfirst.server.access.AccessDecision;
import io.bindfirst.server.access.Requester;
import io.bindfirst.server.auth.AuthenticationInfo;
import io.bindfirst.server.backend.BackendException;

/**
 * A SASL PLAIN bind (RFC 4616), one per bind: the credentials taken apart, the password checked as a simple
 * bind's is (the {@link BindOperation}'s own steps), then the authorization identity the client asked for, if
 * any. Runs on the bind's threads; not shared.
 */
final class SaslPlain {
    static final String METHOD = AuthenticationInfo.sasl(BindOperation.SASL_PLAIN);

    private final BindOperation bind;
    private final ServerContext server;
    private final Session session;
    /** The authorization identity the client asked for, empty for none; set by {@link #bind}. */
    private String authzId = "";

    SaslPlain(BindOperation bind) {
        this.bind = bind;
        this.server = bind.server;
        this.session = bind.session;
    }

    /** The authorization identity the credentials asked for, empty for none. */
    String authzId() {
        return authzId;
    }

    /**
     * SASL PLAIN (RFC 4616): {@code [authzid] NUL authcid NUL passwd} in UTF-8. The authentication identity is
     * {@code dn:<DN>}, or a user name ({@code u:<name>} or the bare name) that the identity mapper turns into
     * its one entry; the password is then checked as a simple bind's is ({@link BindOperation#passwordBind}:
     * root users, password policy, lockout, the caches). Malformed credentials, a name that maps to no entry or
     * to several, and a wrong password all answer invalidCredentials. Refused without TLS where a simple bind
     * would be.
     */
    Result bind(ByteString credentials) {
        if (!bind.passwordMayTravelInClear() && session.securityStrength() == 0) {
            return bind.passwordNeedsTls("A SASL PLAIN bind");
        }
        int first = indexOfNul(credentials, 0);
        int second = first < 0 ? -1 : indexOfNul(credentials, first + 1);
        if (second < 0 || indexOfNul(credentials, second + 1) >= 0 || second == first + 1
                || second == credentials.length() - 1) {
            return bind.errorResult(ResultCode.INVALID_CREDENTIALS, "The SASL PLAIN credentials are not an optional "
                    + "authorization identity, NUL, a user name, NUL and a password");
        }
        String given = credentials.subSequence(0, first).toString();
        String authcId = credentials.subSequence(first + 1, second).toString();
        ByteString password = credentials.subSequence(second + 1, credentials.length());
        authzId = given;
        if (authcId.regionMatches(true, 0, "dn:", 0, 3)) {
            DN dn;
            try {
                dn = DN.valueOf(authcId.substring(3), server.schema());
            } catch (LocalizedIllegalArgumentException e) {
                return bind.invalidCredentials();
            }
            if (dn.isRootDN()) {
                return bind.invalidCredentials();
            }
            // An authorization identity is resolved after the password check, which then must be free to block.
            return given.isEmpty() ? bind.passwordBind(dn, password)
                    : bind.onWorkers(() -> bind.passwordBind(dn, password));
        }
        String name = authcId.regionMatches(true, 0, "u:", 0, 2) ? authcId.substring(2) : authcId;
        return bind.onWorkers(() -> {
            Entry entry;
            try {
                entry = AuthorizationIdentity.mapper(server).map(name, server.backends());
            } catch (BackendException e) {
                return bind.errorResult(e.resultCode(), e.getMessage());
            }
            return entry == null ? bind.invalidCredentials() : bind.passwordBind(entry.getName(), password);
        });
    }

    private static int indexOfNul(ByteString bytes, int from) {
        for (int i = from; i < bytes.length(); i++) {
            if (bytes.byteAt(i) == 0) {
                return i;
            }
        }
        return -1;
    }

    /**
     * A PLAIN bind whose password matched {@code user}'s: the connection is authenticated as that user, or, with an
     * authorization identity naming another, as that one if the access policy lets the user act as it
     * ({@code mayProxyAs}). Refused, the answer is invalidCredentials (as OpenDJ answers it), with the reason.
     * Runs on a worker whenever there is an authorization identity (it reads the backends).
     */
    Result authorized(AuthenticationInfo user) {
        AuthenticationInfo authenticated = user.withAuthMethod(METHOD);
        if (authzId.isEmpty()) {
            return bind.success(authenticated);
        }
        long epoch = server.writeEpoch().current();
        AuthorizationIdentity target;
        try {
            target = AuthorizationIdentity.resolve(server, authzId, METHOD);
        } catch (BackendException e) {
            return bind.errorResult(e.resultCode(), e.getMessage());
        }
        if (target == null || target.anonymous()) {
            return bind.errorResult(ResultCode.INVALID_CREDENTIALS,
                    "The authorization identity names no user that can be acted as");
        }
        if (target.as().authenticationDN().equals(authenticated.authenticationDN())) {
            return bind.success(authenticated);
        }
        if (authenticated.mustChangePassword()) {
            return bind.errorResult(ResultCode.INVALID_CREDENTIALS, "An administrator reset this account's password: "
                    + "change it before acting as another user");
        }
        AccessDecision allowed = server.accessPolicy().mayProxyAs(
                new Requester(authenticated, session.clientAddress(), session.securityStrength()), target.entry());
        if (!allowed.allowed()) {
            return bind.errorResult(ResultCode.INVALID_CREDENTIALS, allowed.message());
        }
        Result result = bind.success(target.as());
        // Root users live in the configuration, which does not change while the server runs.
        return target.as().root() ? result
                : bind.unlessAWriteRaced(target.backend(), target.as().authenticationDN(), result, epoch);
    }
}
