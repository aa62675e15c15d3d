package io.bindfirst.server.schema;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertFalse;
import static org.testng.Assert.assertNotNull;
import static org.testng.Assert.assertTrue;
import static org.testng.Assert.expectThrows;
import static org.testng.Assert.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

import org.forgerock.i18n.LocalizableMessage;
import org.forgerock.opendj.ldap.AttributeDescription;
import org.forgerock.opendj.ldap.ConditionResult;
import org.forgerock.opendj.ldap.DN;
import org.forgerock.opendj.ldap.Entry;
import org.forgerock.opendj.ldap.Filter;
import org.forgerock.opendj.ldap.LinkedAttribute;
import org.forgerock.opendj.ldap.LinkedHashMapEntry;
import org.forgerock.opendj.ldap.schema.AttributeType;
import org.forgerock.opendj.ldap.schema.ObjectClass;
import org.forgerock.opendj.ldap.schema.ObjectClassType;
import org.forgerock.opendj.ldap.schema.Schema;
import org.forgerock.opendj.ldap.schema.SchemaValidationPolicy;
import org.forgerock.opendj.ldap.schema.UnknownSchemaElementException;
import org.forgerock.opendj.ldif.LDIFEntryReader;
import org.testng.annotations.AfterMethod;
import org.testng.annotations.BeforeClass;
import org.testng.annotations.BeforeMethod;
import org.testng.annotations.Test;

public class SchemaLoaderTest {

    private static final String[] SCHEMA_FILES = {
        "00-core.ldif", "01-cosine.ldif", "02-inetorgperson.ldif", "03-nis.ldif" };

    private Path schemaDir;
    private Schema schema;
    private Path tempDir;

    @BeforeClass
    public void loadRealSchema() throws Exception {
        schemaDir = findSchemaDirectory();
        long start = System.nanoTime();
        schema = SchemaLoader.load(schemaDir);
        long firstMs = (System.nanoTime() - start) / 1_000_000;
        start = System.nanoTime();
        SchemaLoader.load(schemaDir);
        long secondMs = (System.nanoTime() - start) / 1_000_000;
        System.out.printf("SchemaLoader.load(%s): %d ms (first call, includes SDK core schema start-up),"
                + " %d ms (second call)%n", schemaDir, firstMs, secondMs);
        assertTrue(secondMs < 1000, "loading the schema took " + secondMs + " ms");
    }

    @BeforeMethod
    public void createTempDir() throws IOException {
        tempDir = Files.createTempDirectory("schema-loader-test");
    }

    @AfterMethod(alwaysRun = true)
    public void deleteTempDir() throws IOException {
        if (tempDir != null) {
            try (Stream<Path> paths = Files.walk(tempDir)) {
                for (Path p : paths.sorted(Comparator.reverseOrder()).toArray(Path[]::new)) {
                    Files.deleteIfExists(p);
                }
            }
        }
    }

    // ---------------------------------------------------------------------------------------------
    // The real schema files
    // ---------------------------------------------------------------------------------------------

    @Test
    public void schemaIsStrictAndHasNoWarnings() {
        assertTrue(schema.isStrict());
        assertTrue(schema.getWarnings().isEmpty(), schema.getWarnings().toString());
        expectThrows(UnknownSchemaElementException.class, () -> schema.getAttributeType("noSuchAttribute"));
        expectThrows(UnknownSchemaElementException.class, () -> schema.getObjectClass("noSuchClass"));
    }

    @Test
    public void inetOrgPersonExtendsOrganizationalPerson() {
        ObjectClass inetOrgPerson = schema.getObjectClass("inetOrgPerson");
        assertEquals(inetOrgPerson.getOID(), "2.16.840.1.113730.3.2.2");
        assertEquals(inetOrgPerson.getObjectClassType(), ObjectClassType.STRUCTURAL);
        assertEquals(inetOrgPerson.getSuperiorClasses().size(), 1);
        ObjectClass superior = inetOrgPerson.getSuperiorClasses().iterator().next();
        assertEquals(superior.getNameOrOID(), "organizationalPerson");
        assertTrue(inetOrgPerson.isDescendantOf(schema.getObjectClass("person")));
        assertTrue(inetOrgPerson.isRequired(schema.getAttributeType("sn")));
        assertTrue(inetOrgPerson.isOptional(schema.getAttributeType("mail")));
        assertTrue(inetOrgPerson.isOptional(schema.getAttributeType("labeledURI")));
        assertTrue(inetOrgPerson.isOptional(schema.getAttributeType("userPKCS12")));
        assertEquals(inetOrgPerson.getExtraProperties().get("X-ORIGIN"), List.of("RFC 2798"));
    }

