package io.bindfirst.server.core.write;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.expectThrows;

import java.io.IOException;
import java.io.UncheckedIOException;

import org.forgerock.opendj.ldap.AttributeDescription;
import org.forgerock.opendj.ldap.Entry;
import org.forgerock.opendj.ldap.LinkedAttribute;
import org.forgerock.opendj.ldap.Modification;
import org.forgerock.opendj.ldap.ModificationType;
import org.forgerock.opendj.ldap.ResultCode;
import org.forgerock.opendj.ldap.schema.Schema;
import org.forgerock.opendj.ldif.LDIFEntryReader;
import org.testng.Assert.ThrowingRunnable;

import io.bindfirst.server.testsupport.ServerSchema;

/** Shared by the tests of this package: the real server schema, and short ways to write entries and changes. */
final class WriteTests {

    private static Schema schema;

    private WriteTests() {
    }

    /** The schema from the repository's config/schema, loaded once. */
    static synchronized Schema schema() {
        if (schema == null) {
            schema = ServerSchema.load();
        }
        return schema;
    }

    /** An entry decoded against the real schema, as a backend would return it. */
    static Entry entry(String... ldif) {
        try (LDIFEntryReader reader = new LDIFEntryReader(ldif)) {
            reader.setSchema(schema());
            return reader.readEntry();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * A change whose attribute is decoded against the SDK's default (non-strict) schema, where unknown
     * types are placeholders: the code under test must look it up again in the server schema.
     */
    static Modification mod(ModificationType type, String attribute, String... values) {
        AttributeDescription description = AttributeDescription.valueOf(attribute, Schema.getDefaultSchema());
        return new Modification(type, new LinkedAttribute(description, (Object[]) values));
    }

    /**
     * A change whose attribute type is unknown where it was decoded, so its values are kept byte for byte:
     * {@code a@example.com} and {@code A@EXAMPLE.COM} stay two values, as a decoder that does not
     * collapse equal values would leave them.
     */
    static Modification rawMod(ModificationType type, String attribute, String... values) {
        AttributeDescription description =
                AttributeDescription.valueOf(attribute, Schema.getEmptySchema().asNonStrictSchema());
        return new Modification(type, new LinkedAttribute(description, (Object[]) values));
    }

    static Modification add(String attribute, String... values) {
        return mod(ModificationType.ADD, attribute, values);
    }

    static Modification delete(String attribute, String... values) {
        return mod(ModificationType.DELETE, attribute, values);
    }

    static Modification replace(String attribute, String... values) {
        return mod(ModificationType.REPLACE, attribute, values);
    }

    static Modification increment(String attribute, String... values) {
        return mod(ModificationType.INCREMENT, attribute, values);
    }

    /** Runs {@code action}, expects a WriteException with {@code code}, and returns it. */
    static WriteException expectWriteException(ResultCode code, ThrowingRunnable action) {
        WriteException e = expectThrows(WriteException.class, action);
        assertEquals(e.resultCode(), code, "result code; message: " + e.getMessage());
        return e;
    }
}
