package io.bindfirst.server.core.write;

import static io.bindfirst.server.core.write.WriteTests.entry;
import static io.bindfirst.server.core.write.WriteTests.expectWriteException;
import static io.bindfirst.server.core.write.WriteTests.schema;
import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.forgerock.opendj.ldap.AttributeDescription;
import org.forgerock.opendj.ldap.Entry;
import org.forgerock.opendj.ldap.LinkedAttribute;
import org.forgerock.opendj.ldap.LinkedHashMapEntry;
import org.forgerock.opendj.ldap.ResultCode;
import org.testng.annotations.Test;

public class SchemaCheckerTest {

    private static final String DN = "uid=jdoe,ou=People,dc=example,dc=com";
    private static final String PREFIX = "Entry " + DN + " violates the schema: ";

    private static final String[] PERSON = {
        "dn: " + DN,
        "objectClass: top",
        "objectClass: person",
        "objectClass: organizationalPerson",
        "objectClass: inetOrgPerson",
        "uid: jdoe",
        "cn: John Doe",
        "sn: Doe",
        "mail: jdoe@example.com",
        "userPassword: {SSHA}secret-hash" };

    /** The person entry with some lines left out (matched by prefix) and others added. */
    private static Entry person(List<String> without, String... extra) {
        List<String> lines = new ArrayList<>();
        for (String line : PERSON) {
            if (without.stream().noneMatch(line::startsWith)) {
                lines.add(line);
            }
        }
        lines.addAll(Arrays.asList(extra));
        return entry(lines.toArray(new String[0]));
    }

    /** Checks one entry; {@link SchemaCheckerRememberedTest} runs every test here through remembered classes. */
    void check(Entry entry) throws WriteException {
        SchemaChecker.check(entry, schema());
    }

    // ---------------------------------------------------------------------------------------------
    // Conforming entries
    // ---------------------------------------------------------------------------------------------

    @Test
    public void conformingEntriesPass() throws Exception {
        check(person(List.of()));
        check(entry(
                "dn: " + DN,
                "objectClass: inetOrgPerson",
                "objectClass: posixAccount",
                "objectClass: shadowAccount",
                "uid: jdoe",
                "cn: John Doe",
                "sn: Doe",
                "uidNumber: 1000",
                "gidNumber: 100",
                "homeDirectory: /home/jdoe",
                "shadowMax: 90"));
        check(entry(
                "dn: cn=staff,ou=Groups,dc=example,dc=com",
                "objectClass: groupOfNames",
                "cn: staff",
                "member: " + DN));
        check(entry("dn: dc=example,dc=com", "objectClass: domain", "objectClass: dcObject", "dc: example"));
    }

    @Test
    public void impliedSuperclassesNeedNotBeListed() throws Exception {
        check(person(List.of("objectClass: top", "objectClass: person", "objectClass: organizationalPerson")));
    }

    @Test
    public void objectClassNamesAndOidsAreAccepted() throws Exception {
        check(entry(
                "dn: " + DN,
                "objectClass: INETORGPERSON",
                "objectClass: 1.3.6.1.1.1.2.0",
                "uid: jdoe",
                "cn: John Doe",
                "sn: Doe",
                "uidNumber: 1000",
                "gidNumber: 100",
                "homeDirectory: /home/jdoe"));
    }

    @Test
    public void entriesDecodedWithoutTheServerSchemaAreCheckedAgainstIt() throws Exception {
        check(new LinkedHashMapEntry(PERSON));
        WriteException e = expectWriteException(ResultCode.OBJECTCLASS_VIOLATION,
                () -> check(new LinkedHashMapEntry("dn: " + DN, "objectClass: person", "uid: jdoe", "cn: x", "sn: y")));
        assertEquals(e.getMessage(), PREFIX + "attribute uid is not allowed by its object classes (person)");
    }

    @Test
    public void operationalAttributesAreAlwaysAllowed() throws Exception {
        check(person(List.of(),
                "createTimestamp: 20240101000000Z",
                "entryUUID: 597ae2f6-16a6-1027-98f4-d28b5365dc14",
                "creatorsName: cn=Directory Manager"));
    }

    // ---------------------------------------------------------------------------------------------
    // Object classes
    // ---------------------------------------------------------------------------------------------

