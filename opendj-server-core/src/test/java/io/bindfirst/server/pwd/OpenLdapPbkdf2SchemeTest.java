package io.bindfirst.server.pwd;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertFalse;
import static org.testng.Assert.assertNotEquals;
import static org.testng.Assert.assertThrows;
import static org.testng.Assert.assertTrue;

import org.forgerock.opendj.ldap.ByteString;
import org.testng.annotations.DataProvider;
import org.testng.annotations.Test;

public class OpenLdapPbkdf2SchemeTest {

    private static final OpenLdapPbkdf2Scheme SHA1 = OpenLdapPbkdf2Scheme.PBKDF2_SHA1;
    private static final OpenLdapPbkdf2Scheme SHA256 = OpenLdapPbkdf2Scheme.PBKDF2_SHA256;
    private static final OpenLdapPbkdf2Scheme SHA512 = OpenLdapPbkdf2Scheme.PBKDF2_SHA512;

    /** Published: the OpenLDAP-format values of 389 Directory Server's pwdchan unit tests (password "password"). */
    private static final String PUBLISHED_SHA1 = "10000$IlfapjA351LuDSwYC0IQ8Q$saHqQTuYnjJN/tmAndT.8mJt.6w";
    private static final String PUBLISHED_SHA256 =
            "10000$henZGfPWw79Cs8ORDeVNrQ$1dTJy73v6n3bnTmTZFghxHXHLsAzKaAy8SksDfZBPIw";
    private static final String PUBLISHED_SHA512 = "10000$Je1Uw19Bfv5lArzZ6V3EPw$g4T/1sqBUYWl9o93MVnyQ/8zKGSkPbKaX"
            + "XsT8WmysXQJhWy8MRP2JFudSL.N9RklQYgDPxPjnfum/F2f/TrppA";

    /*
     * The "secret" vectors were computed with Python, salt bytes(range(16)) (and for 389's spelling the 24 ASCII
     * bytes b'389-ds-pwdchan-salt-24by', written in standard base64 with padding, as 389's plugin does):
     *   ab64 = lambda b: base64.b64encode(b).decode().rstrip('=').replace('+', '.')
     *   "10000$%s$%s" % (ab64(salt), ab64(hashlib.pbkdf2_hmac(h, b'secret', salt, 10000)))
     */
    @DataProvider
    public Object[][] knownAnswers() {
        return new Object[][] {
            {OpenLdapPbkdf2Scheme.PBKDF2, "password", PUBLISHED_SHA1},
            {SHA1, "password", PUBLISHED_SHA1},
            {SHA256, "password", PUBLISHED_SHA256},
            {SHA512, "password", PUBLISHED_SHA512},
            {SHA1, "secret", "10000$AAECAwQFBgcICQoLDA0ODw$w7tX5nEMoIv2c5pL4bh51Yovf50"},
            {SHA256, "secret", "10000$AAECAwQFBgcICQoLDA0ODw$OImOyGKQvA8WMIN8WwuclUZFDykpCY/RxWOLBTOe8fg"},
            {SHA512, "secret", "10000$AAECAwQFBgcICQoLDA0ODw$s1qOkFay1DbcR0sablkjBgtOqf1IcoQVkkK1uzR9LdXA0A7Sk"
                    + "Khkz0j9Li48.pDMKueSh3UUQNkgDDksLeAu.Q"},
            {SHA512, "secret", "10000$Mzg5LWRzLXB3ZGNoYW4tc2FsdC0yNGJ5$mim4Bsqt5XcT0cAyPHtx5fpBZKdxq0gYB6B3YR+3iV"
                    + "vSCsBOw6SW6VE03yrBFovgkH9s78ECjGBwTYIjSEquIw=="},
        };
    }

    private static ByteString utf8(String s) {
        return ByteString.valueOfUtf8(s);
    }

    @Test(dataProvider = "knownAnswers")
    public void knownAnswersMatchTheRightPasswordOnly(OpenLdapPbkdf2Scheme scheme, String password, String value) {
        assertTrue(scheme.matches(utf8(password), value));
        assertFalse(scheme.matches(utf8(password + "!"), value));
        assertFalse(scheme.matches(utf8("incorrect"), value));
    }

    @Test(dataProvider = "knownAnswers")
    public void thePacedCheckGivesTheSameAnswerAndPaces(OpenLdapPbkdf2Scheme scheme, String password, String value) {
        int[] paces = {0};
        assertTrue(scheme.matches(utf8(password), value, () -> paces[0]++));
        assertEquals(paces[0], 9999 / 1024);
    }

    @Test
    public void theHashIsPartOfTheCheck() {
        // The same value under another HMAC does not match.
        assertFalse(SHA256.matches(utf8("password"), PUBLISHED_SHA1));
        assertFalse(SHA1.matches(utf8("password"), PUBLISHED_SHA256));
        assertFalse(SHA256.matches(utf8("password"), PUBLISHED_SHA512));
    }

