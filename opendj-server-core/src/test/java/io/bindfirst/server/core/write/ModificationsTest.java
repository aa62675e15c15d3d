package io.bindfirst.server.core.write;

import static io.bindfirst.server.core.write.WriteTests.add;
import static io.bindfirst.server.core.write.WriteTests.delete;
import static io.bindfirst.server.core.write.WriteTests.entry;
import static io.bindfirst.server.core.write.WriteTests.expectWriteException;
import static io.bindfirst.server.core.write.WriteTests.increment;
import static io.bindfirst.server.core.write.WriteTests.mod;
import static io.bindfirst.server.core.write.WriteTests.rawMod;
import static io.bindfirst.server.core.write.WriteTests.replace;
import static io.bindfirst.server.core.write.WriteTests.schema;
import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertFalse;
import static org.testng.Assert.assertNotSame;
import static org.testng.Assert.assertNull;
import static org.testng.Assert.assertTrue;

import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

import org.forgerock.opendj.ldap.Attribute;
import org.forgerock.opendj.ldap.AttributeDescription;
import org.forgerock.opendj.ldap.ByteString;
import org.forgerock.opendj.ldap.Entry;
import org.forgerock.opendj.ldap.LinkedAttribute;
import org.forgerock.opendj.ldap.LinkedHashMapEntry;
import org.forgerock.opendj.ldap.Modification;
import org.forgerock.opendj.ldap.ModificationType;
import org.forgerock.opendj.ldap.ResultCode;
import org.testng.annotations.Test;

public class ModificationsTest {

    private static final String DN = "uid=jdoe,ou=People,dc=example,dc=com";

    private static Entry person() {
        return entry(
                "dn: " + DN,
                "objectClass: top",
                "objectClass: person",
                "objectClass: organizationalPerson",
                "objectClass: inetOrgPerson",
                "uid: jdoe",
                "cn: John Doe",
                "sn: Doe",
                "mail: user@example.com",
                "mail: john@example.com",
                "description: first",
                "description;lang-fr: premier",
                "userPassword: secret-old-password");
    }

    private static Entry posixAccount() {
        return entry(
                "dn: " + DN,
                "objectClass: top",
                "objectClass: inetOrgPerson",
                "objectClass: posixAccount",
                "uid: jdoe",
                "cn: John Doe",
                "sn: Doe",
                "uidNumber: 1000",
                "gidNumber: 100",
                "homeDirectory: /home/jdoe");
    }

    private static Entry apply(Entry current, Modification... mods) throws WriteException {
        return Modifications.apply(current, List.of(mods), schema());
    }

    private static Set<String> values(Entry entry, String attribute) {
        Attribute a = entry.getAttribute(AttributeDescription.valueOf(attribute, schema()));
        return a == null ? null : a.stream().map(ByteString::toString).collect(Collectors.toSet());
    }

    // ---------------------------------------------------------------------------------------------
    // permissive modify
    // ---------------------------------------------------------------------------------------------

    @Test
    public void permissiveAddOfAPresentValueAndDeleteOfAnAbsentOneChangeNothing() throws Exception {
        Entry result = Modifications.apply(person(), List.of(add("mail", "USER@EXAMPLE.COM", "new@example.com"),
                delete("mail", "absent@example.com"), delete("telephoneNumber"),
                delete("telephoneNumber", "+1 555 0100")), schema(), true);
        assertEquals(values(result, "mail"), Set.of("user@example.com", "john@example.com", "new@example.com"));
        assertEquals(values(result, "telephoneNumber"), null);
    }

    @Test
    public void permissiveModifyStillRefusesWhatIsNotAboutPresentValues() {
        expectWriteException(ResultCode.INVALID_ATTRIBUTE_SYNTAX, () -> Modifications.apply(posixAccount(),
                List.of(add("uidNumber", "many")), schema(), true));
        expectWriteException(ResultCode.PROTOCOL_ERROR, () -> Modifications.apply(person(),
                List.of(add("mail")), schema(), true));
    }

    // ---------------------------------------------------------------------------------------------
    // add
    // ---------------------------------------------------------------------------------------------

    @Test
    public void addAppendsValuesToAnExistingAttribute() throws Exception {
        Entry result = apply(person(), add("mail", "jd@example.org"));
        assertEquals(values(result, "mail"), Set.of("user@example.com", "john@example.com", "jd@example.org"));
    }

    @Test
    public void addCreatesAMissingAttribute() throws Exception {
        Entry result = apply(person(), add("telephoneNumber", "+1 555 0100", "+1 555 0101"));
        assertEquals(values(result, "telephoneNumber"), Set.of("+1 555 0100", "+1 555 0101"));
    }