    @Test
    public void mailIsCaseInsensitiveIa5() {
        AttributeType mail = schema.getAttributeType("mail");
        assertEquals(mail.getOID(), "0.9.2342.19200300.100.1.3");
        assertEquals(schema.getAttributeType("rfc822Mailbox"), mail);
        assertEquals(mail.getEqualityMatchingRule().getNameOrOID(), "caseIgnoreIA5Match");
        assertEquals(mail.getSubstringMatchingRule().getNameOrOID(), "caseIgnoreIA5SubstringsMatch");
        assertEquals(mail.getSyntax().getOID(), "1.3.6.1.4.1.1466.115.121.1.26");

        Entry entry = entry("uid=user.42,ou=people,dc=example,dc=com",
                "objectClass", "top", "person", "organizationalPerson", "inetOrgPerson");
        add(entry, "uid", "user.42");
        add(entry, "cn", "User 42");
        add(entry, "sn", "Fortytwo");
        add(entry, "mail", "user.42@example.com");
        assertEquals(matches("(mail=USER.42@EXAMPLE.COM)", entry), ConditionResult.TRUE);
        assertEquals(matches("(rfc822Mailbox=User.42@Example.Com)", entry), ConditionResult.TRUE);
        assertEquals(matches("(mail=USER.*@EXAMPLE.COM)", entry), ConditionResult.TRUE);
        assertEquals(matches("(mail=user.43@example.com)", entry), ConditionResult.FALSE);
    }

    /** Extensible matches that name a rule need a matchingRuleUse; the loader derives them. */
    @Test
    public void extensibleMatchWithANamedRule() {
        assertTrue(schema.hasMatchingRuleUse("caseExactMatch"));
        Entry entry = entry("uid=user.6,ou=people,dc=example,dc=com",
                "objectClass", "top", "person", "organizationalPerson", "inetOrgPerson");
        add(entry, "uid", "user.6");
        add(entry, "cn", "User 6");
        add(entry, "sn", "Six");
        assertEquals(matches("(cn:caseExactMatch:=User 6)", entry), ConditionResult.TRUE);
        assertEquals(matches("(cn:caseExactMatch:=user 6)", entry), ConditionResult.FALSE);
        assertEquals(matches("(cn:caseIgnoreMatch:=USER 6)", entry), ConditionResult.TRUE);
        assertEquals(matches("(:caseExactMatch:=Six)", entry), ConditionResult.TRUE);
        // The locale collation rules get no derived use, keeping cn=schema small.
        assertTrue(schema.getMatchingRuleUses().size() < 100, "" + schema.getMatchingRuleUses().size());
    }

    @Test
    public void uidNumberHasIntegerOrdering() {
        AttributeType uidNumber = schema.getAttributeType("uidNumber");
        assertEquals(uidNumber.getOID(), "1.3.6.1.1.1.1.0");
        assertTrue(uidNumber.isSingleValue());
        assertEquals(uidNumber.getEqualityMatchingRule().getNameOrOID(), "integerMatch");
        assertEquals(uidNumber.getOrderingMatchingRule().getNameOrOID(), "integerOrderingMatch");

        Entry entry = entry("uid=jdoe,ou=people,dc=example,dc=com", "objectClass", "top", "account", "posixAccount");
        add(entry, "uid", "jdoe");
        add(entry, "cn", "John Doe");
        add(entry, "uidNumber", "150");
        add(entry, "gidNumber", "100");
        add(entry, "homeDirectory", "/home/jdoe");
        assertEquals(matches("(uidNumber>=100)", entry), ConditionResult.TRUE);
        // Numeric, not lexicographic: "150" sorts before "20" as a string.
        assertEquals(matches("(uidNumber>=20)", entry), ConditionResult.TRUE);
        assertEquals(matches("(uidNumber>=151)", entry), ConditionResult.FALSE);
        assertEquals(matches("(uidNumber<=150)", entry), ConditionResult.TRUE);
        assertEquals(matches("(uidNumber=150)", entry), ConditionResult.TRUE);
        assertEquals(matches("(&(objectClass=posixAccount)(gidNumber=100))", entry), ConditionResult.TRUE);
        List<LocalizableMessage> errors = new ArrayList<>();
        assertTrue(schema.validateEntry(entry, SchemaValidationPolicy.defaultPolicy(), errors), errors.toString());
    }

