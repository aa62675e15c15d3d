package io.bindfirst.server.pwd;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertFalse;
import static org.testng.Assert.assertSame;
import static org.testng.Assert.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import org.forgerock.opendj.ldap.AttributeDescription;
import org.forgerock.opendj.ldap.ByteString;
import org.forgerock.opendj.ldap.Entry;
import org.forgerock.opendj.ldap.Filter;
import org.forgerock.opendj.ldap.LinkedAttribute;
import org.forgerock.opendj.ldap.LinkedHashMapEntry;
import org.forgerock.opendj.ldap.schema.Schema;
import org.forgerock.opendj.ldap.schema.SchemaBuilder;
import org.testng.annotations.DataProvider;
import org.testng.annotations.Test;

public class PasswordAttributeTest {
    /** The core schema, with a second name for userPassword, as a site's schema might give it. */
    private static final Schema SCHEMA = new SchemaBuilder(Schema.getCoreSchema())
            .addAttributeType("( 2.5.4.35 NAME ( 'userPassword' 'secretWord' ) EQUALITY octetStringMatch"
                    + " SYNTAX 1.3.6.1.4.1.1466.115.121.1.40 )", true)
            .toSchema();
    private static final PasswordSchemes SCHEMES = new PasswordSchemes("SSHA", false);
    private static final PasswordAttribute PASSWORDS = new PasswordAttribute(SCHEMA, SCHEMES);
    private static final ByteString RIGHT = ByteString.valueOfUtf8("right password");
    private static final ByteString WRONG = ByteString.valueOfUtf8("wrong password");

    private static AttributeDescription described(String description, Schema schema) {
        return AttributeDescription.valueOf(description, schema);
    }

    private static ByteString pbkdf2(int iterations, ByteString clear) {
        return ByteString.valueOfUtf8(
                "{PBKDF2-HMAC-SHA256}" + new Pbkdf2HmacSha256Scheme(iterations).encodeValue(clear));
    }

    private static Entry entryWith(String attribute, List<ByteString> values) {
        Entry e = new LinkedHashMapEntry("uid=u,dc=example,dc=com");
        if (!values.isEmpty()) {
            e.addAttribute(new LinkedAttribute(described(attribute, SCHEMA), values));
        }
        return e;
    }

    @Test
    public void recognizesTheTypeByEveryNameItsOidAndWithOptions() {
        for (String d : new String[] {"userPassword", "USERPASSWORD", "secretWord", "2.5.4.35", "userPassword;x-opt"}) {
            assertTrue(PASSWORDS.isPassword(described(d, SCHEMA)), d);
        }
        // The same type from another schema object (the SDK's core schema, which knows only the first name).
        assertTrue(PASSWORDS.isPassword(Schema.getCoreSchema().getAttributeType("userPassword")));
        // A placeholder (a name the decoding schema did not know) counts only if it is one of the type's names.
        AttributeDescription placeholder = described("secretWord", Schema.getCoreSchema().asNonStrictSchema());
        assertTrue(placeholder.getAttributeType().isPlaceHolder());
        assertTrue(PASSWORDS.isPassword(placeholder));
        assertFalse(PASSWORDS.isPassword(described("notAPassword", Schema.getCoreSchema().asNonStrictSchema())));
        assertFalse(PASSWORDS.isPassword(described("description", SCHEMA)));
        assertFalse(PASSWORDS.isPassword(described("cn", SCHEMA)));
    }

    @Test
    public void descriptionIsTheServerSchemasTypeWithoutOptions() {
        assertSame(PASSWORDS.type(), SCHEMA.getAttributeType("secretWord"));
        assertEquals(PASSWORDS.description(), described("userPassword", SCHEMA));
        assertFalse(PASSWORDS.description().hasOptions());
        assertEquals(PasswordAttribute.description(Schema.getCoreSchema()).getAttributeType().getOID(),
                PasswordAttribute.OID);
    }

