package io.bindfirst.server.pwd;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertFalse;
import static org.testng.Assert.assertNotEquals;
import static org.testng.Assert.assertThrows;
import static org.testng.Assert.assertTrue;

import java.util.Base64;

import org.forgerock.opendj.ldap.ByteString;
import org.testng.annotations.DataProvider;
import org.testng.annotations.Test;

public class Pbkdf2HmacSha256SchemeTest {

    /**
     * The widely published PBKDF2-HMAC-SHA256 vector (password "password", salt "salt", 4096
     * iterations, key c5e478d5...aa98134a) in OpenDJ's layout {@code iterations:base64(key + salt)}.
     * The same literal is used by the PBKDF2-HMAC-SHA256 test of Wren Security's OpenDJ fork (wrends).
     */
    private static final String PUBLISHED = "4096:xeR41ZKIyEGqUw22hFxMjZYok6ABzk4RpJY4c6qYE0pzYWx0";

    /** The scheme instance never matters for matching: the stored count is used. */
    private static final Pbkdf2HmacSha256Scheme SCHEME = new Pbkdf2HmacSha256Scheme();

    /*
     * Computed with Python: "%d:%s" % (it, base64(hashlib.pbkdf2_hmac('sha256', pw, salt, it, 32) + salt))
     */
    @DataProvider
    public Object[][] knownAnswers() {
        return new Object[][] {
            {"password", PUBLISHED},
            // OpenDJ's default: 10,000 iterations, 8-byte salt 01..08
            {"secret", "10000:ZV7H6WCa0j14fv11Hy2tP7X1jl6O+c8c/CPLnFGnYVEBAgMEBQYHCA=="},
            // UTF-8 password, 16-byte salt 00..0f
            {"p\u00e4ssw\u00f6rd\u20ac", "1000:3TDQwd5s9p7Frasrat2dAxDilfhYX9mxPBEteXXyB/wAAQIDBAUGBwgJCgsMDQ4P"},
            // a character outside the BMP (a surrogate pair in Java), salt "emojisal"
            {"p\uD83D\uDE00ss", "1000:TUxaMX9aTGCFm0F98Jubc2F3UCml4+2WwRt6aWHrpQFlbW9qaXNhbA=="},
        };
    }

    private static ByteString utf8(String s) {
        return ByteString.valueOfUtf8(s);
    }

    @Test(dataProvider = "knownAnswers")
    public void knownAnswerMatches(String password, String encoded) {
        assertTrue(SCHEME.matches(utf8(password), encoded));
    }

    @Test(dataProvider = "knownAnswers")
    public void knownAnswerRefusesOtherPasswords(String password, String encoded) {
        assertFalse(SCHEME.matches(utf8(password + "x"), encoded));
        assertFalse(SCHEME.matches(utf8(password.substring(1)), encoded));
        assertFalse(SCHEME.matches(utf8(password.toUpperCase()), encoded));
    }

    @Test(dataProvider = "knownAnswers")
    public void thePacedDerivationGivesTheSameAnswersAndCallsThePacer(String password, String encoded) {
        int[] paces = {0};
        Pacer counting = () -> paces[0]++;
        assertTrue(SCHEME.matches(utf8(password), encoded, counting));
        assertFalse(SCHEME.matches(utf8(password + "x"), encoded, counting));
        int iterations = Integer.parseInt(encoded.substring(0, encoded.indexOf(':')));
        assertEquals(paces[0], 2 * ((iterations - 1) / 1024), "one pace per 1,024 iterations, per check");
    }

    @Test
    public void thePacedDerivationRefusesWhatTheJdkOneRefuses() {
        Pacer never = () -> { throw new AssertionError("no work, no pacing"); };
        assertFalse(SCHEME.matches(ByteString.wrap(new byte[] {(byte) 0xC3, 0x28}), PUBLISHED, never));
        assertFalse(SCHEME.matches(utf8(""), PUBLISHED, never));
        assertFalse(SCHEME.matches(utf8("password"), "0:xeR4", never));
    }

    @Test
    public void theWorkFactorIsTheStoredIterationCount() {
        assertEquals(SCHEME.workFactor(PUBLISHED), 4096);
        assertEquals(SCHEME.workFactor("10000000:abc"), 10_000_000);
        assertEquals(SCHEME.workFactor("garbage"), 1);
        assertEquals(SCHEME.workFactor("99999999999:abc"), 1, "above the maximum: matches nothing, costs nothing");
    }

