package io.bindfirst.server.pwd;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertFalse;
import static org.testng.Assert.assertNotEquals;
import static org.testng.Assert.assertThrows;
import static org.testng.Assert.assertTrue;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.Base64;
import java.util.Random;

import org.forgerock.opendj.ldap.ByteString;
import org.testng.annotations.DataProvider;
import org.testng.annotations.Test;

public class SaltedShaSchemeTest {

    /*
     * Known answers computed outside this code base, with Python's hashlib:
     *   base64.b64encode(hashlib.new(alg, password + salt).digest() + salt)
     * The first was also checked with openssl:
     *   printf 'secret\x01..\x08' | openssl dgst -sha1 -binary | cat - <(printf '\x01..\x08') | base64
     */
    @DataProvider
    public Object[][] knownAnswers() {
        return new Object[][] {
            // OpenDJ-style 8-byte salt 01..08
            {SaltedShaScheme.SSHA, "secret", "lHFzXul4wnzRItssVcTnvXWRjNgBAgMEBQYHCA=="},
            // OpenLDAP-style 4-byte salt a1b2c3d4
            {SaltedShaScheme.SSHA, "secret", "pVM1m+a9asU+I4eOuJQ7BbpyJKWhssPU"},
            // salt "NaCl4you"
            {SaltedShaScheme.SSHA256, "password", "bwFIGhEr6MerEtQ650b9j0XE7HPuGYFjDs5PLySkY8tOYUNsNHlvdQ=="},
            {SaltedShaScheme.SSHA384, "password",
                "TX5jQCKWAWaCPuexnTvW3jv+DoVFliyG9z8W4PIJHSPGgYESdJSY066humdMEuM4TmFDbDR5b3U="},
            {SaltedShaScheme.SSHA512, "password",
                "7Avgnz9Uq6t4cSXib57wlN8eTR/+ZccpdPoDkGxdfaI8UeQfu1/kpri8Tzs6O3jLP/9oZ7nVmJ/moCL+jjOOoE5hQ2w0eW91"},
            // 4-byte salt deadbeef
            {SaltedShaScheme.SSHA512, "secret",
                "kyIpdsrB2UF03DzitElS0NGmohog+mUda8e85iz133KrvQqIlqhBs4BNJSgY+ck0UhODqgYSl+u98MN5uyzqtN6tvu8="},
            // UTF-8 password, salt 0011223344556677
            {SaltedShaScheme.SSHA256, "p\u00e4ssw\u00f6rd\u20ac",
                "uQRca4oIVqyL4ZP3g3om6tc5PdcLslBCACgIZ6LWekkAESIzRFVmdw=="},
        };
    }

    private static ByteString utf8(String s) {
        return ByteString.valueOfUtf8(s);
    }

    /**
     * {@code scheme.matches} both ways the server asks it (the encoded value as a String, and as the stored
     * value's bytes after its {@code {NAME}}, the bind path), each asserted to agree with {@link #reference}.
     */
    private static boolean matches(SaltedShaScheme scheme, ByteString clear, String encoded) {
        boolean expected = reference(scheme, clear, encoded);
        assertEquals(scheme.matches(clear, encoded), expected, "as a String: '" + encoded + "'");
        String prefix = "{" + scheme.name() + "}";
        ByteString stored = encoded == null ? null : utf8(prefix + encoded);
        assertEquals(scheme.matches(clear, stored, prefix.length(), Pacer.NONE), expected,
                "as the stored bytes: '" + encoded + "'");
        return expected;
    }

    /** The check written plainly with the JDK's base64 decoder and a fresh digest: what the scheme must answer. */
    private static boolean reference(SaltedShaScheme scheme, ByteString clear, String encoded) {
        if (clear == null || clear.isEmpty() || encoded == null) {
            return false;
        }
        byte[] decoded;
        try {
            decoded = Base64.getDecoder().decode(encoded);
        } catch (IllegalArgumentException e) {
            return false;
        }
        int n = scheme.digestLength();
        if (decoded.length <= n) {
            return false;
        }
        try {
            MessageDigest md = MessageDigest.getInstance(scheme.algorithm());
            md.update(clear.toByteArray());
            md.update(decoded, n, decoded.length - n);
            return MessageDigest.isEqual(md.digest(), Arrays.copyOf(decoded, n));
        } catch (NoSuchAlgorithmException e) {
            throw new AssertionError(e);
        }
    }

    private static byte[] hex(String hex) {
        return ByteString.valueOfHex(hex).toByteArray();
    }

    @Test(dataProvider = "knownAnswers")
    public void knownAnswerMatches(SaltedShaScheme scheme, String password, String encoded) {
        assertTrue(matches(scheme, utf8(password), encoded));
    }

