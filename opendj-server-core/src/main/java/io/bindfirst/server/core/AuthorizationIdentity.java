package io.bindfirst.server.core;

import java.io.IOException;
import java.util.Locale;

import org.forgerock.i18n.LocalizedIllegalArgumentException;
import org.forgerock.opendj.io.ASN1;
import org.forgerock.opendj.io.ASN1Reader;
import org.forgerock.opendj.ldap.ByteString;
import org.forgerock.opendj.ldap.DN;
import org.forgerock.opendj.ldap.Entry;
import org.forgerock.opendj.ldap.LinkedHashMapEntry;

import io.bindfirst.server.auth.AuthenticationInfo;
import io.bindfirst.server.auth.ExactMatchIdentityMapper;
import io.bindfirst.server.backend.Backend;
import io.bindfirst.server.backend.BackendException;
import io.bindfirst.server.config.ServerConfig;

/**
 * An authorization identity (RFC 4513 5.2.1.8: {@code dn:<DN>} or {@code u:<name>}) resolved to whom it names:
 * for a SASL PLAIN authorization identity and the Proxied Authorization control (RFC 4370). What the access
 * policy is asked about ({@code mayProxyAs}) is {@link #entry}; what operations then run as is {@link #as}.
 *
 * @param as the identity operations run as: a user with its entry's limits, a root user, or anonymous
 * @param entry the entry as stored (for a root user its configuration entry; for anonymous an empty entry named
 *        by the root DN, which holds nothing a rule could match but the name)
 * @param backend where the entry is, for a later check that it still exists; {@code null} for anonymous
 */
record AuthorizationIdentity(AuthenticationInfo as, Entry entry, Backend backend) {

    /** Whether this is the anonymous identity (an empty {@code dn:}, or an empty control value). */
    boolean anonymous() {
        return as.isAnonymous();
    }

    /**
     * Whom {@code authzId} names, or {@code null} when it names no entry, has neither form, or names an account
     * that may not authenticate now (disabled, locked): none of those can be acted as. May block (reads the
     * backends): call it on a worker.
     *
     * @param authMethod how the requester authenticated, kept by the identity acted as
     */
    static AuthorizationIdentity resolve(ServerContext server, String authzId, String authMethod)
            throws BackendException {
        String lower = authzId.toLowerCase(Locale.ROOT);
        if (authzId.isEmpty() || lower.equals("dn:")) {
            return new AuthorizationIdentity(AuthenticationInfo.ANONYMOUS, new LinkedHashMapEntry(DN.rootDN()), null);
        }
        Entry entry;
        Backend backend;
        if (lower.startsWith("dn:")) {
            DN dn;
            try {
                dn = DN.valueOf(authzId.substring(3), server.schema());
            } catch (LocalizedIllegalArgumentException e) {
                return null;
            }
            ServerConfig.RootUser root = server.rootUsers().find(dn);
            if (root != null) {
                Backend config = server.backends().backendFor(root.dn());
                Entry rootEntry = config == null ? null : config.getEntry(root.dn());
                return rootEntry == null ? null : new AuthorizationIdentity(
                        AuthenticationInfo.rootUser(root.dn()).withAuthMethod(authMethod), rootEntry, config);
            }
            backend = server.backends().backendFor(dn);
            if (backend == null || server.backends().isConfigBackend(backend)) {
                return null;
            }
            entry = backend.getEntry(dn);
        } else if (lower.startsWith("u:")) {
            entry = mapper(server).map(authzId.substring(2), server.backends());
            backend = entry == null ? null : server.backends().backendFor(entry.getName());
        } else {
            return null;
        }
        if (entry == null || backend == null || server.accounts().whyRefused(entry) != null) {
            return null;
        }
        return new AuthorizationIdentity(server.accounts().authenticationInfo(entry).withAuthMethod(authMethod), entry,
                backend);
    }

    /**
     * The authorization identity a Proxied Authorization control's value holds: the identity itself (RFC 4370), or,
     * as some clients send it (OpenDJ accepts it too), wrapped in a BER OCTET STRING. No identity begins with that
     * tag's byte (0x04), so the two cannot be confused.
     */
    static String ofControlValue(ByteString value) {
        if (value.length() > 0 && value.byteAt(0) == 0x04) {
            try {
                ASN1Reader reader = ASN1.getReader(value);
                ByteString inner = reader.readOctetString();
                if (!reader.hasNextElement()) {
                    return inner.toString();
                }
            } catch (IOException | RuntimeException e) { // DecodeException is an IOException
                // not BER: taken as it is, and refused as no identity below
            }
        }
        return value.toString();
    }

    /**
     * The identity mapper of the configuration. Built for each use: it only looks up the match attributes' types
     * (checked once at start, so this cannot fail), and the lookup it serves is a search.
     */
    static ExactMatchIdentityMapper mapper(ServerContext server) {
        return new ExactMatchIdentityMapper(server.config().sasl().identityMapper(), server.schema());
    }
}