    @Test
    public void missingObjectClassIsObjectClassViolation() {
        WriteException e = expectWriteException(ResultCode.OBJECTCLASS_VIOLATION,
                () -> check(person(List.of("objectClass:"))));
        assertEquals(e.getMessage(), PREFIX + "it has no objectClass attribute");
    }

    @Test
    public void unknownObjectClassIsObjectClassViolation() {
        WriteException e = expectWriteException(ResultCode.OBJECTCLASS_VIOLATION,
                () -> check(person(List.of(), "objectClass: noSuchClass")));
        assertEquals(e.getMessage(), PREFIX + "object class 'noSuchClass' is not defined in the schema");
    }

    @Test
    public void unknownObjectClassIsObjectClassViolationUnderANonStrictSchemaToo() {
        // a non-strict schema answers the name with a placeholder class rather than refusing it
        WriteException e = expectWriteException(ResultCode.OBJECTCLASS_VIOLATION, () -> SchemaChecker.check(
                person(List.of(), "objectClass: noSuchClass"), schema().asNonStrictSchema()));
        assertEquals(e.getMessage(), PREFIX + "object class 'noSuchClass' is not defined in the schema");
    }

    @Test
    public void noStructuralObjectClassIsObjectClassViolation() {
        WriteException e = expectWriteException(ResultCode.OBJECTCLASS_VIOLATION, () -> check(entry(
                "dn: " + DN,
                "objectClass: top",
                "objectClass: uidObject",
                "uid: jdoe")));
        assertEquals(e.getMessage(),
                PREFIX + "it has no structural object class (its object classes are top, uidObject)");
    }

    @Test
    public void unrelatedStructuralObjectClassesAreObjectClassViolation() {
        WriteException e = expectWriteException(ResultCode.OBJECTCLASS_VIOLATION,
                () -> check(person(List.of(), "objectClass: device")));
        assertTrue(e.getMessage().startsWith(PREFIX + "its structural object classes inetOrgPerson and device are"
                + " unrelated"), e.getMessage());
        // Two branches under one superclass are unrelated too.
        expectWriteException(ResultCode.OBJECTCLASS_VIOLATION, () -> check(entry(
                "dn: cn=John Doe,dc=example,dc=com",
                "objectClass: residentialPerson",
                "objectClass: organizationalPerson",
                "cn: John Doe",
                "sn: Doe",
                "l: Paris")));
    }

    // ---------------------------------------------------------------------------------------------
    // Required and allowed attributes
    // ---------------------------------------------------------------------------------------------

    @Test
    public void inetOrgPersonWithoutSnIsObjectClassViolation() {
        WriteException e = expectWriteException(ResultCode.OBJECTCLASS_VIOLATION,
                () -> check(person(List.of("sn:"))));
        assertEquals(e.getMessage(), PREFIX + "required attribute sn is missing (objectClass person)");
    }

    @Test
    public void requiredAttributesOfAuxiliaryClassesAreChecked() {
        WriteException e = expectWriteException(ResultCode.OBJECTCLASS_VIOLATION,
                () -> check(person(List.of(), "objectClass: posixAccount", "uidNumber: 1000", "gidNumber: 100")));
        assertEquals(e.getMessage(), PREFIX + "required attribute homeDirectory is missing (objectClass posixAccount)");
    }

    @Test
    public void aRequiredAttributeWithOptionsOrOfASubtypeCounts() throws Exception {
        check(entry(
                "dn: " + DN,
                "objectClass: inetOrgPerson",
                "uid: jdoe",
                "cn;lang-fr: Jean Dupont",
                "sn: Doe"));
    }

    @Test
    public void attributeNotAllowedIsObjectClassViolation() {
        WriteException e = expectWriteException(ResultCode.OBJECTCLASS_VIOLATION, () -> check(entry(
                "dn: cn=John Doe,dc=example,dc=com",
                "objectClass: person",
                "cn: John Doe",
                "sn: Doe",
                "mail: jdoe@example.com")));
        assertEquals(e.getMessage(), "Entry cn=John Doe,dc=example,dc=com violates the schema: attribute mail is not"
                + " allowed by its object classes (person)");
        expectWriteException(ResultCode.OBJECTCLASS_VIOLATION,
                () -> check(person(List.of(), "uidNumber: 1000")));
    }

