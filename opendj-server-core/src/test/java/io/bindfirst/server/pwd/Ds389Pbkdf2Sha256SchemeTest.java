package io.bindfirst.server.pwd;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertFalse;
import static org.testng.Assert.assertThrows;
import static org.testng.Assert.assertTrue;

import java.util.Base64;

import org.forgerock.opendj.ldap.ByteString;
import org.testng.annotations.Test;

public class Ds389Pbkdf2Sha256SchemeTest {

    private static final Ds389Pbkdf2Sha256Scheme SCHEME = new Ds389Pbkdf2Sha256Scheme();

    /**
     * Published: a value written by 389 Directory Server (10,000 iterations), password "Password123", from the
     * README of the public 389-ds password checker github.com/thesubtlety/389-ds-password-check; checked here
     * with Python's hashlib.pbkdf2_hmac before being committed.
     */
    private static final String PUBLISHED = "AAAnEGTxXtnR/oox922/jZyjH6fmiIdW4AwIYZE2LfCVL/SUz5GbAHfjRj4NbN2u8ul0/j/"
            + "dUzJ4gQSawGALGHZV74nOAtPttoZDTsh7BeGCLD/Ps7vRugwDdz9uPARXzF3bD/8qCpumvRGb4pehzfQsk+FnGgTwi0rUeVaN8a7Kb"
            + "v8ZpRfU2sd+208F/YL42BWAh/2tv0I4vY7ZsrCZcrUJtgKWy5Nr+t78zmPkrZsX/kgfnGdXhr50kN10cmkLQ0/cZOXo9CAkpeZyFu+"
            + "wQ5vQdUaES2Vd5kBjJYPCkr4b2ocr4ETQi3IGO2GGCoCetmMIETsudRVSxUNBbva+Vgxin5Apu4wIP/0ZyuGK6TuWLqLnNpmK3RkRx"
            + "0xjqJ4nN2Ok0ul0XYBJcYIBt4UoaVM2uSa/Etw28Uy+zAsUv2AOiRo5";

    /**
     * Computed with Python, salt bytes(range(64)), 2048 iterations (389's minimum):
     * {@code base64.b64encode((2048).to_bytes(4, 'big') + salt
     *        + hashlib.pbkdf2_hmac('sha256', b'secret', salt, 2048, 256)).decode()}.
     */
    private static final String SECRET = "AAAIAAABAgMEBQYHCAkKCwwNDg8QERITFBUWFxgZGhscHR4fICEiIyQlJicoKSorLC0uLzAx"
            + "MjM0NTY3ODk6Ozw9Pj+B9XeOejtyt4BTjI46i3LtcyOiILFyqJgSilUxXiMS6q73bHB/+ZX8IITSt36w6FEBAtkpXO02/zpH0rHl4YS"
            + "deZ5hjbd9nDYq0Avw9pABNQVUEj7GBo+Dt2J6hvxICY6SNDtgyGQljMTA64Cc4E6rd/w3uDixLyqzBEc+Ba4lSmEBR6oQsFCJ2fpEquM"
            + "Vx7EG7YG7PZesWyzC+/itvph53qwWtea21d4DWq+gi+HjlMNggdZ5ycW4VWdnfqvWWsKPbrvrvlPNIIWUdoQUFTVIdMJhjnTZ5AeiM9i"
            + "XBM3G4qbPigqPZyw922t+6ygi+ignwkbT2jWrtAx+Q87w/wL8";

    private static ByteString utf8(String s) {
        return ByteString.valueOfUtf8(s);
    }

    private static byte[] salt() {
        byte[] salt = new byte[64];
        for (int i = 0; i < salt.length; i++) {
            salt[i] = (byte) i;
        }
        return salt;
    }

    @Test
    public void knownAnswersMatchTheRightPasswordOnly() {
        assertTrue(SCHEME.matches(utf8("Password123"), PUBLISHED));
        assertFalse(SCHEME.matches(utf8("password123"), PUBLISHED));
        assertTrue(SCHEME.matches(utf8("secret"), SECRET));
        assertFalse(SCHEME.matches(utf8("Secret"), SECRET));
    }

    @Test
    public void encodingWithAGivenSaltReproducesTheKnownAnswer() {
        assertEquals(SCHEME.encodeValue(utf8("secret"), salt(), 2048), SECRET);
    }

    @Test
    public void roundTripWith389sDefaultCount() {
        String value = SCHEME.encodeValue(utf8("correct horse"));
        byte[] decoded = Base64.getDecoder().decode(value);
        assertEquals(decoded.length, 324);
        assertEquals(decoded[2] & 0xff, 8192 >> 8);
        assertTrue(SCHEME.matches(utf8("correct horse"), value));
        assertFalse(SCHEME.matches(utf8("correct horse!"), value));
    }

    @Test
    public void eightBlocksOfKeyCostEightTimesTheCountAndArePaced() {
        assertEquals(SCHEME.workFactor(PUBLISHED), 80_000);
        assertEquals(SCHEME.workFactor(SECRET), 16_384);
        assertEquals(SCHEME.workFactor("garbage"), 1);
        int[] paces = {0};
        assertTrue(SCHEME.matches(utf8("secret"), SECRET, () -> paces[0]++));
        assertEquals(paces[0], 8 * 2047 / 1024);
    }

    @Test
    public void malformedValuesDoNotMatchNorThrow() {
        byte[] good = Base64.getDecoder().decode(SECRET);
        byte[] zero = good.clone();
        zero[0] = 0;
        zero[1] = 0;
        zero[2] = 0;
        zero[3] = 0;
        byte[] absurd = good.clone();
        absurd[0] = 0x7f; // about 2.1 billion iterations
        byte[] capped = good.clone(); // 1,250,001 iterations: eight blocks of them are beyond the work cap
        capped[0] = 0;
        capped[1] = 0x13;
        capped[2] = 0x12;
        capped[3] = (byte) 0xd1;
        String[] malformed = {
            "", "AAAA",
            SECRET.substring(1),                                      // broken base64
            SECRET.substring(0, SECRET.length() - 4),                 // three bytes short
            SECRET + "AAAA",                                          // three bytes long
            Base64.getEncoder().encodeToString(zero),
            Base64.getEncoder().encodeToString(absurd),
            Base64.getEncoder().encodeToString(capped),
            "{PBKDF2_SHA256}" + SECRET,
        };
        for (String value : malformed) {
            assertFalse(SCHEME.matches(utf8("secret"), value), value);
        }
        assertEquals(SCHEME.workFactor(Base64.getEncoder().encodeToString(absurd)), 1);
        assertEquals(SCHEME.workFactor(Base64.getEncoder().encodeToString(capped)), 1, "beyond the cap: no work");
        assertFalse(SCHEME.matches(null, SECRET));
        assertFalse(SCHEME.matches(utf8("secret"), null));
    }

    @Test
    public void refusesToEncodeWhatItCannotMatch() {
        assertThrows(IllegalArgumentException.class, () -> SCHEME.encodeValue(utf8("x"), new byte[16], 2048));
        assertThrows(IllegalArgumentException.class, () -> SCHEME.encodeValue(utf8("x"), salt(), 0));
        assertThrows(IllegalArgumentException.class, () -> SCHEME.encodeValue(ByteString.empty()));
        assertEquals(SCHEME.name(), "PBKDF2_SHA256");
    }
}
