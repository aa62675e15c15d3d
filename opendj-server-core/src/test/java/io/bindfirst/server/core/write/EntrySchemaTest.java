package io.bindfirst.server.core.write;

import static io.bindfirst.server.core.write.WriteTests.entry;
import static io.bindfirst.server.core.write.WriteTests.schema;
import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertFalse;
import static org.testng.Assert.assertNotSame;
import static org.testng.Assert.assertNull;
import static org.testng.Assert.assertTrue;

import org.forgerock.i18n.LocalizableMessageBuilder;
import org.forgerock.opendj.ldap.AVA;
import org.forgerock.opendj.ldap.AttributeDescription;
import org.forgerock.opendj.ldap.ByteString;
import org.forgerock.opendj.ldap.Entry;
import org.forgerock.opendj.ldap.LinkedHashMapEntry;
import org.forgerock.opendj.ldap.schema.AttributeType;
import org.forgerock.opendj.ldap.schema.Schema;
import org.testng.annotations.Test;

public class EntrySchemaTest {

    private static AttributeType type(String name) {
        return schema().getAttributeType(name);
    }

    @Test
    public void resolveLooksDescriptionsUpInTheGivenSchema() {
        AttributeDescription placeholder = AttributeDescription.valueOf("mail;lang-en", Schema.getDefaultSchema());
        AttributeDescription resolved = EntrySchema.resolve(placeholder, schema());
        assertEquals(resolved, AttributeDescription.valueOf("mail;lang-en", schema()));
        assertTrue(resolved.getAttributeType() == type("mail"));

        AttributeDescription unknown = AttributeDescription.valueOf("noSuchAttribute", Schema.getDefaultSchema());
        assertTrue(unknown.getAttributeType().isPlaceHolder());
        assertNull(EntrySchema.resolve(unknown, schema()));
        assertNull(EntrySchema.resolve(unknown.getAttributeType(), schema()));
        assertEquals(EntrySchema.resolve(AVA.valueOf("UID=x").getAttributeType(), schema()), type("uid"));
    }

    @Test
    public void copyDoesNotShareAttributesWithTheOriginal() {
        Entry original = entry("dn: uid=x,dc=example,dc=com", "objectClass: inetOrgPerson", "uid: x", "mail: a@b");
        Entry copy = EntrySchema.copy(original, schema());
        assertEquals(copy, original);
        copy.getAttribute(AttributeDescription.valueOf("mail", schema())).add(ByteString.valueOfUtf8("c@d"));
        assertEquals(original.getAttribute(AttributeDescription.valueOf("mail", schema())).size(), 1);
        assertNotSame(copy, original);
    }

    @Test
    public void copyKeepsAttributesUnknownToTheSchema() {
        Entry original = new LinkedHashMapEntry("dn: uid=x,dc=example,dc=com", "uid: x", "noSuchAttribute: 1");
        Entry copy = EntrySchema.copy(original, schema());
        assertEquals(copy.getAttributeCount(), 2);
    }

    @Test
    public void hasRdnValueUsesTheEqualityRule() {
        Entry e = entry("dn: uid=JDoe,dc=example,dc=com", "objectClass: inetOrgPerson", "uid: jdoe");
        AVA ava = e.getName().rdn().getFirstAVA();
        assertTrue(EntrySchema.hasRdnValue(e, ava, schema()));
        assertFalse(EntrySchema.hasRdnValue(e, AVA.valueOf("uid=other"), schema()));
        assertFalse(EntrySchema.hasRdnValue(e, AVA.valueOf("cn=jdoe"), schema()));
        // the same bytes, and values equal only under the rule, single and among several
        assertTrue(EntrySchema.hasRdnValue(e, AVA.valueOf("uid=jdoe"), schema()));
        Entry several = entry("dn: cn=Jane Doe,dc=example,dc=com", "objectClass: inetOrgPerson", "sn: Doe",
                "cn: J. Doe", "cn: jane   DOE");
        assertTrue(EntrySchema.hasRdnValue(several, several.getName().rdn().getFirstAVA(), schema()));
        assertTrue(EntrySchema.hasRdnValue(several, AVA.valueOf("cn=J. Doe"), schema()));
        assertFalse(EntrySchema.hasRdnValue(several, AVA.valueOf("cn=John Doe"), schema()));
    }

    @Test
    public void syntaxProblemNamesAttributeValueAndReason() {
        AttributeDescription uidNumber = AttributeDescription.valueOf("uidNumber", schema());
        assertNull(EntrySchema.syntaxProblem(uidNumber, ByteString.valueOfUtf8("42")));
        String problem = EntrySchema.syntaxProblem(uidNumber, ByteString.valueOfUtf8("4x2"));
        assertTrue(problem.startsWith(
                "the value \"4x2\" of attribute uidNumber is not valid for its syntax (Integer): "),
                problem);
    }

    @Test
    public void aReasonBuilderKeptForManyValuesGivesEachRefusalItsOwnReason() {
        AttributeDescription uidNumber = AttributeDescription.valueOf("uidNumber", schema());
        LocalizableMessageBuilder kept = new LocalizableMessageBuilder();
        assertNull(EntrySchema.syntaxProblem(uidNumber, ByteString.valueOfUtf8("42"), kept));
        assertEquals(kept.length(), 0, "an accepted value leaves the builder empty");
        String fresh = EntrySchema.syntaxProblem(uidNumber, ByteString.valueOfUtf8("4x2"));
        assertEquals(EntrySchema.syntaxProblem(uidNumber, ByteString.valueOfUtf8("4x2"), kept), fresh);
        LocalizableMessageBuilder stale = new LocalizableMessageBuilder("an older reason");
        String problem = EntrySchema.syntaxProblem(uidNumber, ByteString.valueOfUtf8("4x2"), stale);
        assertEquals(problem, fresh, "a builder that already says something is not reused");
    }

    @Test
    public void passwordValuesAreNeverShown() {
        assertTrue(EntrySchema.isSecret(type("userPassword")));
        assertTrue(EntrySchema.isSecret(type("authPassword")));
        assertFalse(EntrySchema.isSecret(type("mail")));
        assertEquals(EntrySchema.show(type("userPassword"), ByteString.valueOfUtf8("hunter2")), "a userPassword value");
        assertEquals(EntrySchema.show(type("authPassword"), ByteString.valueOfUtf8("hunter2")),
                "an authPassword value");
        // Also when the type was never resolved (a placeholder).
        AttributeType placeholder = AttributeDescription.valueOf("userPassword", Schema.getEmptySchema()
                .asNonStrictSchema()).getAttributeType();
        assertTrue(placeholder.isPlaceHolder());
        assertEquals(EntrySchema.show(placeholder, ByteString.valueOfUtf8("hunter2")), "a userPassword value");
    }

    @Test
    public void showQuotesTextAndSummarisesTheRest() {
        assertEquals(EntrySchema.show(type("cn"), ByteString.valueOfUtf8("J\u00fcrgen")), "the value \"J\u00fcrgen\"");
        assertEquals(EntrySchema.show(type("jpegPhoto"), ByteString.wrap(new byte[] { (byte) 0xff, (byte) 0xd8, 0 })),
                "a binary value (3 bytes)");
        assertEquals(EntrySchema.show(type("description"), ByteString.valueOfUtf8("line\nbreak")),
                "a binary value (10 bytes)");
        String shown = EntrySchema.show(type("description"), ByteString.valueOfUtf8("x".repeat(1000)));
        assertEquals(shown, "the value \"" + "x".repeat(64) + "...\"");
    }
}