    @Test(dataProvider = "knownAnswers")
    public void knownAnswerRefusesOtherPasswords(SaltedShaScheme scheme, String password, String encoded) {
        assertFalse(matches(scheme, utf8(password + "x"), encoded));
        assertFalse(matches(scheme, utf8(password.substring(1)), encoded));
        assertFalse(matches(scheme, utf8(password.toUpperCase()), encoded));
        assertFalse(matches(scheme, utf8("x"), encoded));
    }

    @Test(dataProvider = "knownAnswers")
    public void tamperedKnownAnswerDoesNotMatch(SaltedShaScheme scheme, String password, String encoded) {
        byte[] decoded = Base64.getDecoder().decode(encoded);
        for (int index : new int[] {0, scheme.digestLength() - 1, scheme.digestLength(), decoded.length - 1}) {
            byte[] tampered = decoded.clone();
            tampered[index] ^= 0x40;
            assertFalse(matches(scheme, utf8(password), Base64.getEncoder().encodeToString(tampered)),
                    "byte " + index + " flipped");
        }
    }

    @Test
    public void encodingWithAGivenSaltReproducesTheKnownAnswers() {
        assertEquals(SaltedShaScheme.SSHA.encodeValue(utf8("secret"), hex("0102030405060708")),
                "lHFzXul4wnzRItssVcTnvXWRjNgBAgMEBQYHCA==");
        assertEquals(SaltedShaScheme.SSHA.encodeValue(utf8("secret"), hex("a1b2c3d4")),
                "pVM1m+a9asU+I4eOuJQ7BbpyJKWhssPU");
        assertEquals(SaltedShaScheme.SSHA384.encodeValue(utf8("password"), "NaCl4you".getBytes()),
                "TX5jQCKWAWaCPuexnTvW3jv+DoVFliyG9z8W4PIJHSPGgYESdJSY066humdMEuM4TmFDbDR5b3U=");
        assertEquals(SaltedShaScheme.SSHA512.encodeValue(utf8("secret"), hex("deadbeef")),
                "kyIpdsrB2UF03DzitElS0NGmohog+mUda8e85iz133KrvQqIlqhBs4BNJSgY+ck0UhODqgYSl+u98MN5uyzqtN6tvu8=");
    }

    @DataProvider
    public Object[][] schemes() {
        return new Object[][] {
            {SaltedShaScheme.SSHA, "SSHA", "SHA-1", 20},
            {SaltedShaScheme.SSHA256, "SSHA256", "SHA-256", 32},
            {SaltedShaScheme.SSHA384, "SSHA384", "SHA-384", 48},
            {SaltedShaScheme.SSHA512, "SSHA512", "SHA-512", 64},
        };
    }

    @Test(dataProvider = "schemes")
    public void describesItself(SaltedShaScheme scheme, String name, String algorithm, int digestLength) {
        assertEquals(scheme.name(), name);
        assertEquals(scheme.algorithm(), algorithm);
        assertEquals(scheme.digestLength(), digestLength);
    }

    @Test(dataProvider = "schemes")
    public void encodedValuesRoundTripWithAFreshEightByteSalt(SaltedShaScheme scheme, String name,
            String algorithm, int digestLength) {
        ByteString password = utf8("correct horse battery staple");
        String first = scheme.encodeValue(password);
        String second = scheme.encodeValue(password);
        assertEquals(Base64.getDecoder().decode(first).length, digestLength + SaltedShaScheme.SALT_LENGTH);
        assertNotEquals(first, second, "each encoding has its own salt");
        assertTrue(matches(scheme, password, first));
        assertTrue(matches(scheme, password, second));
        assertFalse(matches(scheme, utf8("correct horse battery stapl"), first));
    }

    @Test(dataProvider = "schemes")
    public void binaryPasswordsRoundTrip(SaltedShaScheme scheme, String name, String algorithm, int digestLength) {
        ByteString password = ByteString.wrap(new byte[] {0, (byte) 0xff, (byte) 0xfe, 0x7f, (byte) 0x80});
        String encoded = scheme.encodeValue(password);
        assertTrue(matches(scheme, password, encoded));
        assertFalse(matches(scheme, ByteString.wrap(new byte[] {0, (byte) 0xff, (byte) 0xfe, 0x7f}), encoded));
    }

    @Test(dataProvider = "schemes")
    public void malformedValuesDoNotMatch(SaltedShaScheme scheme, String name, String algorithm, int digestLength) {
        ByteString password = utf8("secret");
        String valid = scheme.encodeValue(password);
        String digestOnly = Base64.getEncoder().encodeToString(new byte[digestLength]);
        String[] malformed = {
            "",
            "!!!!",
            "not base64 at all",
            valid.substring(0, valid.length() - 4),        // cut short: salt shrinks, digest unchanged
            valid.substring(0, 8),                         // shorter than the digest
            valid + "=",                                   // too much padding
            valid + "A",                                   // trailing garbage
            " " + valid,
            valid.substring(0, 10) + "\n" + valid.substring(10),
            digestOnly,                                    // no salt at all
            Base64.getEncoder().encodeToString(new byte[digestLength - 1]),
        };
        for (String value : malformed) {
            assertFalse(matches(scheme, password, value), "'" + value + "'");
        }
    }

