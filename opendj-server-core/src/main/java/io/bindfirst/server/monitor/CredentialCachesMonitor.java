package io.bindfirst.server.monitor;

import java.util.function.LongSupplier;

import org.forgerock.opendj.ldap.DN;

import io.bindfirst.server.pwd.VerifiedCredentials;

/**
 * {@code cn=Credential Caches,cn=monitor}: the verified-credential cache (on or off, records held, hits since
 * the start) and the entries held by the user backends' bind caches, summed; that attribute is absent when no
 * backend keeps one.
 */
final class CredentialCachesMonitor implements MonitorEntry {
    private static final DN NAME = MonitorBackend.BASE_DN.child("cn", "Credential Caches");

    private final VerifiedCredentials verified;
    private final LongSupplier bindCacheEntries;

    /** @param bindCacheEntries the bind caches' entries summed over the user backends, -1 when none keeps one */
    CredentialCachesMonitor(VerifiedCredentials verified, LongSupplier bindCacheEntries) {
        this.verified = verified;
        this.bindCacheEntries = bindCacheEntries;
    }

    @Override
    public DN name() {
        return NAME;
    }

    @Override
    public void addValues(MonitorValues out) {
        out.add("ds-mon-verified-credentials-enabled", verified.enabled())
                .add("ds-mon-verified-credentials-entries", verified.size())
                .add("ds-mon-verified-credentials-hits", verified.hits());
        long bindCached = bindCacheEntries.getAsLong();
        if (bindCached >= 0) {
            out.add("ds-mon-bind-cache-entries", bindCached);
        }
    }
}
