package io.bindfirst.server.monitor;

import java.util.function.LongSupplier;

import org.forgerock.opendj.ldap.DN;

import io.bindfirst.server.cache.LookupCache;
import io.bindfirst.server.pwd.VerifiedCredentials;

/**
 * {@code cn=Credential Caches,cn=monitor}: the verified-credential cache (on or off, records held, the password
 * checks it answered and those it could not since the start) and the user backends' bind caches (entries held,
 * bind reads answered from memory and those that read storage), summed; those attributes are absent when no
 * backend keeps a bind cache; and the lookup cache (a login's search for its user: lookups held, searches it
 * answered, searches it could have answered that read the backend).
 */
final class CredentialCachesMonitor implements MonitorEntry {
    private static final DN NAME = MonitorBackend.BASE_DN.child("cn", "Credential Caches");

    private final VerifiedCredentials verified;
    private final LongSupplier bindCacheEntries;
    private final LongSupplier bindCacheHits;
    private final LongSupplier bindCacheMisses;
    private final LookupCache lookups;

    /**
     * @param bindCacheEntries the bind caches' entries summed over the user backends, -1 when none keeps one;
     *        the hits and misses likewise
     */
    CredentialCachesMonitor(VerifiedCredentials verified, LongSupplier bindCacheEntries, LongSupplier bindCacheHits,
                            LongSupplier bindCacheMisses, LookupCache lookups) {
        this.lookups = lookups;
        this.verified = verified;
        this.bindCacheEntries = bindCacheEntries;
        this.bindCacheHits = bindCacheHits;
        this.bindCacheMisses = bindCacheMisses;
    }

    @Override
    public DN name() {
        return NAME;
    }

    @Override
    public void addValues(MonitorValues out) {
        out.add("ds-mon-verified-credentials-enabled", verified.enabled())
                .add("ds-mon-verified-credentials-entries", verified.size())
                .add("ds-mon-verified-credentials-hits", verified.hits())
                .add("ds-mon-verified-credentials-misses", verified.misses());
        long bindCached = bindCacheEntries.getAsLong();
        if (bindCached >= 0) {
            out.add("ds-mon-bind-cache-entries", bindCached)
                    .add("ds-mon-bind-cache-hits", Math.max(0, bindCacheHits.getAsLong()))
                    .add("ds-mon-bind-cache-misses", Math.max(0, bindCacheMisses.getAsLong()));
        }
        out.add("ds-mon-lookup-cache-entries", lookups.size())
                .add("ds-mon-lookup-cache-hits", lookups.hits())
                .add("ds-mon-lookup-cache-misses", lookups.misses());
    }
}