    @Test
    public void addOfAValuePresentInAnotherCaseIsAttributeOrValueExists() {
        WriteException e = expectWriteException(ResultCode.ATTRIBUTE_OR_VALUE_EXISTS,
                () -> apply(person(), add("mail", "USER@EXAMPLE.COM")));
        assertEquals(e.getMessage(), "Entry " + DN + " cannot be modified: attribute mail already has the value"
                + " \"USER@EXAMPLE.COM\"");
    }

    @Test
    public void addListingTheSameValueTwiceIsAttributeOrValueExists() {
        WriteException e = expectWriteException(ResultCode.ATTRIBUTE_OR_VALUE_EXISTS,
                () -> apply(person(), rawMod(ModificationType.ADD, "mail", "new@example.com", "NEW@example.com")));
        assertTrue(e.getMessage().endsWith("attribute mail already has the value \"NEW@example.com\""),
                e.getMessage());
    }

    @Test
    public void addWithoutValuesIsProtocolError() {
        WriteException e = expectWriteException(ResultCode.PROTOCOL_ERROR, () -> apply(person(), add("mail")));
        assertTrue(e.getMessage().contains("attribute mail lists no values"), e.getMessage());
    }

    @Test
    public void addOfAnUnknownObjectClassIsObjectClassViolation() {
        WriteException e = expectWriteException(ResultCode.OBJECTCLASS_VIOLATION,
                () -> apply(person(), add("objectClass", "noSuchClass")));
        assertTrue(e.getMessage().contains("object class 'noSuchClass' is not defined"), e.getMessage());
    }

    @Test
    public void addOfAnAuxiliaryObjectClassWorks() throws Exception {
        Entry result = apply(person(), add("objectClass", "extensibleObject"));
        assertTrue(values(result, "objectClass").contains("extensibleObject"));
    }

    // ---------------------------------------------------------------------------------------------
    // delete
    // ---------------------------------------------------------------------------------------------

    @Test
    public void deleteMatchesValuesWithTheEqualityRule() throws Exception {
        Entry result = apply(person(), delete("mail", "USER@EXAMPLE.COM"));
        assertEquals(values(result, "mail"), Set.of("john@example.com"));
    }

    @Test
    public void deleteUnderAnotherNameOfTheTypeWorks() throws Exception {
        Entry result = apply(person(), delete("rfc822Mailbox", "John@Example.com"));
        assertEquals(values(result, "mail"), Set.of("user@example.com"));
    }

    @Test
    public void deletingTheLastValuesRemovesTheAttribute() throws Exception {
        Entry result = apply(person(), delete("mail", "user@example.com", "JOHN@example.com"));
        assertNull(values(result, "mail"));
    }

    @Test
    public void deleteOfAMissingValueIsNoSuchAttribute() {
        WriteException e = expectWriteException(ResultCode.NO_SUCH_ATTRIBUTE,
                () -> apply(person(), delete("mail", "other@example.com")));
        assertTrue(e.getMessage().contains("attribute mail does not have the value \"other@example.com\""),
                e.getMessage());
    }

    @Test
    public void deleteWithoutValuesRemovesTheWholeAttribute() throws Exception {
        Entry result = apply(person(), delete("mail"));
        assertNull(values(result, "mail"));
    }

    @Test
    public void deleteOfAnAbsentAttributeIsNoSuchAttribute() {
        expectWriteException(ResultCode.NO_SUCH_ATTRIBUTE, () -> apply(person(), delete("telephoneNumber")));
        expectWriteException(ResultCode.NO_SUCH_ATTRIBUTE,
                () -> apply(person(), delete("telephoneNumber", "+1 555 0100")));
    }

    // ---------------------------------------------------------------------------------------------
    // replace
    // ---------------------------------------------------------------------------------------------

    @Test
    public void replaceSetsExactlyTheGivenValues() throws Exception {
        Entry result = apply(person(), replace("mail", "new@example.com"));
        assertEquals(values(result, "mail"), Set.of("new@example.com"));
    }

    @Test
    public void replaceCreatesAMissingAttribute() throws Exception {
        Entry result = apply(person(), replace("title", "Engineer"));
        assertEquals(values(result, "title"), Set.of("Engineer"));
    }

    @Test
    public void replaceWithoutValuesRemovesThePresentAttribute() throws Exception {
        Entry result = apply(person(), replace("mail"));
        assertNull(values(result, "mail"));
        assertEquals(values(result, "sn"), Set.of("Doe"));
    }

