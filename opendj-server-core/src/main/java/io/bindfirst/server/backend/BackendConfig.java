package io.bindfirst.server.backend;

import java.nio.file.Path;
import java.util.EnumMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
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
 * @param otherIndexes attribute type names (lower case) with a presence, substring or ordering index, by
 *        {@link IndexType} (equality ones are in {@code equalityIndexes})
 * @param freeDiskBytes the free space the storage keeps on the disk holding {@code directory}: below it, writes are
 *        refused (with {@code unavailable}) until space is freed, so the disk never fills under the storage's log
 * @param lookupCacheEntries how many login searches' lookups of this backend's entries the server may keep in
 *        memory (the lookup cache, summed over the backends); 0 for none
 * @param replication the replication group its storage belongs to, or {@code null} for a backend of its own
 */
public record BackendConfig(String id, String type, List<DN> baseDNs, Path directory,
                            Set<String> equalityIndexes, long cacheBytes, int bindCacheEntries,
                            Map<IndexType, Set<String>> otherIndexes, long freeDiskBytes, int lookupCacheEntries,
                            ReplicationSettings replication) {
    /** The default of {@code ds-cfg-bind-cache-entries}: the sample data's users, at about 1.4 KiB of heap each. */
    public static final int DEFAULT_BIND_CACHE_ENTRIES = 10_000;
    /**
     * The default of {@code ds-cfg-disk-full-threshold-mb}: room for the storage's own upkeep (checkpoints, log
     * cleaning) and for what writes add between two of its disk checks. JE's own default, 5 GiB, would refuse
     * every write on a small volume.
     */
    public static final long DEFAULT_FREE_DISK_BYTES = 1024L << 20;
    /**
     * The default of {@code ds-cfg-lookup-cache-entries}: the sample data's users, as the bind cache's. A lookup
     * holds whole entries, about 3 KiB of heap each for the sample users (config.ldif says what that costs).
     */
    public static final int DEFAULT_LOOKUP_CACHE_ENTRIES = 10_000;

    public BackendConfig {
        if (bindCacheEntries < 0) {
            throw new IllegalArgumentException("bindCacheEntries " + bindCacheEntries);
        }
        if (lookupCacheEntries < 0) {
            throw new IllegalArgumentException("lookupCacheEntries " + lookupCacheEntries);
        }
        if (freeDiskBytes < 0) {
            throw new IllegalArgumentException("freeDiskBytes " + freeDiskBytes);
        }
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(type, "type");
        baseDNs = List.copyOf(baseDNs);
        Objects.requireNonNull(directory, "directory");
        equalityIndexes = Set.copyOf(equalityIndexes);
        Map<IndexType, Set<String>> others = new EnumMap<>(IndexType.class);
        otherIndexes.forEach((kind, names) -> {
            if (kind != IndexType.EQUALITY && !names.isEmpty()) {
                others.put(kind, Set.copyOf(names));
            }
        });
        otherIndexes = Map.copyOf(others);
    }

    /** Whether its storage is one node of a replication group. */
    public boolean replicated() {
        return replication != null;
    }

    /** The same backend, not replicated: what the offline tools open (see the JE backend). */
    public BackendConfig standalone() {
        return new BackendConfig(id, type, baseDNs, directory, equalityIndexes, cacheBytes, bindCacheEntries,
                otherIndexes, freeDiskBytes, lookupCacheEntries, null);
    }

    /** A backend that is not replicated. */
    public BackendConfig(String id, String type, List<DN> baseDNs, Path directory, Set<String> equalityIndexes,
                         long cacheBytes, int bindCacheEntries, Map<IndexType, Set<String>> otherIndexes,
                         long freeDiskBytes, int lookupCacheEntries) {
        this(id, type, baseDNs, directory, equalityIndexes, cacheBytes, bindCacheEntries, otherIndexes, freeDiskBytes,
                lookupCacheEntries, null);
    }

    /** A backend with the default lookup cache. */
    public BackendConfig(String id, String type, List<DN> baseDNs, Path directory, Set<String> equalityIndexes,
                         long cacheBytes, int bindCacheEntries, Map<IndexType, Set<String>> otherIndexes,
                         long freeDiskBytes) {
        this(id, type, baseDNs, directory, equalityIndexes, cacheBytes, bindCacheEntries, otherIndexes, freeDiskBytes,
                DEFAULT_LOOKUP_CACHE_ENTRIES);
    }

    /** A backend with equality indexes only. */
    public BackendConfig(String id, String type, List<DN> baseDNs, Path directory, Set<String> equalityIndexes,
                         long cacheBytes, int bindCacheEntries) {
        this(id, type, baseDNs, directory, equalityIndexes, cacheBytes, bindCacheEntries, Map.of(),
                DEFAULT_FREE_DISK_BYTES);
    }

    /** Every configured index: attribute names by kind, equality included. */
    public Map<IndexType, Set<String>> indexes() {
        Map<IndexType, Set<String>> all = new EnumMap<>(IndexType.class);
        all.putAll(otherIndexes);
        if (!equalityIndexes.isEmpty()) {
            all.put(IndexType.EQUALITY, equalityIndexes);
        }
        return all;
    }

    /** The same backend with {@code attribute} (any case) indexed for {@code kind} too. */
    public BackendConfig withIndex(IndexType kind, String attribute) {
        String name = attribute.toLowerCase(Locale.ROOT);
        if (kind == IndexType.EQUALITY) {
            Set<String> names = new LinkedHashSet<>(equalityIndexes);
            names.add(name);
            return new BackendConfig(id, type, baseDNs, directory, names, cacheBytes, bindCacheEntries, otherIndexes,
                    freeDiskBytes, lookupCacheEntries, replication);
        }
        Map<IndexType, Set<String>> others = new EnumMap<>(IndexType.class);
        others.putAll(otherIndexes);
        Set<String> names = new LinkedHashSet<>(others.getOrDefault(kind, Set.of()));
        names.add(name);
        others.put(kind, names);
        return new BackendConfig(id, type, baseDNs, directory, equalityIndexes, cacheBytes, bindCacheEntries, others,
                freeDiskBytes, lookupCacheEntries, replication);
    }
}