    @Test
    public void readsStoredValuesWhicheverNameTheEntryUsed() {
        ByteString stored = SCHEMES.encode(RIGHT);
        assertEquals(new ArrayList<>(PASSWORDS.storedValues(entryWith("secretWord", List.of(stored)))),
                List.of(stored));
        assertEquals(new ArrayList<>(PASSWORDS.storedValues(entryWith("2.5.4.35", List.of(stored)))),
                List.of(stored));
        assertTrue(PASSWORDS.storedValues(entryWith("userPassword", List.of())).isEmpty());
        assertTrue(PASSWORDS.storedValues(entryWith("description", List.of(stored))).isEmpty());
    }

    @DataProvider
    public Object[][] storedValueOrders() {
        ByteString right = SCHEMES.encode(RIGHT);
        ByteString other = SCHEMES.encode(WRONG);
        ByteString malformed = ByteString.valueOfUtf8("{SSHA}not base64!");
        ByteString unknownScheme = ByteString.valueOfUtf8("{CRYPT}abcdefgh");
        ByteString clearText = RIGHT; // not allowed by these schemes: matches nothing
        return new Object[][] {
            {"matching value first", List.of(right, other, malformed), true},
            {"matching value last", List.of(other, malformed, right), true},
            {"malformed values before the match", List.of(malformed, unknownScheme, right), true},
            {"no matching value", List.of(other, malformed, unknownScheme), false},
            {"clear text not allowed", List.of(clearText), false},
            {"no value at all", List.of(), false},
        };
    }

    @Test(dataProvider = "storedValueOrders")
    public void anyMatchesFindsTheMatchingValueWherever(String what, List<ByteString> stored, boolean expected) {
        assertEquals(PASSWORDS.anyMatches(stored, RIGHT, Pacer.NONE), expected, what);
        assertEquals(PASSWORDS.anyMatches(entryWith("userPassword", stored), RIGHT, Pacer.NONE), expected, what);
    }

    /**
     * The timing policy: every stored value is checked even after one matched. PBKDF2 values call the pacer
     * as they go, so the number of calls shows how many values were checked.
     */
    @Test
    public void anyMatchesChecksEveryStoredValueEvenAfterAMatch() {
        ByteString right = pbkdf2(4096, RIGHT);
        ByteString other = pbkdf2(4096, WRONG);
        AtomicInteger oneValue = new AtomicInteger();
        assertTrue(PASSWORDS.anyMatches(List.of(right), RIGHT, oneValue::incrementAndGet));
        assertTrue(oneValue.get() > 0);

        for (List<ByteString> stored : List.of(List.of(right, other, other), List.of(other, other, right),
                List.of(other, other, other))) {
            AtomicInteger paces = new AtomicInteger();
            PASSWORDS.anyMatches(stored, RIGHT, paces::incrementAndGet);
            assertEquals(paces.get(), 3 * oneValue.get(), "values checked in " + stored);
        }
    }

    @Test
    public void storedMatchingNamesEveryMatchingValueAndEqualBytes() {
        ByteString hashed = SCHEMES.encode(RIGHT);
        ByteString again = SCHEMES.encode(RIGHT); // another salt, the same password
        ByteString other = SCHEMES.encode(WRONG);
        assertEquals(PASSWORDS.storedMatching(List.of(hashed, other, again), RIGHT), List.of(hashed, again));
        // A value stored in clear (from before clear text was refused) is deleted by naming it.
        assertEquals(PASSWORDS.storedMatching(List.of(other, RIGHT), RIGHT), List.of(RIGHT));
        assertTrue(PASSWORDS.storedMatching(List.of(other), RIGHT).isEmpty());
    }

    @Test
    public void highestWorkFactorIsTheCostliestStoredValue() {
        Entry mixed = entryWith("userPassword", List.of(SCHEMES.encode(RIGHT), pbkdf2(5000, RIGHT),
                ByteString.valueOfUtf8("{SSHA}not base64!"), pbkdf2(2000, WRONG)));
        assertEquals(PASSWORDS.highestWorkFactor(mixed), 5000);
        assertEquals(PASSWORDS.highestWorkFactor(entryWith("userPassword", List.of(SCHEMES.encode(RIGHT)))),
                SCHEMES.workFactor(SCHEMES.encode(RIGHT)));
        assertEquals(PASSWORDS.highestWorkFactor(entryWith("userPassword", List.of())), 0);
    }