    @Test
    public void replaceWithoutValuesOfAnAbsentAttributeIsIgnored() throws Exception {
        Entry current = person();
        Entry result = apply(current, replace("telephoneNumber"));
        assertEquals(result, current);
    }

    @Test
    public void replaceListingTheSameValueTwiceIsAttributeOrValueExists() {
        WriteException e = expectWriteException(ResultCode.ATTRIBUTE_OR_VALUE_EXISTS,
                () -> apply(person(), rawMod(ModificationType.REPLACE, "mail", "a@example.com", "A@EXAMPLE.COM")));
        assertTrue(e.getMessage().endsWith("the replacement values of attribute mail list the value"
                + " \"A@EXAMPLE.COM\" more than once"), e.getMessage());
    }

    // ---------------------------------------------------------------------------------------------
    // increment (RFC 4525)
    // ---------------------------------------------------------------------------------------------

    @Test
    public void incrementAddsToTheIntegerValue() throws Exception {
        Entry result = apply(posixAccount(), increment("uidNumber", "5"));
        assertEquals(values(result, "uidNumber"), Set.of("1005"));
        result = apply(result, increment("uidNumber", "-2000"));
        assertEquals(values(result, "uidNumber"), Set.of("-995"));
    }

    @Test
    public void incrementDoesNotOverflow() throws Exception {
        Entry result = apply(posixAccount(), replace("uidNumber", String.valueOf(Long.MAX_VALUE)),
                increment("uidNumber", "1"));
        assertEquals(values(result, "uidNumber"), Set.of("9223372036854775808"));
    }

    @Test
    public void incrementOfANonIntegerAttributeIsConstraintViolation() {
        WriteException e = expectWriteException(ResultCode.CONSTRAINT_VIOLATION,
                () -> apply(posixAccount(), increment("homeDirectory", "1")));
        assertTrue(e.getMessage().contains("attribute homeDirectory cannot be incremented"), e.getMessage());
    }

    @Test
    public void incrementOfAnAbsentAttributeIsNoSuchAttribute() {
        expectWriteException(ResultCode.NO_SUCH_ATTRIBUTE, () -> apply(posixAccount(), increment("shadowMax", "1")));
    }

    @Test
    public void incrementNeedsExactlyOneValue() {
        expectWriteException(ResultCode.PROTOCOL_ERROR, () -> apply(posixAccount(), increment("uidNumber")));
        expectWriteException(ResultCode.PROTOCOL_ERROR, () -> apply(posixAccount(), increment("uidNumber", "1", "2")));
    }

    @Test
    public void incrementByANonIntegerIsInvalidAttributeSyntax() {
        for (String bad : new String[] { "abc", "+5", "05", "-0", "1.5", "" }) {
            expectWriteException(ResultCode.INVALID_ATTRIBUTE_SYNTAX,
                    () -> apply(posixAccount(), increment("uidNumber", bad)));
        }
    }

    @Test
    public void incrementOfAStoredNonIntegerValueIsInvalidAttributeSyntax() {
        // A value that could only be there from before the syntax was enforced.
        Entry current = new LinkedHashMapEntry(posixAccount());
        current.replaceAttribute(new LinkedAttribute(AttributeDescription.valueOf("uidNumber", schema()), "x1"));
        expectWriteException(ResultCode.INVALID_ATTRIBUTE_SYNTAX, () -> apply(current, increment("uidNumber", "1")));
    }

    // ---------------------------------------------------------------------------------------------
    // Options, names and schema of the request
    // ---------------------------------------------------------------------------------------------

    @Test
    public void optionsMakeDistinctAttributes() throws Exception {
        Entry result = apply(person(), delete("description"));
        assertNull(values(result, "description"));
        assertEquals(values(result, "description;lang-fr"), Set.of("premier"));

        result = apply(person(), add("description;lang-fr", "first"), delete("description;lang-fr", "premier"));
        assertEquals(values(result, "description"), Set.of("first"));
        assertEquals(values(result, "description;lang-fr"), Set.of("first"));
    }

    @Test
    public void changesDecodedAgainstTheServerSchemaWorkToo() throws Exception {
        Attribute mail = new LinkedAttribute(AttributeDescription.valueOf("mail", schema()), "User@Example.COM");
        Entry result = Modifications.apply(person(), List.of(new Modification(ModificationType.DELETE, mail)),
                schema());
        assertEquals(values(result, "mail"), Set.of("john@example.com"));
    }

