package io.bindfirst.server.testsupport;

import java.nio.file.Files;
import java.nio.file.Path;

import org.forgerock.opendj.ldap.schema.Schema;

import io.bindfirst.server.schema.SchemaLoadException;
import io.bindfirst.server.schema.SchemaLoader;

/** The server's schema as it ships (the repository's config/schema), for tests that need its rules. */
public final class ServerSchema {
    private ServerSchema() {
    }

    /** The schema loaded from {@link #directory()}. */
    public static Schema load() {
        try {
            return SchemaLoader.load(directory());
        } catch (SchemaLoadException e) {
            throw new IllegalStateException(e);
        }
    }

    /** config/schema, found from the working directory up (a module's tests run in the module's folder). */
    public static Path directory() {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            Path candidate = dir.resolve("config").resolve("schema");
            if (Files.isRegularFile(candidate.resolve("00-core.ldif"))) {
                return candidate;
            }
        }
        throw new IllegalStateException("config/schema not found above " + Path.of("").toAbsolutePath());
    }
}
