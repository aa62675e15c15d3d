package io.bindfirst.server.access.aci;

import java.nio.file.Files;
import java.nio.file.Path;

import org.forgerock.opendj.ldap.schema.Schema;

import io.bindfirst.server.schema.SchemaLoader;

/** The server's shipped schema (config/schema), which defines {@code aci}. */
final class TestSchema {
    private TestSchema() {
    }

    static Schema load() {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            Path candidate = dir.resolve("config").resolve("schema");
            if (Files.isRegularFile(candidate.resolve("00-core.ldif"))) {
                try {
                    return SchemaLoader.load(candidate);
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            }
        }
        throw new IllegalStateException("config/schema not found above " + Path.of("").toAbsolutePath());
    }
}
