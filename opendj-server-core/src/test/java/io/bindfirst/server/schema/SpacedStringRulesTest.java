package io.bindfirst.server.schema;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertSame;

import org.forgerock.opendj.ldap.ByteString;
import org.forgerock.opendj.ldap.DN;
import org.forgerock.opendj.ldap.schema.Schema;
import org.forgerock.opendj.ldap.schema.SchemaBuilder;
import org.testng.annotations.Test;

/** caseIgnoreMatch and friends fold inner space runs in every value, not only in all-ASCII ones. */
public class SpacedStringRulesTest {
    private static Schema schema() {
        SchemaBuilder builder = new SchemaBuilder(Schema.getCoreSchema());
        SpacedStringRules.replace(builder, Schema.getCoreSchema());
        return builder.toSchema();
    }

    @Test
    public void foldsRunsOfSpaces() {
        assertEquals(SpacedStringRules.fold(ByteString.valueOfUtf8("são  paulo   x")).toString(), "são paulo x");
        ByteString single = ByteString.valueOfUtf8("são paulo");
        assertSame(SpacedStringRules.fold(single), single);
    }

    @Test
    public void equalityIndexKeysAndDnsAgree() throws Exception {
        Schema s = schema();
        var caseIgnore = s.getMatchingRule("caseIgnoreMatch");
        assertEquals(caseIgnore.normalizeAttributeValue(ByteString.valueOfUtf8(" São  Paulo ")),
                caseIgnore.normalizeAttributeValue(ByteString.valueOfUtf8("são paulo")));
        assertEquals(DN.valueOf("l=São  Paulo,dc=example", s), DN.valueOf("l=são paulo,dc=example", s));
        assertEquals(s.getMatchingRule("caseExactMatch").normalizeAttributeValue(ByteString.valueOfUtf8("Ä  b")),
                s.getMatchingRule("caseExactMatch").normalizeAttributeValue(ByteString.valueOfUtf8("Ä b")));
    }
}
