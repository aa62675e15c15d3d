package io.bindfirst.tools;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ServiceLoader;
import java.util.stream.Collectors;

import org.forgerock.opendj.ldap.ResultCode;
import org.forgerock.opendj.ldap.schema.Schema;

import io.bindfirst.server.backend.Backend;
import io.bindfirst.server.backend.BackendConfig;
import io.bindfirst.server.backend.BackendException;
import io.bindfirst.server.backend.BackendProvider;
import io.bindfirst.server.config.ConfigException;
import io.bindfirst.server.config.ConfigLoader;
import io.bindfirst.server.config.ServerConfig;
import io.bindfirst.server.schema.SchemaLoadException;
import io.bindfirst.server.schema.SchemaLoader;

/**
 * One backend of the server's configuration, opened by a tool while the server is stopped: the same
 * configuration file, schema and storage the server would load. The storage guards itself against a second
 * process (a JE environment is locked by the process that opened it), so while the server runs on the
 * backend, opening fails with the storage's message, which says to stop that process first.
 */
final class OfflineBackend implements AutoCloseable {
    private final ServerConfig config;
    private final BackendConfig backendConfig;
    private final Schema schema;
    private final Backend backend;

    private OfflineBackend(ServerConfig config, BackendConfig backendConfig, Schema schema, Backend backend) {
        this.config = config;
        this.backendConfig = backendConfig;
        this.schema = schema;
        this.backend = backend;
    }

    /**
     * @param cleared whether to open it emptied of everything it holds
     * @param cacheBytes the storage cache to use if larger than the configured one, or 0 to keep the configured one
     */
    static OfflineBackend open(Path configFile, Path instanceRoot, String backendId, boolean cleared,
            long cacheBytes) throws ToolException {
        ServerConfig config = loadConfig(configFile, instanceRoot);
        BackendConfig bc = backendConfig(config, configFile, backendId);
        if (cacheBytes > bc.cacheBytes()) {
            bc = new BackendConfig(bc.id(), bc.type(), bc.baseDNs(), bc.directory(), bc.equalityIndexes(),
                    cacheBytes, bc.bindCacheEntries(), bc.otherIndexes(), bc.freeDiskBytes(), bc.lookupCacheEntries(),
                    bc.replication());
        }
        Schema schema;
        try {
            schema = SchemaLoader.load(config.schemaDirectory());
        } catch (SchemaLoadException e) {
            throw new ToolException("The schema cannot be loaded: " + e.getMessage(), e);
        }
        BackendProvider provider = provider(bc);
        try {
            Backend backend = cleared ? provider.openCleared(bc, schema) : provider.open(bc, schema);
            return new OfflineBackend(config, bc, schema, backend);
        } catch (BackendException e) {
            throw new ToolException(e.getMessage(), e);
        }
    }

    /** The server's configuration, as the server would load it. */
    static ServerConfig loadConfig(Path configFile, Path instanceRoot) throws ToolException {
        if (!Files.isRegularFile(configFile)) {
            throw new ToolException("The configuration file " + configFile + " does not exist: give the server's "
                    + "config/config.ldif with --configFile, or run the command from the instance's bin/ folder");
        }
        try {
            return ConfigLoader.load(configFile, instanceRoot);
        } catch (ConfigException e) {
            throw new ToolException("The configuration cannot be read: " + e.getMessage(), e);
        }
    }

    /** The configuration of the enabled backend {@code backendId} (any case) of {@code config}. */
    static BackendConfig backendConfig(ServerConfig config, Path configFile, String backendId) throws ToolException {
        return config.backends().stream().filter(b -> b.id().equalsIgnoreCase(backendId)).findFirst()
                .orElseThrow(() -> new ToolException("There is no enabled backend '" + backendId + "' in "
                        + configFile + "; the backends are: " + config.backends().stream().map(BackendConfig::id)
                        .collect(Collectors.joining(", "))));
    }

    /** Whether {@code e} says another process (a running server, another tool) has the backend open. */
    static boolean inUse(ToolException e) {
        return e.getCause() instanceof BackendException be && be.resultCode().equals(ResultCode.BUSY);
    }

    private static BackendProvider provider(BackendConfig bc) throws ToolException {
        for (BackendProvider p : ServiceLoader.load(BackendProvider.class)) {
            if (p.type().equals(bc.type())) {
                return p;
            }
        }
        throw new ToolException("ds-cfg-backend-id=" + bc.id() + ",cn=Backends,cn=config: ds-cfg-backend-type: no "
                + "backend implementation of type '" + bc.type() + "' is installed");
    }

    ServerConfig config() {
        return config;
    }

    BackendConfig backendConfig() {
        return backendConfig;
    }

    Schema schema() {
        return schema;
    }

    Backend backend() {
        return backend;
    }

    @Override
    public void close() {
        backend.close();
    }
}
