package io.bindfirst.server.schema;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertFalse;
import static org.testng.Assert.assertTrue;

import java.util.ArrayList;
import java.util.List;

import org.forgerock.opendj.ldap.ByteString;
import org.forgerock.opendj.ldap.Filter;
import org.testng.annotations.Test;

public class FilterAttributeNamesTest {

    /** Every description the walk hands over, in order, with null for "any attribute". */
    private static List<String> seen(String filter) {
        return seen(Filter.valueOf(filter));
    }

    private static List<String> seen(Filter filter) {
        List<String> seen = new ArrayList<>();
        assertFalse(FilterAttributeNames.anyMatch(filter, d -> {
            seen.add(d);
            return false;
        }));
        return seen;
    }

    @Test
    public void everyKindOfComponentHandsItsDescriptionAsWritten() {
        assertEquals(seen("(&(cn=a)(|(sn~=b)(!(mail>=c)))(uid<=d)(description=*)(o=x*y*z)(l:caseExactMatch:=e))"),
                List.of("cn", "sn", "mail", "uid", "description", "o", "l"));
        assertEquals(seen("(userPassword;x-opt=secret)"), List.of("userPassword;x-opt"));
        assertEquals(seen(Filter.equality("2.5.4.35", "secret")), List.of("2.5.4.35"));
    }

    @Test
    public void componentsThatMayTestAnyAttributeHandNull() {
        List<String> extensible = seen("(:caseExactMatch:=x)");
        assertEquals(extensible.size(), 1);
        assertEquals(extensible.get(0), null);
        List<String> unknown = seen(Filter.and(Filter.equality("cn", "a"),
                Filter.unrecognized((byte) 0x99, ByteString.valueOfUtf8("??"))));
        assertEquals(unknown.size(), 2);
        assertEquals(unknown.get(1), null);
    }

    @Test
    public void theWalkStopsAtTheFirstMatch() {
        List<String> seen = new ArrayList<>();
        assertTrue(FilterAttributeNames.anyMatch(Filter.valueOf("(|(cn=a)(sn=b)(mail=c))"), d -> {
            seen.add(d);
            return d.equals("sn");
        }));
        assertEquals(seen, List.of("cn", "sn"));
    }
}
