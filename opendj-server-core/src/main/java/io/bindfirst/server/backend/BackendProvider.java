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
     * Opens the backend empty (import-ldif --clearBackend): everything it held is removed first, under the same
     * guard against other processes as {@link #open}, and a backend another process has open is refused as busy.
     */
    default Backend openCleared(BackendConfig config, Schema schema) throws BackendException {
        throw new BackendException(ResultCode.UNWILLING_TO_PERFORM,
                "Backends of type " + type() + " cannot be cleared");
    }
}