    @Test
    public void domainAndDc() {
        ObjectClass domain = schema.getObjectClass("domain");
        assertEquals(domain.getOID(), "0.9.2342.19200300.100.4.13");
        AttributeType dc = schema.getAttributeType("dc");
        assertEquals(dc.getOID(), "0.9.2342.19200300.100.1.25");
        assertEquals(schema.getAttributeType("domainComponent"), dc);
        assertTrue(dc.isSingleValue());
        assertTrue(domain.isRequired(dc));

        Entry entry = entry("dc=example,dc=com", "objectClass", "top", "domain");
        add(entry, "dc", "example");
        assertEquals(matches("(dc=EXAMPLE)", entry), ConditionResult.TRUE);
        List<LocalizableMessage> errors = new ArrayList<>();
        assertTrue(schema.validateEntry(entry, SchemaValidationPolicy.defaultPolicy(), errors), errors.toString());

        Entry people = entry("ou=People,dc=example,dc=com", "objectClass", "top", "organizationalUnit");
        add(people, "ou", "People");
        errors.clear();
        assertTrue(schema.validateEntry(people, SchemaValidationPolicy.defaultPolicy(), errors), errors.toString());
    }

    @Test
    public void definitionsFollowTheRfcs() {
        // RFC 4519 replaces the SDK's built-in groupOfUniqueNames, which requires 'member'.
        ObjectClass groupOfUniqueNames = schema.getObjectClass("groupOfUniqueNames");
        assertTrue(groupOfUniqueNames.isRequired(schema.getAttributeType("uniqueMember")));
        assertFalse(groupOfUniqueNames.isRequiredOrOptional(schema.getAttributeType("member")));
        assertEquals(schema.getAttributeType("postalAddress").getEqualityMatchingRule().getNameOrOID(),
                "caseIgnoreListMatch");
        assertEquals(schema.getAttributeType("o").getSuperiorType().getNameOrOID(), "name");
        // RFC 4524
        assertEquals(schema.getObjectClass("account").getOID(), "0.9.2342.19200300.100.4.5");
        assertEquals(schema.getObjectClass("documentSeries").getOID(), "0.9.2342.19200300.100.4.9");
        assertEquals(schema.getAttributeType("homePostalAddress").getSyntax().getOID(),
                "1.3.6.1.4.1.1466.115.121.1.41");
        // RFC 2798
        assertTrue(schema.getAttributeType("displayName").isSingleValue());
        assertEquals(schema.getAttributeType("jpegPhoto").getSyntax().getOID(), "1.3.6.1.4.1.1466.115.121.1.28");
        // RFC 2307
        assertEquals(schema.getAttributeType("memberUid").getEqualityMatchingRule().getNameOrOID(),
                "caseExactIA5Match");
        assertEquals(schema.getObjectClass("posixGroup").getObjectClassType(), ObjectClassType.STRUCTURAL);
        assertEquals(schema.getObjectClass("shadowAccount").getObjectClassType(), ObjectClassType.AUXILIARY);
        assertTrue(schema.getObjectClass("shadowAccount").isOptional(schema.getAttributeType("shadowMax")));
        assertEquals(schema.getObjectClass("nisMap").getOID(), "1.3.6.1.1.1.2.9");
        assertEquals(schema.getAttributeType("nisNetgroupTriple").getSyntax().getOID(), "1.3.6.1.1.1.0.0");
    }

