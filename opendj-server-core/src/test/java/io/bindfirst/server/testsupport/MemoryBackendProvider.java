package io.bindfirst.server.testsupport;

import org.forgerock.opendj.ldap.schema.Schema;

import io.bindfirst.server.backend.Backend;
import io.bindfirst.server.backend.BackendConfig;
import io.bindfirst.server.backend.BackendProvider;

/**
 * Backend type {@value #TYPE}: a {@link MemoryBackend} per backend configured with it
 * ({@code ServerConfig.withBackendType}), found by the server as it finds any backend, through
 * {@code META-INF/services}. It keeps nothing between opens; the configured indexes and directory are unused.
 */
public final class MemoryBackendProvider implements BackendProvider {
    public static final String TYPE = "memory";

    @Override
    public String type() {
        return TYPE;
    }

    @Override
    public Backend open(BackendConfig config, Schema schema) {
        return new MemoryBackend(config.id(), config.baseDNs(), schema);
    }
}