    @Test
    public void extensibleObjectAllowsAnyUserAttribute() throws Exception {
        check(entry(
                "dn: cn=John Doe,dc=example,dc=com",
                "objectClass: person",
                "objectClass: extensibleObject",
                "cn: John Doe",
                "sn: Doe",
                "mail: jdoe@example.com",
                "uidNumber: 1000",
                "dc: anything"));
    }

    @Test
    public void extensibleObjectStillRequiresMustAttributes() {
        expectWriteException(ResultCode.OBJECTCLASS_VIOLATION, () -> check(entry(
                "dn: cn=John Doe,dc=example,dc=com",
                "objectClass: person",
                "objectClass: extensibleObject",
                "cn: John Doe")));
    }

    @Test
    public void unknownAttributeTypeIsUndefinedAttributeType() {
        Entry e = new LinkedHashMapEntry(PERSON);
        e.addAttribute("noSuchAttribute", "x");
        WriteException x = expectWriteException(ResultCode.UNDEFINED_ATTRIBUTE_TYPE, () -> check(e));
        assertEquals(x.getMessage(), PREFIX + "attribute type 'noSuchAttribute' is not defined in the schema");
    }

    @Test
    public void anAttributeWithoutValuesIsProtocolError() {
        Entry e = person(List.of());
        e.addAttribute(new LinkedAttribute(AttributeDescription.valueOf("description", schema())));
        expectWriteException(ResultCode.PROTOCOL_ERROR, () -> check(e));
    }

    // ---------------------------------------------------------------------------------------------
    // SINGLE-VALUE and syntax
    // ---------------------------------------------------------------------------------------------

    @Test
    public void twoValuesOfASingleValuedAttributeAreConstraintViolation() {
        WriteException e = expectWriteException(ResultCode.CONSTRAINT_VIOLATION, () -> check(person(List.of(),
                "objectClass: posixAccount",
                "uidNumber: 1000",
                "uidNumber: 1001",
                "gidNumber: 100",
                "homeDirectory: /home/jdoe")));
        assertEquals(e.getMessage(), PREFIX + "attribute uidNumber is single-valued (SINGLE-VALUE) but has 2 values");
    }

    @Test
    public void valuesViolatingTheSyntaxAreInvalidAttributeSyntax() {
        WriteException e = expectWriteException(ResultCode.INVALID_ATTRIBUTE_SYNTAX, () -> check(person(List.of(),
                "objectClass: posixAccount",
                "uidNumber: abc",
                "gidNumber: 100",
                "homeDirectory: /home/jdoe")));
        assertTrue(e.getMessage().startsWith(PREFIX + "the value \"abc\" of attribute uidNumber is not valid for its"
                + " syntax (Integer)"), e.getMessage());
        expectWriteException(ResultCode.INVALID_ATTRIBUTE_SYNTAX, () -> check(entry(
                "dn: cn=staff,ou=Groups,dc=example,dc=com",
                "objectClass: groupOfNames",
                "cn: staff",
                "member: not a DN")));
        expectWriteException(ResultCode.INVALID_ATTRIBUTE_SYNTAX, () -> check(entry(
                "dn: c=USA,dc=example,dc=com",
                "objectClass: country",
                "c: USA")));
    }

    // ---------------------------------------------------------------------------------------------
    // RDN values
    // ---------------------------------------------------------------------------------------------

    @Test
    public void missingRdnValueIsNamingViolation() {
        WriteException e = expectWriteException(ResultCode.NAMING_VIOLATION, () -> check(person(List.of("uid:"))));
        assertEquals(e.getMessage(), PREFIX + "the value \"jdoe\" of naming attribute uid is not present in the entry"
                + " (the values of the RDN must be)");
        expectWriteException(ResultCode.NAMING_VIOLATION, () -> check(person(List.of("uid:"), "uid: john")));
    }

    @Test
    public void rdnValuesMatchWithTheEqualityRule() throws Exception {
        check(person(List.of("uid:"), "uid: JDoe"));
    }

    @Test
    public void everyValueOfAMultiValuedRdnMustBePresent() throws Exception {
        String dn = "dn: cn=John Doe+uid=jdoe,ou=People,dc=example,dc=com";
        check(entry(dn, "objectClass: inetOrgPerson", "uid: jdoe", "cn: John Doe", "sn: Doe"));
        expectWriteException(ResultCode.NAMING_VIOLATION,
                () -> check(entry(dn, "objectClass: inetOrgPerson", "uid: jdoe", "cn: Johnny", "sn: Doe")));
    }
}
