package io.bindfirst.backend.je;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Set;

import org.forgerock.opendj.ldap.ByteString;
import org.forgerock.opendj.ldap.schema.AttributeType;
import org.forgerock.opendj.ldap.schema.Schema;
import org.forgerock.opendj.ldap.schema.SchemaBuilder;
import org.testng.annotations.Test;

import io.bindfirst.server.backend.IndexType;

/** Which indexes take an attribute type's values: its own and its supertypes', whatever was asked before. */
public class IndexedTypesTest {
    private static final Schema SCHEMA = TestSupport.SCHEMA;

    private static AttributeIndex index(IndexType kind, String name) {
        return new AttributeIndex(kind, name, SCHEMA.getAttributeType(name), null);
    }

    private final IndexedTypes types = new IndexedTypes(List.of(index(IndexType.EQUALITY, "name"),
            index(IndexType.EQUALITY, "cn"), index(IndexType.PRESENCE, "sn"), index(IndexType.EQUALITY, "uid")));

    private int[] positions(String name) {
        return types.positions(SCHEMA.getAttributeType(name));
    }

    @Test
    public void aTypeFeedsTheIndexesOnItselfAndOnItsSupertypes() {
        for (int round = 0; round < 2; round++) { // worked out, then remembered
            assertEquals(positions("cn"), new int[] {0, 1});
            assertEquals(positions("sn"), new int[] {0, 2});
            assertEquals(positions("name"), new int[] {0});
            assertEquals(positions("uid"), new int[] {3});
            assertEquals(positions("mail"), new int[0]);
        }
    }

    /** Two schemas may give one OID different superiors: the answer follows the type object asked about. */
    @Test
    public void anOidDefinedDifferentlyInAnotherSchemaGetsItsOwnAnswer() {
        String oid = "1.3.6.1.4.1.99999.1.1";
        Schema underName = new SchemaBuilder(SCHEMA).addAttributeType("( " + oid
                + " NAME 'x-alias' SUP name )", false).toSchema();
        Schema alone = new SchemaBuilder(SCHEMA).addAttributeType("( " + oid
                + " NAME 'x-alias' EQUALITY caseIgnoreMatch SYNTAX 1.3.6.1.4.1.1466.115.121.1.15 )", false).toSchema();
        AttributeType first = underName.getAttributeType(oid);
        AttributeType second = alone.getAttributeType(oid);
        for (int round = 0; round < 2; round++) {
            assertEquals(types.positions(first), new int[] {0});
            assertEquals(types.positions(second), new int[0]);
        }
    }

    @Test
    public void anIndexOnASupertypeHoldsItsSubtypesValues() throws Exception {
        Path dir = TestSupport.tempDir();
        JeStorage storage = new JeStorage("test", dir, 0);
        try {
            Indexes indexes = Indexes.open(storage, storage.openDatabase("meta", false),
                    storage.openDatabase("id2entry", false), new EntryCodec(SCHEMA), Set.of("name", "uid"), SCHEMA);
            List<Set<ByteString>> keys = indexes.keys(TestSupport.entry("uid=a,dc=example,dc=com",
                    "objectClass", "person", "uid", "a", "cn", "Alice Doe", "sn", "Doe", "description", "d"));
            int name = indexes.names().indexOf("eq.name");
            int uid = indexes.names().indexOf("eq.uid");
            assertTrue(name >= 0 && uid >= 0, indexes.names().toString());
            assertEquals(keys.get(name), Set.of(ByteString.valueOfUtf8("alice doe"), ByteString.valueOfUtf8("doe")));
            assertEquals(keys.get(uid), Set.of(ByteString.valueOfUtf8("a")));
        } finally {
            storage.close();
            TestSupport.delete(dir);
        }
    }
}
