package io.bindfirst.server.filter;

import static org.testng.Assert.assertFalse;
import static org.testng.Assert.assertTrue;

import org.forgerock.opendj.ldap.Filter;
import org.testng.annotations.Test;

public class FilterDepthTest {

    private static Filter nested(int depth) {
        Filter f = Filter.present("cn");
        for (int i = 1; i < depth; i++) {
            f = i % 2 == 0 ? Filter.not(f) : Filter.and(Filter.present("sn"), f);
        }
        return f;
    }

    @Test
    public void upToTheLimitIsFineOneMoreIsNot() {
        assertFalse(FilterDepth.tooDeep(Filter.valueOf("(&(uid=a)(|(cn=b)(!(sn=c))))")));
        assertFalse(FilterDepth.tooDeep(nested(FilterDepth.MAX)));
        assertTrue(FilterDepth.tooDeep(nested(FilterDepth.MAX + 1)));
    }

    /** The check itself must not recurse: a filter as deep as a request can carry is measured without overflow. */
    @Test
    public void aFilterHundredsOfThousandsDeepIsMeasuredWithoutRecursion() {
        assertTrue(FilterDepth.tooDeep(nested(500_000)));
    }
}
