package io.bindfirst.backend.je;

import org.forgerock.opendj.ldap.schema.Schema;

import io.bindfirst.server.backend.Backend;
import io.bindfirst.server.backend.BackendConfig;
import io.bindfirst.server.backend.BackendException;
import io.bindfirst.server.backend.BackendProvider;

/** Opens {@code je} backends; found by the core through {@link java.util.ServiceLoader}. */
public final class JeBackendProvider implements BackendProvider {
    public static final String TYPE = "je";

    @Override
    public String type() {
        return TYPE;
    }

    @Override
    public Backend open(BackendConfig config, Schema schema) throws BackendException {
        return JeBackend.open(config, schema);
    }

    @Override
    public Backend openCleared(BackendConfig config, Schema schema) throws BackendException {
        return JeBackend.open(config, schema, true);
    }
}