    @Test
    public void inetOrgPersonEntryValidation() {
        Entry valid = inetOrgPerson(true);
        List<LocalizableMessage> errors = new ArrayList<>();
        assertTrue(schema.validateEntry(valid, SchemaValidationPolicy.defaultPolicy(), errors), errors.toString());
        assertTrue(errors.isEmpty(), errors.toString());

        Entry missingSn = inetOrgPerson(false);
        errors.clear();
        assertFalse(schema.validateEntry(missingSn, SchemaValidationPolicy.defaultPolicy(), errors));
        assertFalse(errors.isEmpty());
        assertTrue(errors.toString().contains("sn"), errors.toString());

        Entry unknownClass = inetOrgPerson(true);
        add(unknownClass, "objectClass", "posixAccountTypo");
        errors.clear();
        assertFalse(schema.validateEntry(unknownClass, SchemaValidationPolicy.defaultPolicy(), errors));

        Entry twoDisplayNames = inetOrgPerson(true);
        add(twoDisplayNames, "displayName", "Babs", "Barbara");
        errors.clear();
        assertFalse(schema.validateEntry(twoDisplayNames, SchemaValidationPolicy.defaultPolicy(), errors),
                "displayName is SINGLE-VALUE");
    }

    @Test
    public void schemaFileEntriesAreValidEntries() throws Exception {
        for (String name : SCHEMA_FILES) {
            try (LDIFEntryReader reader = new LDIFEntryReader(Files.newInputStream(schemaDir.resolve(name)))) {
                reader.setSchema(schema);
                Entry entry = reader.readEntry();
                List<LocalizableMessage> errors = new ArrayList<>();
                assertTrue(schema.validateEntry(entry, SchemaValidationPolicy.defaultPolicy(), errors),
                        name + ": " + errors);
                assertFalse(reader.hasNext(), name + " has one entry");
            }
        }
    }

    // ---------------------------------------------------------------------------------------------
    // Broken schema directories
    // ---------------------------------------------------------------------------------------------

    @Test
    public void unparsableDefinitionNamesFileAndDefinition() throws Exception {
        copyRealFiles();
        String definition = "( 1.3.6.1.4.1.99999.1.1 NAME 'brokenAttr' SYNTAX )";
        writeSchemaFile("50-broken.ldif", "attributeTypes: " + definition);

        SchemaLoadException e = expectThrows(SchemaLoadException.class, () -> SchemaLoader.load(tempDir));
        assertTrue(e.getMessage().contains("50-broken.ldif"), e.getMessage());
        assertTrue(e.getMessage().contains(definition), e.getMessage());
    }

    @Test
    public void malformedLdifNamesFile() throws Exception {
        copyRealFiles();
        Files.writeString(tempDir.resolve("50-broken.ldif"),
                "dn: cn=schema\nobjectClass top\n", StandardCharsets.UTF_8);

        SchemaLoadException e = expectThrows(SchemaLoadException.class, () -> SchemaLoader.load(tempDir));
        assertTrue(e.getMessage().contains("50-broken.ldif"), e.getMessage());
    }

    @Test
    public void unknownSuperiorNamesFileAndDefinition() throws Exception {
        copyRealFiles();
        String good = "( 1.3.6.1.4.1.99999.1.1 NAME 'fineAttr' SUP name )";
        String bad = "( 1.3.6.1.4.1.99999.1.2 NAME 'orphanAttr' SUP noSuchSuperior )";
        writeSchemaFile("50-custom.ldif", "attributeTypes: " + good, "attributeTypes: " + bad);

        SchemaLoadException e = expectThrows(SchemaLoadException.class, () -> SchemaLoader.load(tempDir));
        assertTrue(e.getMessage().contains("50-custom.ldif"), e.getMessage());
        assertTrue(e.getMessage().contains(bad), e.getMessage());
        assertTrue(e.getMessage().contains("noSuchSuperior"), e.getMessage());
        assertFalse(e.getMessage().contains("fineAttr"), e.getMessage());
    }

    @Test
    public void objectClassWithUnknownAttributeFails() throws Exception {
        copyRealFiles();
        String bad = "( 1.3.6.1.4.1.99999.2.1 NAME 'customPerson' SUP inetOrgPerson STRUCTURAL MAY badgeNumbr )";
        writeSchemaFile("60-custom.ldif", "objectClasses: " + bad);

        SchemaLoadException e = expectThrows(SchemaLoadException.class, () -> SchemaLoader.load(tempDir));
        assertTrue(e.getMessage().contains("60-custom.ldif"), e.getMessage());
        assertTrue(e.getMessage().contains(bad), e.getMessage());
    }