    @DataProvider
    public Object[][] filters() {
        return new Object[][] {
            {"(userPassword=x)", true},
            {"(secretWord=x)", true},
            {"(USERPASSWORD;x-opt=x)", true},
            {"(cn=x)", false},
            {"(description=userPassword)", false},
            {"(noSuchType=x)", false},
            {"(&(cn=a)(|(sn=b)(!(userPassword=x))))", true},
            {"(&(cn=a)(|(sn=b)(!(description=x))))", false},
            {"(|(cn=a)(&(sn=b)(secretWord=*)))", true},
            {"(!(!(secretWord>=a)))", true},
            {"(userPassword=*)", true},
            {"(userPassword=ab*cd*)", true},
            {"(userPassword>=a)", true},
            {"(userPassword<=a)", true},
            {"(userPassword~=a)", true},
            {"(userPassword:octetStringMatch:=x)", true},
            {"(secretWord:=x)", true},
            {"(cn:caseExactMatch:=x)", false},
            {"(cn:dn:caseExactMatch:=x)", false},
            {"(:caseExactMatch:=x)", true},
            {"(:dn:caseExactMatch:=x)", true},
            {"(&)", false},
            {"(|)", false},
        };
    }

    @Test(dataProvider = "filters")
    public void mentionedInFindsThePasswordAnywhereInAFilter(String filter, boolean expected) {
        assertEquals(PASSWORDS.mentionedIn(Filter.valueOf(filter)), expected, filter);
    }

    /** SDK 5.0.3's filter parser refuses an OID as the attribute, but the wire carries it: build them. */
    @DataProvider
    public Object[][] loggedFilters() {
        return new Object[][] {
            {"(uid=a)", "(uid=a)"},
            {"(userPassword=guess)", "(userPassword=-masked-)"},
            {"(&(uid=a)(|(userPassword=guess)(!(userpassword>=guess))))",
                "(&(uid=a)(|(userPassword=-masked-)(!(userpassword>=-masked-))))"},
            {"(userPassword=gu*es*s)", "(userPassword=-masked-*)"},
            {"(userPassword=*)", "(userPassword=*)"},
            {"(:2.5.13.17:=guess)", "(:2.5.13.17:=-masked-)"},
            {"(cn:2.5.13.2:=a)", "(cn:2.5.13.2:=a)"},
        };
    }

    @Test(dataProvider = "loggedFilters")
    public void aLoggedFilterShowsNoValueAssertedAgainstThePassword(String filter, String logged) {
        String shown = PASSWORDS.maskedForLogs(Filter.valueOf(filter)).toString();
        assertEquals(shown, logged);
        assertFalse(shown.contains("guess") || shown.contains("gu") && filter.contains("userPassword=gu"), shown);
    }

    @Test
    public void mentionedInRecognizesTheOid() {
        assertTrue(PASSWORDS.mentionedIn(Filter.equality("2.5.4.35", "x")));
        assertTrue(PASSWORDS.mentionedIn(Filter.or(Filter.equality("cn", "a"),
                Filter.not(Filter.substrings("2.5.4.35;x-opt", "a", List.of(), null)))));
        assertTrue(PASSWORDS.mentionedIn(Filter.extensible("2.5.13.17", "2.5.4.35", "x", false)));
        assertFalse(PASSWORDS.mentionedIn(Filter.present("2.5.4.3")));
    }

    @Test
    public void mentionedInAnswersYesWhenInDoubt() {
        assertTrue(PASSWORDS.mentionedIn(Filter.equality("not a description!", "x")));
        assertTrue(PASSWORDS.mentionedIn(Filter.and(Filter.equality("cn", "a"), Filter.present(";;"))));
        assertTrue(PASSWORDS.mentionedIn(Filter.unrecognized((byte) 0x99, ByteString.empty())));
    }
}
