package io.bindfirst.server.pwd;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertFalse;
import static org.testng.Assert.assertThrows;
import static org.testng.Assert.assertTrue;

import java.util.Base64;

import org.forgerock.opendj.ldap.ByteString;
import org.testng.annotations.Test;

public class Pbkdf2HmacSha512SchemeTest {

    private static final Pbkdf2HmacSha512Scheme SCHEME = new Pbkdf2HmacSha512Scheme();

    /**
     * OpenDJ's layout with its 8-byte salt 01..08, computed with Python:
     * {@code "10000:" + base64.b64encode(hashlib.pbkdf2_hmac('sha512', b'secret', salt, 10000) + salt).decode()}.
     */
    private static final String SECRET = "10000:8bODnmnZDqFCkiqgL1SPaaW722wR9O3NE2KFTJoSZWbP7LmsLAk5m1UT465VKWtOs+UNZ"
            + "/y8kpK5/32xNxaiewECAwQFBgcI";
    private static final String KEY_B64 = SECRET.substring("10000:".length());

    private static ByteString utf8(String s) {
        return ByteString.valueOfUtf8(s);
    }

    @Test
    public void theKnownAnswerMatchesTheRightPasswordOnly() {
        assertTrue(SCHEME.matches(utf8("secret"), SECRET));
        assertFalse(SCHEME.matches(utf8("secreT"), SECRET));
        assertFalse(SCHEME.matches(utf8("secret "), SECRET));
        int[] paces = {0};
        assertTrue(SCHEME.matches(utf8("secret"), SECRET, () -> paces[0]++));
        assertEquals(paces[0], 9999 / 1024);
    }

    @Test
    public void encodingWithAGivenSaltReproducesTheKnownAnswer() {
        assertEquals(SCHEME.encodeValue(utf8("secret"), new byte[] {1, 2, 3, 4, 5, 6, 7, 8}, 10000), SECRET);
    }

    @Test
    public void roundTripWithOpenDjsDefaultCount() {
        String value = SCHEME.encodeValue(utf8("correct horse"));
        assertTrue(value.startsWith("10000:"), value);
        assertEquals(Base64.getDecoder().decode(value.substring(6)).length, 64 + 16);
        assertTrue(SCHEME.matches(utf8("correct horse"), value));
        assertFalse(SCHEME.matches(utf8("correct hors"), value));
    }

    @Test
    public void theWorkFactorIsThreeTimesTheCount() {
        assertEquals(SCHEME.workFactor(SECRET), 30_000);
        assertEquals(SCHEME.workFactor("3333334:" + KEY_B64), 1, "beyond the cap");
        assertEquals(SCHEME.workFactor("x:" + KEY_B64), 1);
    }

    @Test
    public void malformedValuesDoNotMatchNorThrow() {
        String[] malformed = {
            "", ":", "10000", KEY_B64, ":" + KEY_B64, "10000:",
            "0:" + KEY_B64,
            "3333334:" + KEY_B64,                                      // beyond the work cap
            "99999999999999999999999:" + KEY_B64,
            "10000:" + KEY_B64.substring(1),                           // broken base64
            "10000:" + Base64.getEncoder().encodeToString(new byte[64]), // key only, no salt
            "10000:" + Base64.getEncoder().encodeToString(new byte[40]), // shorter than the key
            "10000:" + Base64.getEncoder().encodeToString(new byte[64 + 2000]), // absurd salt
        };
        for (String value : malformed) {
            assertFalse(SCHEME.matches(utf8("secret"), value), value);
        }
        assertFalse(SCHEME.matches(null, SECRET));
        assertFalse(SCHEME.matches(utf8("secret"), null));
        assertFalse(SCHEME.matches(ByteString.wrap(new byte[] {(byte) 0xff}), SECRET));
    }

    @Test
    public void refusesToEncodeWhatItCannotMatch() {
        assertThrows(IllegalArgumentException.class, () -> SCHEME.encodeValue(ByteString.wrap(new byte[] {-1})));
        assertThrows(IllegalArgumentException.class, () -> SCHEME.encodeValue(ByteString.empty()));
        assertThrows(IllegalArgumentException.class, () -> SCHEME.encodeValue(utf8("x"), new byte[0], 1000));
        assertEquals(SCHEME.name(), "PBKDF2-HMAC-SHA512");
    }
}
