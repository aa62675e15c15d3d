package io.bindfirst.server.log;

import static org.testng.Assert.assertEquals;

import org.testng.annotations.Test;

public class AccessRecordTest {

    @Test
    public void textWithNothingToEscapeIsQuotedAsItIs() {
        assertEquals(AccessRecord.quoted("dn", "uid=user.1,ou=People,dc=example,dc=com"),
                "dn=\"uid=user.1,ou=People,dc=example,dc=com\"");
        assertEquals(AccessRecord.quoted("dn", ""), "dn=\"\"");
    }

    @Test
    public void quotesBackslashesAndControlCharactersAreEscapedWhereverTheyStand() {
        assertEquals(AccessRecord.quoted("f", "\"a\\b\""), "f=\"\\\"a\\\\b\\\"\"");
        assertEquals(AccessRecord.quoted("f", "\nx\u007fy\u0001"), "f=\"\\0ax\\7fy\\01\"");
        assertEquals(AccessRecord.quoted("f", "é\t"), "f=\"é\\09\"");
    }
}
