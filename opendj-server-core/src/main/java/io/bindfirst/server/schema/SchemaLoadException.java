package io.bindfirst.server.schema;

/**
 * The schema files could not be turned into a usable schema. The message names the file and, where one
 * is to blame, the definition; the server must not start with such a schema.
 */
public final class SchemaLoadException extends Exception {

    public SchemaLoadException(String message) {
        super(message);
    }

    public SchemaLoadException(String message, Throwable cause) {
        super(message, cause);
    }
}