    @Test
    public void missingPaddingIsToleratedButWrongPaddingIsNot() {
        // Same bytes either way; some tools drop the padding.
        assertTrue(matches(SaltedShaScheme.SSHA, utf8("secret"), "lHFzXul4wnzRItssVcTnvXWRjNgBAgMEBQYHCA"));
        assertFalse(matches(SaltedShaScheme.SSHA, utf8("secret"), "lHFzXul4wnzRItssVcTnvXWRjNgBAgMEBQYHCA="));
        assertFalse(matches(SaltedShaScheme.SSHA, utf8("secret"), "lHFzXul4wnzRItssVcTnvXWRjNgBAgMEBQYHCA==="));
    }

    @Test
    public void unsaltedDigestIsNotAcceptedAsSalted() {
        // base64(sha1("secret")) is a valid {SHA} value, but {SSHA} requires salt.
        assertFalse(matches(SaltedShaScheme.SSHA, utf8("secret"), "5en6G6MezRroT3XKqkdPOmY/BfQ="));
    }

    @Test
    public void aValueOfOneSchemeDoesNotMatchUnderAnother() {
        String ssha512 = "kyIpdsrB2UF03DzitElS0NGmohog+mUda8e85iz133KrvQqIlqhBs4BNJSgY+ck0UhODqgYSl+u98MN5uyzqtN6tvu8=";
        assertFalse(matches(SaltedShaScheme.SSHA, utf8("secret"), ssha512));
        assertFalse(matches(SaltedShaScheme.SSHA256, utf8("secret"), ssha512));
        assertFalse(matches(SaltedShaScheme.SSHA384, utf8("secret"), ssha512));
        assertFalse(matches(SaltedShaScheme.SSHA256, utf8("secret"), "lHFzXul4wnzRItssVcTnvXWRjNgBAgMEBQYHCA=="));
    }

    @Test
    public void nullAndEmptyArgumentsDoNotMatch() {
        String valid = SaltedShaScheme.SSHA.encodeValue(utf8("secret"));
        assertFalse(matches(SaltedShaScheme.SSHA, null, valid));
        assertFalse(matches(SaltedShaScheme.SSHA, ByteString.empty(), valid));
        assertFalse(matches(SaltedShaScheme.SSHA, utf8("secret"), null));
    }

    @Test
    public void refusesToEncodeAnEmptyPasswordOrAnEmptySalt() {
        assertThrows(IllegalArgumentException.class, () -> SaltedShaScheme.SSHA.encodeValue(ByteString.empty()));
        assertThrows(NullPointerException.class, () -> SaltedShaScheme.SSHA.encodeValue(null));
        assertThrows(IllegalArgumentException.class,
                () -> SaltedShaScheme.SSHA.encodeValue(utf8("secret"), new byte[0]));
    }

    @Test(dataProvider = "schemes")
    public void generatedAndDamagedValuesAreCheckedAsTheReferenceDoes(SaltedShaScheme scheme, String name,
                                                                      String algorithm, int digestLength) {
        Random random = new Random(42);
        for (int i = 0; i < 2_000; i++) {
            // Passwords and salts up to past the per-thread buffers' sizes (256), so both ways are taken.
            byte[] password = new byte[1 + random.nextInt(i % 10 == 0 ? 400 : 24)];
            random.nextBytes(password);
            byte[] salt = new byte[1 + random.nextInt(i % 10 == 1 ? 200 : 12)];
            random.nextBytes(salt);
            String encoded = scheme.encodeValue(ByteString.wrap(password), salt);
            ByteString other = ByteString.wrap(Arrays.copyOf(password, password.length + 1));
            assertTrue(matches(scheme, ByteString.wrap(password), encoded));
            assertFalse(matches(scheme, other, encoded));
            char[] chars = encoded.toCharArray();
            chars[random.nextInt(chars.length)] = "A/+=!x\n".charAt(random.nextInt(7));
            matches(scheme, ByteString.wrap(password), new String(chars));
            matches(scheme, ByteString.wrap(password), encoded.substring(0, random.nextInt(encoded.length())));
        }
    }

    @Test
    public void aShortPasswordAfterALongOneOnTheSameThreadIsCheckedAlone() {
        String forShort = SaltedShaScheme.SSHA.encodeValue(utf8("pass"));
        assertFalse(matches(SaltedShaScheme.SSHA, utf8("password"), forShort));
        assertTrue(matches(SaltedShaScheme.SSHA, utf8("pass"), forShort));
        assertFalse(matches(SaltedShaScheme.SSHA, utf8("pas"), forShort));
    }

    @Test
    public void toStringNamesTheSchemeOnly() {
        assertEquals(SaltedShaScheme.SSHA256.toString(), "SaltedShaScheme{SSHA256, SHA-256}");
    }
}
