package io.bindfirst.server.filter;

import static org.testng.Assert.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;

import org.forgerock.opendj.ldap.ConditionResult;
import org.forgerock.opendj.ldap.Entry;
import org.forgerock.opendj.ldap.Filter;
import org.forgerock.opendj.ldap.LinkedHashMapEntry;
import org.forgerock.opendj.ldap.schema.Schema;
import org.testng.annotations.BeforeClass;
import org.testng.annotations.DataProvider;
import org.testng.annotations.Test;

import io.bindfirst.server.schema.SchemaLoader;

/** RFC 4511 4.5.1.7 filter evaluation, on the points where the SDK's own matcher differed from slapd. */
public class FilterMatcherTest {
    private Schema schema;
    private Entry entry;

    @BeforeClass
    public void loadSchema() throws Exception {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            Path candidate = dir.resolve("config").resolve("schema");
            if (Files.isRegularFile(candidate.resolve("90-bindfirst.ldif"))) {
                schema = SchemaLoader.load(candidate);
                break;
            }
        }
        entry = new LinkedHashMapEntry("uid=u1,ou=Team 0,ou=Région Sud,dc=example,dc=com")
                .addAttribute("objectClass", "top", "person", "inetOrgPerson", "posixAccount", "extensibleObject")
                .addAttribute("uid", "u1")
                .addAttribute("cn", "Alice Ångström")
                .addAttribute("sn", "Straße")
                .addAttribute("l", "São Paulo")
                .addAttribute("employeeNumber", "42")
                .addAttribute("serialNumber", "SN-1")
                .addAttribute("uidNumber", "1050")
                .addAttribute("homeDirectory", "/home/u1")
                .addAttribute("startTime", "20230101000000Z");
    }

    @DataProvider
    public Object[][] cases() {
        return new Object[][] {
            // a filter on a supertype matches its subtypes (RFC 4511 4.5.1.7.1-5)
            {"(name=são paulo)", ConditionResult.TRUE},
            {"(name=*)", ConditionResult.TRUE},
            {"(name=ali*)", ConditionResult.TRUE},
            // :dn: tests the DN's components too
            {"(ou:dn:=team 0)", ConditionResult.TRUE},
            {"(ou:dn:=région sud)", ConditionResult.TRUE},
            {"(dc:dn:=COM)", ConditionResult.TRUE},
            {"(:dn:caseIgnoreIA5Match:=EXAMPLE)", ConditionResult.TRUE},
            {"(mail:caseIgnoreMatch:=x)", ConditionResult.UNDEFINED},
            {"(:dn:caseExactMatch:=Team 0)", ConditionResult.TRUE},
            {"(:dn:caseExactMatch:=team 0)", ConditionResult.FALSE},
            {"(ou:=team 0)", ConditionResult.FALSE},
            // no ORDERING or SUBSTR rule declared: Undefined, also under NOT
            {"(employeeNumber>=1)", ConditionResult.UNDEFINED},
            {"(!(employeeNumber<=1))", ConditionResult.UNDEFINED},
            {"(homeDirectory=/home/*)", ConditionResult.UNDEFINED},
            {"(uidNumber>=1000)", ConditionResult.TRUE},
            {"(uidNumber<=999)", ConditionResult.FALSE},
            // no EQUALITY rule declared (the SDK would lend the syntax's): Undefined, also under NOT
            {"(jpegPhoto=x)", ConditionResult.UNDEFINED},
            {"(!(jpegPhoto=x))", ConditionResult.UNDEFINED},
            {"(!(uid=u2))", ConditionResult.TRUE},
            // no APPROX rule: the approximate filter is an equality filter
            {"(sn~=strasse)", ConditionResult.TRUE},
            {"(sn~=strase)", ConditionResult.FALSE},
            // an ordering rule in an extensible match: the value sorts before the assertion
            {"(serialNumber:caseIgnoreOrderingMatch:=SN-2)", ConditionResult.TRUE},
            {"(serialNumber:caseIgnoreOrderingMatch:=SN-0)", ConditionResult.FALSE},
            // substrings on composed text, with RFC 4518 spaces
            {"(cn=*a*a*)", ConditionResult.FALSE},
            {"(cn=*ångström)", ConditionResult.TRUE},
            {"(serialNumber= S*)", ConditionResult.TRUE},
            {"(serialNumber=* )", ConditionResult.TRUE},
            {"(l=* *P*lo)", ConditionResult.TRUE},
            {"(l=*o p*)", ConditionResult.TRUE},
            {"(l=*op*)", ConditionResult.FALSE},
            {"(l= São  Paulo )", ConditionResult.TRUE},
            {"(l=São    Paulo)", ConditionResult.TRUE},
            {"(l=SãoPaulo)", ConditionResult.FALSE},
            // ordering compares composed text in code point order: å (U+00E5) sorts after b, before ö
            {"(cn:caseIgnoreOrderingMatch:=Alice B)", ConditionResult.FALSE},
            {"(cn:caseIgnoreOrderingMatch:=Alice Ö)", ConditionResult.TRUE},
            // generalized time: upper-case Z only
            {"(startTime>=20220101000000Z)", ConditionResult.TRUE},
            {"(startTime>=20220101000000z)", ConditionResult.UNDEFINED},
            // three values
            {"(&)", ConditionResult.TRUE},
            {"(|)", ConditionResult.FALSE},
            {"(noSuchAttribute=x)", ConditionResult.UNDEFINED},
            {"(|(noSuchAttribute=x)(uid=u1))", ConditionResult.TRUE},
            {"(&(noSuchAttribute=x)(uid=u2))", ConditionResult.FALSE},
        };
    }

    @Test(dataProvider = "cases")
    public void evaluates(String filter, ConditionResult expected) {
        assertEquals(new FilterMatcher(Filter.valueOf(filter), schema).matches(entry), expected, filter);
    }
}