    @Test
    public void unknownAttributeTypeIsUndefinedAttributeType() {
        WriteException e = expectWriteException(ResultCode.UNDEFINED_ATTRIBUTE_TYPE,
                () -> apply(person(), add("noSuchAttribute", "x")));
        assertEquals(e.getMessage(),
                "Entry " + DN + " cannot be modified: attribute type 'noSuchAttribute' is not defined in the schema");
        expectWriteException(ResultCode.UNDEFINED_ATTRIBUTE_TYPE, () -> apply(person(), delete("noSuchAttribute")));
    }

    @Test
    public void unknownModificationTypeIsProtocolError() {
        expectWriteException(ResultCode.PROTOCOL_ERROR,
                () -> apply(person(), mod(ModificationType.valueOf(7), "mail", "x@example.com")));
    }

    // ---------------------------------------------------------------------------------------------
    // NO-USER-MODIFICATION
    // ---------------------------------------------------------------------------------------------

    @Test
    public void noUserModificationAttributesAreConstraintViolation() {
        Entry current = person();
        current.addAttribute(new LinkedAttribute(AttributeDescription.valueOf("entryUUID", schema()),
                "597ae2f6-16a6-1027-98f4-d28b5365dc14"));
        for (Modification m : List.of(
                replace("entryUUID", "597ae2f6-16a6-1027-98f4-d28b5365dc15"),
                delete("entryUUID"),
                add("createTimestamp", "20240101000000Z"),
                replace("entryDN", DN),
                replace("modifiersName"))) {
            WriteException e = expectWriteException(ResultCode.CONSTRAINT_VIOLATION, () -> apply(current, m));
            String name = m.getAttribute().getAttributeDescriptionAsString();
            assertTrue(e.getMessage().contains("attribute " + name + " is maintained by the server"), e.getMessage());
        }
    }

    // ---------------------------------------------------------------------------------------------
    // Syntax
    // ---------------------------------------------------------------------------------------------

    @Test
    public void valuesViolatingTheSyntaxAreInvalidAttributeSyntax() {
        WriteException e = expectWriteException(ResultCode.INVALID_ATTRIBUTE_SYNTAX,
                () -> apply(posixAccount(), replace("uidNumber", "abc")));
        assertTrue(e.getMessage().startsWith("Entry " + DN + " cannot be modified: the value \"abc\" of attribute"
                + " uidNumber is not valid for its syntax (Integer)"), e.getMessage());
        expectWriteException(ResultCode.INVALID_ATTRIBUTE_SYNTAX,
                () -> apply(person(), add("seeAlso", "not a DN")));
        expectWriteException(ResultCode.INVALID_ATTRIBUTE_SYNTAX,
                () -> apply(person(), add("mail", "j\u00fcrgen@example.com")));
        expectWriteException(ResultCode.INVALID_ATTRIBUTE_SYNTAX,
                () -> apply(person(), add("cn", "")));
    }

    @Test
    public void memberMustBeADn() {
        Entry group = entry(
                "dn: cn=staff,ou=Groups,dc=example,dc=com",
                "objectClass: top",
                "objectClass: groupOfNames",
                "cn: staff",
                "member: " + DN);
        expectWriteException(ResultCode.INVALID_ATTRIBUTE_SYNTAX,
                () -> apply(group, add("member", "this is not a DN")));
    }

    // ---------------------------------------------------------------------------------------------
    // RDN
    // ---------------------------------------------------------------------------------------------

    @Test
    public void removingTheRdnValueIsNotAllowedOnRdn() {
        WriteException e = expectWriteException(ResultCode.NOT_ALLOWED_ON_RDN,
                () -> apply(person(), delete("uid", "JDOE")));
        assertEquals(e.getMessage(), "Entry " + DN + " cannot be modified: the value \"jdoe\" of attribute uid is part"
                + " of the entry's RDN and cannot be removed (rename the entry with a modify DN request instead)");
        expectWriteException(ResultCode.NOT_ALLOWED_ON_RDN, () -> apply(person(), delete("uid")));
        expectWriteException(ResultCode.NOT_ALLOWED_ON_RDN, () -> apply(person(), replace("uid", "john")));
        expectWriteException(ResultCode.NOT_ALLOWED_ON_RDN, () -> apply(person(), replace("uid")));
    }

    @Test
    public void otherValuesOfTheRdnAttributeMayChange() throws Exception {
        Entry result = apply(person(), add("uid", "john"));
        assertEquals(values(result, "uid"), Set.of("jdoe", "john"));
        result = apply(result, delete("uid", "john"));
        assertEquals(values(result, "uid"), Set.of("jdoe"));
        // Judged on the final entry: the RDN value may be removed and put back within one request.
        result = apply(person(), replace("uid", "JDoe", "john"));
        assertEquals(values(result, "uid"), Set.of("JDoe", "john"));
        result = apply(person(), delete("uid"), add("uid", "jdoe"));
        assertEquals(values(result, "uid"), Set.of("jdoe"));
    }

