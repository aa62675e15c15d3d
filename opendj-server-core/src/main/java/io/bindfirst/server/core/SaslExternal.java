package io.bindfirst.server.core;

import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;

import org.forgerock.i18n.LocalizedIllegalArgumentException;
import org.forgerock.opendj.ldap.ByteString;
import org.forgerock.opendj.ldap.DN;
import org.forgerock.opendj.ldap.Entry;
import org.forgerock.opendj.ldap.Filter;
import org.forgerock.opendj.ldap.ResultCode;
import org.forgerock.opendj.ldap.SearchScope;
import org.forgerock.opendj.ldap.responses.Result;

import io.bindfirst.server.auth.AuthenticationInfo;
import io.bindfirst.server.auth.CertificateMapping;
import io.bindfirst.server.backend.Backend;
import io.bindfirst.server.backend.BackendException;
import io.bindfirst.server.config.ServerConfig;

/**
 * A SASL EXTERNAL bind (RFC 4422 appendix A, RFC 4513 5.2.3), one per bind: the client certificate of the TLS
 * layer names the entry, by its subject or, with {@code ds-cfg-certificate-mapping: user-certificate}, by the one
 * entry holding it in {@code userCertificate}; an authorization identity, if sent, must be that entry's ("dn:"
 * form): acting as another is not supported. The account's state and the race with writes are checked through
 * the {@link BindOperation}'s own steps.
 */
final class SaslExternal {
    private final BindOperation bind;
    private final ServerContext server;
    private final Session session;
    /** The server's TLS settings, {@code null} without TLS. */
    private final ServerConfig.Tls tls;

    SaslExternal(BindOperation bind, ServerConfig.Tls tls) {
        this.bind = bind;
        this.server = bind.server;
        this.session = bind.session;
        this.tls = tls;
    }

    /** Binds with the connection's certificate; {@code authzId} is what followed the mechanism, empty for none. */
    Result bind(String authzId) {
        if (tls == null || !tls.clientCertificates().requested()) {
            return bind.errorResult(ResultCode.AUTH_METHOD_NOT_SUPPORTED, "SASL EXTERNAL is not enabled: the server "
                    + "asks for no client certificates (" + ServerConfig.Tls.TRUST_MANAGER + ")");
        }
        X509Certificate certificate = session.clientCertificate();
        if (certificate == null) {
            return bind.errorResult(ResultCode.INAPPROPRIATE_AUTHENTICATION, "SASL EXTERNAL needs a TLS connection "
                    + "on which the client presented a certificate");
        }
        if (tls.clientCertificates().mapping() == ServerConfig.Tls.ClientCertificates.Mapping.USER_CERTIFICATE) {
            return byCertificate(certificate, authzId);
        }
        DN dn = CertificateMapping.subjectDn(certificate, server.schema());
        Backend backend = dn == null ? null : server.backends().backendFor(dn);
        if (backend == null || server.backends().isConfigBackend(backend)) {
            return bind.invalidCredentials();
        }
        bind.bindDN(dn);
        Result pre = bind.preOperation();
        if (pre != null) {
            return pre;
        }
        Result otherIdentity = refuseOtherAuthzId(authzId, dn);
        if (otherIdentity != null) {
            return otherIdentity;
        }
        ServerConfig.Tls.ClientCertificates.Validation validation = tls.clientCertificates().validation();
        return bind.onWorkers(() -> {
            long epoch = server.writeEpoch().current();
            Entry entry;
            try {
                entry = backend.getEntry(dn);
            } catch (BackendException e) {
                return bind.errorResult(e.resultCode(), e.getMessage());
            }
            if (entry == null) {
                return bind.invalidCredentials();
            }
            if (server.accounts().whyRefused(entry) != null) {
                return bind.refused(entry);
            }
            if (!CertificateMapping.accepts(entry, certificate, validation)) {
                return bind.invalidCredentials();
            }
            server.accounts().succeeded(backend, entry, null);
            return bind.unlessAWriteRaced(backend, dn,
                    bind.success(server.accounts().authenticationInfo(entry).withAuthMethod(AuthenticationInfo.SSL)),
                    epoch);
        });
    }

    /**
     * EXTERNAL with {@code ds-cfg-certificate-mapping: user-certificate}: the one entry, in any naming context,
     * whose {@code userCertificate} holds the presented certificate byte for byte. None, or more than one:
     * invalidCredentials. The backend narrows the search with an equality index on userCertificate when one
     * is configured (certificateExactMatch: issuer and serial), and walks the entries otherwise.
     */
    private Result byCertificate(X509Certificate certificate, String requestedAuthzId) {
        Result pre = bind.preOperation();
        if (pre != null) {
            return pre;
        }
        return bind.onWorkers(() -> {
            long epoch = server.writeEpoch().current();
            List<Entry> holders = new ArrayList<>(2);
            try {
                Filter filter = Filter.equality(CertificateMapping.USER_CERTIFICATE,
                        ByteString.wrap(certificate.getEncoded()));
                for (Backend b : server.backends().userBackends()) {
                    for (DN base : b.baseDNs()) {
                        searchHolders(b, base, filter, certificate, holders);
                    }
                }
            } catch (BackendException e) {
                return bind.errorResult(e.resultCode(), e.getMessage());
            } catch (java.security.cert.CertificateEncodingException e) {
                return bind.invalidCredentials();
            }
            if (holders.size() != 1) {
                return bind.invalidCredentials();
            }
            Entry entry = holders.get(0);
            DN dn = entry.getName();
            bind.bindDN(dn);
            if (server.accounts().whyRefused(entry) != null) {
                return bind.refused(entry);
            }
            Result otherIdentity = refuseOtherAuthzId(requestedAuthzId, dn);
            if (otherIdentity != null) {
                return otherIdentity;
            }
            Backend holder = server.backends().backendFor(dn);
            server.accounts().succeeded(holder, entry, null);
            return bind.unlessAWriteRaced(holder, dn,
                    bind.success(server.accounts().authenticationInfo(entry).withAuthMethod(AuthenticationInfo.SSL)),
                    epoch);
        });
    }

    /** Adds to {@code holders} the entries under {@code base} holding the certificate (stops at two). */
    private static void searchHolders(Backend backend, DN base, Filter filter, X509Certificate certificate,
                                      List<Entry> holders) throws BackendException {
        try {
            backend.search(base, SearchScope.WHOLE_SUBTREE, filter, candidate -> {
                if (CertificateMapping.holds(candidate, certificate)) {
                    holders.add(candidate);
                }
                return holders.size() < 2;
            });
        } catch (BackendException e) {
            if (e.resultCode() != ResultCode.NO_SUCH_OBJECT) { // a naming context without its base entry yet
                throw e;
            }
        }
    }

    /**
     * invalidCredentials when the client asked for an authorization identity (RFC 4513 "dn:" form) other than
     * the certificate's entry: acting as another is not supported. {@code null} when none was asked, or that one.
     */
    private Result refuseOtherAuthzId(String authzId, DN dn) {
        if (authzId.isEmpty()) {
            return null;
        }
        if (authzId.regionMatches(true, 0, "dn:", 0, 3)) {
            try {
                if (DN.valueOf(authzId.substring(3), server.schema()).equals(dn)) {
                    return null;
                }
            } catch (LocalizedIllegalArgumentException e) {
                // not a DN: refused below
            }
        }
        return bind.errorResult(ResultCode.INVALID_CREDENTIALS, "An authorization identity other than the "
                + "certificate's entry is not supported");
    }
}