    @Test
    public void encodingWithAGivenSaltReproducesTheKnownAnswer() {
        byte[] salt = new byte[16];
        for (int i = 0; i < salt.length; i++) {
            salt[i] = (byte) i;
        }
        assertEquals(SHA256.encodeValue(utf8("secret"), salt, 10000),
                "10000$AAECAwQFBgcICQoLDA0ODw$OImOyGKQvA8WMIN8WwuclUZFDykpCY/RxWOLBTOe8fg");
    }

    @Test
    public void roundTripWithTheModulesDefaults() {
        for (OpenLdapPbkdf2Scheme scheme : new OpenLdapPbkdf2Scheme[] {OpenLdapPbkdf2Scheme.PBKDF2, SHA1, SHA256,
            SHA512}) {
            String first = scheme.encodeValue(utf8("correct horse"));
            String second = scheme.encodeValue(utf8("correct horse"));
            assertTrue(first.startsWith("10000$"), first);
            assertNotEquals(first, second, "each encoding has its own salt");
            assertFalse(first.contains("+") || first.contains("="), first);
            assertTrue(scheme.matches(utf8("correct horse"), first));
            assertFalse(scheme.matches(utf8("correct horsE"), first));
        }
    }

    @Test
    public void passwordsAreTheirBytesEvenWhenNotUtf8() {
        ByteString latin1 = ByteString.wrap(new byte[] {'p', (byte) 0xe4, 's', 's'});
        String value = SHA256.encodeValue(latin1);
        assertTrue(SHA256.matches(latin1, value));
        assertFalse(SHA256.matches(utf8("p\u00e4ss"), value));
    }

    @Test
    public void theWorkFactorCountsSha512Thrice() {
        assertEquals(SHA1.workFactor(PUBLISHED_SHA1), 10_000);
        assertEquals(SHA256.workFactor(PUBLISHED_SHA256), 10_000);
        assertEquals(SHA512.workFactor(PUBLISHED_SHA512), 30_000);
        assertEquals(SHA512.workFactor("3333333$x$y"), 9_999_999);
        assertEquals(SHA512.workFactor("3333334$x$y"), 1, "beyond the cap: refused, so no work");
        assertEquals(SHA256.workFactor("garbage"), 1);
        assertEquals(SHA256.workFactor(null), 1);
    }

    @Test
    public void malformedValuesDoNotMatchNorThrow() {
        String salt = "henZGfPWw79Cs8ORDeVNrQ";
        String key = "1dTJy73v6n3bnTmTZFghxHXHLsAzKaAy8SksDfZBPIw";
        String[] malformed = {
            "", "$", "$$", "10000", "10000$" + salt, "10000$" + salt + "$", "$" + salt + "$" + key,
            "0$" + salt + "$" + key,                             // no iterations
            "-1$" + salt + "$" + key,
            "1e4$" + salt + "$" + key,
            "99999999999999999999$" + salt + "$" + key,          // overflows a long
            "10000001$" + salt + "$" + key,                      // beyond the work cap
            "10000$" + salt + "$" + key + "$",                   // a fourth field
            "10000$$" + key,                                     // empty salt
            "10000$" + salt + "$" + key.substring(1),            // bad ab64: 42 characters
            "10000$" + salt + "$" + key.replace('d', '_'),       // not in the alphabet
            "10000$h$" + key,                                    // one character is no base64
            "10000$" + salt + "$" + key.substring(0, 40),        // key too short
            "10000$" + salt + "$" + key + "AAAA",                // key too long
            "10000$" + "A".repeat(1400) + "$" + key,             // absurd salt
            // 389's own test has this SHA-1 value with a truncated 19-byte key: refused, as OpenLDAP does
            "10000$ZBEH6B07rgQpJSikyvMU2w$TAA03a5IYkz1QlPsbJKvUsTqNV",
        };
        for (String value : malformed) {
            assertFalse(SHA256.matches(utf8("password"), value), value);
            assertFalse(SHA1.matches(utf8("password"), value), value);
        }
        assertFalse(SHA256.matches(null, PUBLISHED_SHA256));
        assertFalse(SHA256.matches(ByteString.empty(), PUBLISHED_SHA256));
        assertFalse(SHA256.matches(utf8("password"), null));
    }

    @Test
    public void refusesToEncodeWhatItWouldNotMatch() {
        assertThrows(IllegalArgumentException.class, () -> SHA256.encodeValue(ByteString.empty()));
        assertThrows(NullPointerException.class, () -> SHA256.encodeValue(null));
        assertThrows(IllegalArgumentException.class, () -> SHA256.encodeValue(utf8("x"), new byte[0], 10));
        assertThrows(IllegalArgumentException.class, () -> SHA256.encodeValue(utf8("x"), new byte[8], 0));
        assertThrows(IllegalArgumentException.class, () -> SHA512.encodeValue(utf8("x"), new byte[8], 3333334));
    }

    @Test
    public void names() {
        assertEquals(OpenLdapPbkdf2Scheme.PBKDF2.name(), "PBKDF2");
        assertEquals(SHA1.name(), "PBKDF2-SHA1");
        assertEquals(SHA256.name(), "PBKDF2-SHA256");
        assertEquals(SHA512.name(), "PBKDF2-SHA512");
        assertEquals(SHA512.toString(), "OpenLdapPbkdf2Scheme{PBKDF2-SHA512, HmacSHA512}");
    }
}