    @Test
    public void everyValueOfAMultiValuedRdnIsKept() {
        Entry current = entry(
                "dn: cn=John Doe+uid=jdoe,ou=People,dc=example,dc=com",
                "objectClass: inetOrgPerson",
                "uid: jdoe",
                "cn: John Doe",
                "sn: Doe");
        expectWriteException(ResultCode.NOT_ALLOWED_ON_RDN, () -> apply(current, replace("cn", "Johnny")));
        expectWriteException(ResultCode.NOT_ALLOWED_ON_RDN, () -> apply(current, delete("uid")));
    }

    @Test
    public void incrementingTheRdnValueIsNotAllowedOnRdn() {
        Entry current = entry(
                "dn: uidNumber=1000,ou=People,dc=example,dc=com",
                "objectClass: inetOrgPerson",
                "objectClass: posixAccount",
                "uid: jdoe",
                "cn: John Doe",
                "sn: Doe",
                "uidNumber: 1000",
                "gidNumber: 100",
                "homeDirectory: /home/jdoe");
        expectWriteException(ResultCode.NOT_ALLOWED_ON_RDN, () -> apply(current, increment("uidNumber", "1")));
    }

    // ---------------------------------------------------------------------------------------------
    // All or nothing; the current entry is never changed
    // ---------------------------------------------------------------------------------------------

    @Test
    public void aFailingLaterChangeLeavesTheCurrentEntryUnchanged() {
        Entry current = person();
        Entry snapshot = person();
        expectWriteException(ResultCode.NO_SUCH_ATTRIBUTE, () -> apply(current,
                add("mail", "third@example.com"),
                replace("description", "changed"),
                delete("sn"),
                delete("telephoneNumber", "+1 555 0100")));
        assertEquals(current, snapshot);
        assertEquals(values(current, "mail"), Set.of("user@example.com", "john@example.com"));
        assertEquals(values(current, "sn"), Set.of("Doe"));
    }

    @Test
    public void aSuccessfulModifyReturnsANewEntryAndLeavesTheCurrentOneUnchanged() throws Exception {
        Entry current = person();
        Entry snapshot = person();
        Entry result = apply(current, add("mail", "third@example.com"), delete("description", "first"),
                replace("sn", "Smith"));
        assertNotSame(result, current);
        assertEquals(current, snapshot);
        assertEquals(values(result, "mail").size(), 3);
        assertNull(values(result, "description"));
        assertEquals(values(result, "sn"), Set.of("Smith"));
        assertEquals(result.getName(), current.getName());
    }

    @Test
    public void changesApplyInOrder() throws Exception {
        Entry result = apply(person(), replace("title", "a"), add("title", "b"), delete("title", "a"));
        assertEquals(values(result, "title"), Set.of("b"));
        expectWriteException(ResultCode.NO_SUCH_ATTRIBUTE,
                () -> apply(person(), delete("title", "a"), add("title", "a")));
    }

    @Test
    public void noChangesGiveAnEqualCopy() throws Exception {
        Entry current = person();
        Entry result = Modifications.apply(current, List.of(), schema());
        assertEquals(result, current);
        assertNotSame(result, current);
    }

    // ---------------------------------------------------------------------------------------------
    // Passwords never appear in messages
    // ---------------------------------------------------------------------------------------------

    @Test
    public void passwordValuesAreNeverEchoed() {
        WriteException e = expectWriteException(ResultCode.ATTRIBUTE_OR_VALUE_EXISTS,
                () -> apply(person(), add("userPassword", "secret-old-password")));
        assertFalse(e.getMessage().contains("secret"), e.getMessage());
        assertTrue(e.getMessage().contains("a userPassword value"), e.getMessage());

        e = expectWriteException(ResultCode.NO_SUCH_ATTRIBUTE,
                () -> apply(person(), delete("userPassword", "secret-wrong-guess")));
        assertFalse(e.getMessage().contains("secret"), e.getMessage());
        assertTrue(e.getMessage().contains("a userPassword value"), e.getMessage());

        e = expectWriteException(ResultCode.CONSTRAINT_VIOLATION,
                () -> apply(person(), increment("userPassword", "secret-increment")));
        assertFalse(e.getMessage().contains("secret"), e.getMessage());
    }
}