    @Test
    public void encodingWithAGivenSaltReproducesTheKnownAnswers() {
        assertEquals(new Pbkdf2HmacSha256Scheme(4096).encodeValue(utf8("password"), "salt".getBytes()), PUBLISHED);
        byte[] salt = new byte[16];
        for (int i = 0; i < salt.length; i++) {
            salt[i] = (byte) i;
        }
        assertEquals(new Pbkdf2HmacSha256Scheme(1000).encodeValue(utf8("p\u00e4ssw\u00f6rd\u20ac"), salt),
                "1000:3TDQwd5s9p7Frasrat2dAxDilfhYX9mxPBEteXXyB/wAAQIDBAUGBwgJCgsMDQ4P");
    }

    @Test
    public void theStoredIterationCountIsWhatCounts() {
        // Same key and salt, but a different count: the key no longer matches.
        assertFalse(SCHEME.matches(utf8("password"), "4097:xeR41ZKIyEGqUw22hFxMjZYok6ABzk4RpJY4c6qYE0pzYWx0"));
        assertFalse(SCHEME.matches(utf8("password"), "4095:xeR41ZKIyEGqUw22hFxMjZYok6ABzk4RpJY4c6qYE0pzYWx0"));
        // Leading zeros are just digits.
        assertTrue(SCHEME.matches(utf8("password"), "04096:xeR41ZKIyEGqUw22hFxMjZYok6ABzk4RpJY4c6qYE0pzYWx0"));
    }

    @Test
    public void encodesWithTheDefaultCountAndASixteenByteSalt() {
        ByteString password = utf8("correct horse battery staple");
        String first = SCHEME.encodeValue(password);
        String second = SCHEME.encodeValue(password);
        assertTrue(first.startsWith("10000:"), first);
        assertEquals(Base64.getDecoder().decode(first.substring("10000:".length())).length,
                Pbkdf2HmacSha256Scheme.KEY_LENGTH + Pbkdf2HmacSha256Scheme.SALT_LENGTH);
        assertNotEquals(first, second, "each encoding has its own salt");
        assertTrue(SCHEME.matches(password, first));
        assertTrue(SCHEME.matches(password, second));
        assertFalse(SCHEME.matches(utf8("correct horse battery stapl"), first));
    }

    @Test
    public void encodesWithTheConfiguredCount() {
        Pbkdf2HmacSha256Scheme scheme = new Pbkdf2HmacSha256Scheme(1234);
        assertEquals(scheme.iterations(), 1234);
        String encoded = scheme.encodeValue(utf8("secret"));
        assertTrue(encoded.startsWith("1234:"), encoded);
        assertTrue(SCHEME.matches(utf8("secret"), encoded));
        assertEquals(SCHEME.iterations(), Pbkdf2HmacSha256Scheme.DEFAULT_ITERATIONS);
    }

    @Test
    public void constructorBoundsTheCount() {
        assertThrows(IllegalArgumentException.class, () -> new Pbkdf2HmacSha256Scheme(0));
        assertThrows(IllegalArgumentException.class, () -> new Pbkdf2HmacSha256Scheme(-1));
        assertThrows(IllegalArgumentException.class,
                () -> new Pbkdf2HmacSha256Scheme(Pbkdf2HmacSha256Scheme.MAX_ITERATIONS + 1));
        assertEquals(new Pbkdf2HmacSha256Scheme(Pbkdf2HmacSha256Scheme.MAX_ITERATIONS).iterations(),
                Pbkdf2HmacSha256Scheme.MAX_ITERATIONS);
        assertEquals(new Pbkdf2HmacSha256Scheme(1).iterations(), 1);
    }

