package io.bindfirst.server.backend;

import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.Set;

import org.forgerock.opendj.ldap.DN;

/**
 * What a backend is opened with, read from its {@code cn=Backends,cn=config} entry.
 *
 * @param id the backend id, e.g. {@code userRoot}
 * @param type which {@link BackendProvider} opens it, e.g. {@code je}
 * @param baseDNs the suffixes it holds
 * @param directory where its files live (created if missing)
 * @param equalityIndexes attribute type names (lower case) with an equality index
 * @param cacheBytes memory the storage engine may use for its cache; 0 for its default
 * @param bindCacheEntries how many entries' bind attributes the backend may keep decoded in memory for
 *        re-binds (kept true by its writes); 0 for none
 */
public record BackendConfig(String id, String type, List<DN> baseDNs, Path directory,
                            Set<String> equalityIndexes, long cacheBytes, int bindCacheEntries) {
    /** The default of {@code ds-cfg-bind-cache-entries}: the sample data's users, at about 1.4 KiB of heap each. */
    public static final int DEFAULT_BIND_CACHE_ENTRIES = 10_000;

    public BackendConfig {
        if (bindCacheEntries < 0) {
            throw new IllegalArgumentException("bindCacheEntries " + bindCacheEntries);
        }
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(type, "type");
        baseDNs = List.copyOf(baseDNs);
        Objects.requireNonNull(directory, "directory");
        equalityIndexes = Set.copyOf(equalityIndexes);
    }
}
