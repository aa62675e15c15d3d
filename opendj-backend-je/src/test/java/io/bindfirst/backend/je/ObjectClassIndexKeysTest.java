package io.bindfirst.backend.je;

import static org.testng.Assert.assertEquals;

import java.util.ArrayList;
import java.util.List;

import org.forgerock.opendj.ldap.ByteString;
import org.forgerock.opendj.ldap.DecodeException;
import org.forgerock.opendj.ldap.schema.AttributeType;
import org.testng.annotations.Test;

import io.bindfirst.server.backend.IndexType;

/**
 * An objectClass equality index remembers the keys of the values it normalized: the keys stay the matching
 * rule's own, for names in any case, OIDs and unknown names, before and after the index stops remembering new
 * values.
 */
public class ObjectClassIndexKeysTest {

    @Test
    public void rememberedKeysAreTheRulesKeys() {
        AttributeType objectClass = TestSupport.SCHEMA.getAttributeType("objectClass");
        AttributeIndex index = new AttributeIndex(IndexType.EQUALITY, "objectclass", objectClass, null);
        List<String> values = new ArrayList<>(List.of("top", "TOP", "person", "inetOrgPerson", "INETORGPERSON",
                "2.5.6.6", "organizationalPerson", "noSuchClass", "NoSuchClass"));
        for (int i = 0; i < 3 * AttributeIndex.REMEMBERED_LIMIT; i++) {
            values.add("madeUpClass" + i);
        }
        for (int pass = 0; pass < 3; pass++) { // the first pass fills the memory, the others read it
            for (String v : values) {
                ByteString value = ByteString.valueOfUtf8(v);
                assertEquals(index.normalize(value), rulesKey(objectClass, value), v);
            }
        }
        assertEquals(index.normalize(ByteString.valueOfUtf8("inetOrgPerson")),
                index.normalize(ByteString.valueOfUtf8("2.16.840.1.113730.3.2.2")), "a name and its OID");
    }

    /** The rule's key, or {@code null} where it refuses the value (as the index then has no key). */
    private static ByteString rulesKey(AttributeType type, ByteString value) {
        try {
            return type.getEqualityMatchingRule().normalizeAttributeValue(value);
        } catch (DecodeException e) {
            return null;
        }
    }
}