    @Test
    public void malformedValuesDoNotMatch() {
        String b64 = "xeR41ZKIyEGqUw22hFxMjZYok6ABzk4RpJY4c6qYE0pzYWx0";
        String[] malformed = {
            "",
            ":",
            "4096",                         // no colon
            b64,                            // no count
            ":" + b64,                      // empty count
            "4096:",                        // nothing after the colon
            "0:" + b64,
            "00:" + b64,
            "-4096:" + b64,
            "+4096:" + b64,
            " 4096:" + b64,
            "4096 :" + b64,
            "4O96:" + b64,                  // letter O
            "abc:" + b64,
            "4096.0:" + b64,
            "\u0664\u0660\u0669\u0666:" + b64, // Arabic-Indic digits are not ASCII digits
            "0x1000:" + b64,
            "4096:" + b64 + ":",
            "4096:4096:" + b64,
            "4096:!!!!",
            "4096: " + b64,
            "4096:" + b64.substring(0, b64.length() - 1),                // broken base64
            "4096:xeR41ZKIyEGqUw22hFxMjZYok6ABzk4RpJY4c6qYE0o=",          // key only, no salt
            "4096:" + Base64.getEncoder().encodeToString(new byte[20]), // shorter than the key
            "2147483648:" + b64,                                       // overflows int
            "99999999999999999999999999:" + b64,                       // overflows long
        };
        for (String value : malformed) {
            assertFalse(SCHEME.matches(utf8("password"), value), "'" + value + "'");
        }
    }

    /**
     * Counts above the cap are refused before any work: computing them would take longer than the
     * time-out (about 0.4 s per million iterations on the machine this was written on). The counts
     * are kept small enough that a broken cap fails this test in a minute rather than hanging the
     * build: a thread stuck in PBKDF2 cannot be interrupted.
     */
    @Test(timeOut = 3_000)
    public void hugeCountsAreRefusedWithoutDoingTheWork() {
        String b64 = "xeR41ZKIyEGqUw22hFxMjZYok6ABzk4RpJY4c6qYE0pzYWx0";
        String[] huge = {
            (Pbkdf2HmacSha256Scheme.MAX_ITERATIONS + 1) + ":" + b64,
            "20000000:" + b64,
            "099999999:" + b64,
        };
        for (String value : huge) {
            assertFalse(SCHEME.matches(utf8("password"), value), value);
        }
    }

    @Test
    public void passwordsThatAreNotUtf8NeverMatchAndCannotBeEncoded() {
        // Encoded (Python) from "\ufffd\ufffd" in UTF-8, which is what OpenDJ's lenient decoding turns
        // the bytes ff fe into. Strict decoding keeps the two passwords apart.
        String replacementChars = "1000:tu12yh/X0htUx05tLGBF0PZ3vKlrj0iAWclyoQv/jX1sZW5pZW50IQ==";
        assertTrue(SCHEME.matches(utf8("\ufffd\ufffd"), replacementChars));
        assertFalse(SCHEME.matches(ByteString.wrap(new byte[] {(byte) 0xff, (byte) 0xfe}), replacementChars));

        ByteString notUtf8 = ByteString.wrap(new byte[] {'a', (byte) 0xc3}); // truncated sequence
        assertThrows(IllegalArgumentException.class, () -> SCHEME.encodeValue(notUtf8));
        // An overlong encoding of '/' and a UTF-8-encoded surrogate are not valid UTF-8 either.
        assertThrows(IllegalArgumentException.class,
                () -> SCHEME.encodeValue(ByteString.wrap(new byte[] {(byte) 0xc0, (byte) 0xaf})));
        assertThrows(IllegalArgumentException.class,
                () -> SCHEME.encodeValue(ByteString.wrap(new byte[] {(byte) 0xed, (byte) 0xa0, (byte) 0x80})));
    }

    @Test
    public void nullAndEmptyArgumentsDoNotMatch() {
        assertFalse(SCHEME.matches(null, PUBLISHED));
        assertFalse(SCHEME.matches(ByteString.empty(), PUBLISHED));
        assertFalse(SCHEME.matches(utf8("password"), null));
    }

    @Test
    public void refusesToEncodeAnEmptyPasswordOrAnEmptySalt() {
        assertThrows(IllegalArgumentException.class, () -> SCHEME.encodeValue(ByteString.empty()));
        assertThrows(NullPointerException.class, () -> SCHEME.encodeValue(null));
        assertThrows(IllegalArgumentException.class, () -> SCHEME.encodeValue(utf8("secret"), new byte[0]));
    }

    @Test
    public void describesItselfWithoutSecrets() {
        assertEquals(SCHEME.name(), "PBKDF2-HMAC-SHA256");
        assertEquals(new Pbkdf2HmacSha256Scheme(2000).toString(), "Pbkdf2HmacSha256Scheme{iterations=2000}");
    }
}