    @Test
    public void unknownSyntaxFails() throws Exception {
        copyRealFiles();
        String bad = "( 1.3.6.1.4.1.99999.1.3 NAME 'oddAttr' SYNTAX 1.3.6.1.4.1.99999.9.9 )";
        writeSchemaFile("50-custom.ldif", "attributeTypes: " + bad);

        SchemaLoadException e = expectThrows(SchemaLoadException.class, () -> SchemaLoader.load(tempDir));
        assertTrue(e.getMessage().contains("50-custom.ldif") && e.getMessage().contains(bad), e.getMessage());
    }

    @Test
    public void attributeTypeWithoutSyntaxOrSuperiorFails() throws Exception {
        copyRealFiles();
        String bad = "( 1.3.6.1.4.1.99999.1.4 NAME 'bareAttr' )";
        writeSchemaFile("50-custom.ldif", "attributeTypes: " + bad);

        SchemaLoadException e = expectThrows(SchemaLoadException.class, () -> SchemaLoader.load(tempDir));
        assertTrue(e.getMessage().contains("50-custom.ldif") && e.getMessage().contains(bad), e.getMessage());
    }

    @Test
    public void sameOidInTwoFilesFails() throws Exception {
        copyRealFiles();
        writeSchemaFile("50-custom.ldif", "attributeTypes: ( 0.9.2342.19200300.100.1.3 NAME 'email'"
                + " EQUALITY caseExactIA5Match SYNTAX 1.3.6.1.4.1.1466.115.121.1.26 )");

        SchemaLoadException e = expectThrows(SchemaLoadException.class, () -> SchemaLoader.load(tempDir));
        assertTrue(e.getMessage().contains("01-cosine.ldif") && e.getMessage().contains("50-custom.ldif"),
                e.getMessage());
    }

    @Test
    public void sameOidTwiceInOneFileFails() throws Exception {
        // attributeTypes values are equal under objectIdentifierFirstComponentMatch when their OIDs are;
        // the loader must still see both and refuse.
        writeSchemaFile("50-custom.ldif",
                "attributeTypes: ( 1.3.6.1.4.1.99999.1.9 NAME 'first' SUP name )",
                "attributeTypes: ( 1.3.6.1.4.1.99999.1.9 NAME 'second' SUP name )");

        SchemaLoadException e = expectThrows(SchemaLoadException.class, () -> SchemaLoader.load(tempDir));
        assertTrue(e.getMessage().contains("50-custom.ldif") && e.getMessage().contains("'first'")
                && e.getMessage().contains("'second'"), e.getMessage());
    }

    @Test
    public void sameNameInTwoFilesFails() throws Exception {
        copyRealFiles();
        writeSchemaFile("50-custom.ldif", "attributeTypes: ( 1.3.6.1.4.1.99999.1.5 NAME 'MAIL'"
                + " EQUALITY caseExactIA5Match SYNTAX 1.3.6.1.4.1.1466.115.121.1.26 )");

        SchemaLoadException e = expectThrows(SchemaLoadException.class, () -> SchemaLoader.load(tempDir));
        assertTrue(e.getMessage().contains("01-cosine.ldif") && e.getMessage().contains("50-custom.ldif"),
                e.getMessage());
    }

    @Test
    public void misspelledDefinitionAttributeFails() throws Exception {
        copyRealFiles();
        writeSchemaFile("50-custom.ldif", "attributeType: ( 1.3.6.1.4.1.99999.1.6 NAME 'lostAttr' SUP name )");

        SchemaLoadException e = expectThrows(SchemaLoadException.class, () -> SchemaLoader.load(tempDir));
        assertTrue(e.getMessage().contains("50-custom.ldif") && e.getMessage().contains("attributeType"),
                e.getMessage());
    }

    @Test
    public void emptyOrMissingDirectoryFails() {
        SchemaLoadException e = expectThrows(SchemaLoadException.class, () -> SchemaLoader.load(tempDir));
        assertTrue(e.getMessage().contains("no *.ldif"), e.getMessage());
        expectThrows(SchemaLoadException.class, () -> SchemaLoader.load(tempDir.resolve("missing")));
    }

