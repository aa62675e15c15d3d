package io.bindfirst.server.backend;

import org.forgerock.opendj.ldap.ResultCode;
import org.forgerock.opendj.ldap.schema.Schema;

/**
 * Opens backends of one type. Listed in {@code META-INF/services/io.bindfirst.server.backend.BackendProvider}
 * of the module that implements it, so the core never names an implementation.
 */
public interface BackendProvider {
    /** The type named by {@code ds-cfg-backend-type} in the configuration, e.g. {@code je}. */
    String type();

    /**
     * Opens (creating if needed) the backend described by {@code config}. The schema decodes stored
     * attribute descriptions and normalizes index keys.
     */
    Backend open(BackendConfig config, Schema schema) throws BackendException;

    /**
     * Opens the backend empty: everything it held is removed once it is open, so under the same guard
     * against other processes as {@link #open} (import-ldif --clearBackend).
     */
    default Backend openCleared(BackendConfig config, Schema schema) throws BackendException {
        throw new BackendException(ResultCode.UNWILLING_TO_PERFORM,
                "Backends of type " + type() + " cannot be cleared");
    }
}
