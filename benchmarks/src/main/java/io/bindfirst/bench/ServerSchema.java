package io.bindfirst.bench;

import java.nio.file.Files;
import java.nio.file.Path;

import org.forgerock.opendj.ldap.schema.Schema;

import io.bindfirst.server.schema.SchemaLoadException;
import io.bindfirst.server.schema.SchemaLoader;

/**
 * The server's schema, loaded from {@code config/schema} the way the server does ({@link SchemaLoader}),
 * so that benchmarks parse with the same strict schema as the bind path. Run from the repository root,
 * or point {@code -Dbench.schemaDir=...} at the directory (JMH forks inherit both).
 */
final class ServerSchema {
    private ServerSchema() {
    }

    static Schema load() {
        Path dir = Path.of(System.getProperty("bench.schemaDir", "config/schema"));
        if (!Files.isDirectory(dir)) {
            throw new IllegalStateException("No schema directory " + dir.toAbsolutePath()
                    + ": run from the repository root or set -Dbench.schemaDir");
        }
        try {
            return SchemaLoader.load(dir);
        } catch (SchemaLoadException e) {
            throw new IllegalStateException(e.getMessage(), e);
        }
    }
}