    @Test
    public void builtInDefinitionIsReplacedByName() throws Exception {
        // A name the SDK gives to another OID: the file's definition wins and the built-in one is dropped.
        writeSchemaFile("00-test.ldif", "attributeTypes: ( 1.3.6.1.4.1.99999.1.7 NAME 'vendorName'"
                + " EQUALITY caseExactMatch SYNTAX 1.3.6.1.4.1.1466.115.121.1.15 )");
        Schema custom = SchemaLoader.load(tempDir);
        assertEquals(custom.getAttributeType("vendorName").getOID(), "1.3.6.1.4.1.99999.1.7");
        assertFalse(custom.hasAttributeType("1.3.6.1.1.4"));
        assertTrue(custom.getWarnings().isEmpty(), custom.getWarnings().toString());
    }

    @Test
    public void customSchemaFileExtendsRealSchema() throws Exception {
        copyRealFiles();
        writeSchemaFile("99-user.ldif",
                "attributeTypes: ( 1.3.6.1.4.1.99999.1.8 NAME 'badgeNumber' EQUALITY integerMatch"
                        + " ORDERING integerOrderingMatch SYNTAX 1.3.6.1.4.1.1466.115.121.1.27 SINGLE-VALUE"
                        + " X-ORIGIN 'user defined' )",
                "objectClasses: ( 1.3.6.1.4.1.99999.2.2 NAME 'badgeHolder' SUP top AUXILIARY MUST badgeNumber"
                        + " X-ORIGIN 'user defined' )");
        Schema custom = SchemaLoader.load(tempDir);
        assertTrue(custom.getObjectClass("badgeHolder").isRequired(custom.getAttributeType("badgeNumber")));
        assertNotNull(custom.getObjectClass("inetOrgPerson"));
    }

    // ---------------------------------------------------------------------------------------------
    // Helpers
    // ---------------------------------------------------------------------------------------------

    /** config/schema of the repository: surefire runs in the module directory, an IDE maybe elsewhere. */
    private static Path findSchemaDirectory() {
        String configured = System.getProperty("bindfirst.schema.dir");
        if (configured != null) {
            return Path.of(configured);
        }
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            Path candidate = dir.resolve("config").resolve("schema");
            if (Files.isRegularFile(candidate.resolve("00-core.ldif"))) {
                return candidate;
            }
        }
        fail("config/schema not found above " + Path.of("").toAbsolutePath());
        return null;
    }

    private void copyRealFiles() throws IOException {
        for (String name : SCHEMA_FILES) {
            Files.copy(schemaDir.resolve(name), tempDir.resolve(name));
        }
    }

    private void writeSchemaFile(String name, String... definitionLines) throws IOException {
        StringBuilder ldif = new StringBuilder("dn: cn=schema\nobjectClass: top\nobjectClass: ldapSubentry\n"
                + "objectClass: subschema\ncn: schema\n");
        for (String line : definitionLines) {
            ldif.append(line).append('\n');
        }
        Files.writeString(tempDir.resolve(name), ldif, StandardCharsets.UTF_8);
    }

    private Entry entry(String dn, String objectClassAttr, String... objectClasses) {
        Entry entry = new LinkedHashMapEntry(DN.valueOf(dn, schema));
        add(entry, objectClassAttr, objectClasses);
        return entry;
    }

    /** Adds values under an attribute description resolved in the loaded schema (not the SDK default). */
    private void add(Entry entry, String attribute, String... values) {
        AttributeDescription ad = AttributeDescription.valueOf(attribute, schema);
        entry.addAttribute(new LinkedAttribute(ad, (Object[]) values));
    }

    private ConditionResult matches(String filter, Entry entry) {
        return Filter.valueOf(filter).matcher(schema).matches(entry);
    }

    private Entry inetOrgPerson(boolean withSn) {
        Entry entry = entry("uid=bjensen,ou=people,dc=example,dc=com",
                "objectClass", "top", "person", "organizationalPerson", "inetOrgPerson");
        add(entry, "uid", "bjensen");
        add(entry, "cn", "Barbara Jensen");
        if (withSn) {
            add(entry, "sn", "Jensen");
        }
        add(entry, "givenName", "Barbara");
        add(entry, "mail", "bjensen@example.com");
        add(entry, "telephoneNumber", "+1 408 555 1862");
        add(entry, "employeeNumber", "42");
        add(entry, "preferredLanguage", "fr, en-gb;q=0.8, en;q=0.7");
        add(entry, "labeledURI", "http://www.example.com/users/bjensen My Home Page");
        add(entry, "userPassword", "secret");
        return entry;
    }
}
