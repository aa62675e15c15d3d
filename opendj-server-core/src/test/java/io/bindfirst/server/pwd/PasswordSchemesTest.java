package io.bindfirst.server.pwd;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertFalse;
import static org.testng.Assert.assertSame;
import static org.testng.Assert.assertThrows;
import static org.testng.Assert.assertTrue;
import static org.testng.Assert.expectThrows;
import static org.testng.Assert.fail;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.forgerock.opendj.ldap.ByteString;
import org.testng.annotations.DataProvider;
import org.testng.annotations.Test;

public class PasswordSchemesTest {

    private static final PasswordSchemes STRICT = new PasswordSchemes("SSHA512", false);
    private static final PasswordSchemes LENIENT = new PasswordSchemes("SSHA512", true);

    private static ByteString utf8(String s) {
        return ByteString.valueOfUtf8(s);
    }

    /** Known answers computed with Python's hashlib (see the scheme tests), with their prefixes. */
    @DataProvider
    public Object[][] knownAnswers() {
        return new Object[][] {
            {"secret", "{SSHA}lHFzXul4wnzRItssVcTnvXWRjNgBAgMEBQYHCA=="},
            {"secret", "{SSHA}pVM1m+a9asU+I4eOuJQ7BbpyJKWhssPU"},
            {"password", "{SSHA256}bwFIGhEr6MerEtQ650b9j0XE7HPuGYFjDs5PLySkY8tOYUNsNHlvdQ=="},
            {"password", "{SSHA384}TX5jQCKWAWaCPuexnTvW3jv+DoVFliyG9z8W4PIJHSPGgYESdJSY066humdMEuM4TmFDbDR5b3U="},
            {"password", "{SSHA512}7Avgnz9Uq6t4cSXib57wlN8eTR/+ZccpdPoDkGxdfaI8UeQfu1/kpri8Tzs6O3jLP/9oZ7nVmJ/"
                    + "moCL+jjOOoE5hQ2w0eW91"},
            {"secret", "{SSHA512}kyIpdsrB2UF03DzitElS0NGmohog+mUda8e85iz133KrvQqIlqhBs4BNJSgY+ck0UhODqgYSl+"
                    + "u98MN5uyzqtN6tvu8="},
            {"password", "{PBKDF2-HMAC-SHA256}4096:xeR41ZKIyEGqUw22hFxMjZYok6ABzk4RpJY4c6qYE0pzYWx0"},
            {"secret", "{PBKDF2-HMAC-SHA256}10000:ZV7H6WCa0j14fv11Hy2tP7X1jl6O+c8c/CPLnFGnYVEBAgMEBQYHCA=="},
            // scheme names are case-insensitive
            {"secret", "{ssha}lHFzXul4wnzRItssVcTnvXWRjNgBAgMEBQYHCA=="},
            {"password", "{Ssha256}bwFIGhEr6MerEtQ650b9j0XE7HPuGYFjDs5PLySkY8tOYUNsNHlvdQ=="},
            {"password", "{pbkdf2-hmac-sha256}4096:xeR41ZKIyEGqUw22hFxMjZYok6ABzk4RpJY4c6qYE0pzYWx0"},
        };
    }

    @Test(dataProvider = "knownAnswers")
    public void verifiesKnownAnswers(String password, String stored) {
        assertTrue(STRICT.verify(utf8(password), utf8(stored)));
        assertTrue(LENIENT.verify(utf8(password), utf8(stored)));
        assertTrue(STRICT.isEncoded(utf8(stored)));
    }

    @Test(dataProvider = "knownAnswers")
    public void refusesWrongPasswordsForKnownAnswers(String password, String stored) {
        assertFalse(STRICT.verify(utf8(password + "1"), utf8(stored)));
        assertFalse(LENIENT.verify(utf8(password + "1"), utf8(stored)));
        // The stored value itself, presented as a password, is not accepted as clear text.
        assertFalse(LENIENT.verify(utf8(stored), utf8(stored)));
    }

    @DataProvider
    public Object[][] schemeNames() {
        return new Object[][] {
            {"SSHA"}, {"ssha256"}, {"SSHA384"}, {"Ssha512"}, {"PBKDF2-HMAC-SHA256"}, {"pbkdf2-hmac-sha256"},
        };
    }

    @Test(dataProvider = "schemeNames")
    public void encodesWithTheDefaultSchemeAndVerifies(String defaultName) {
        PasswordSchemes schemes = new PasswordSchemes(defaultName, false);
        assertEquals(schemes.defaultScheme().name(), defaultName.toUpperCase());
        ByteString password = utf8("s3cr\u00e9t pass");
        ByteString encoded = schemes.encode(password);
        assertTrue(encoded.toString().startsWith("{" + defaultName.toUpperCase() + "}"), encoded.toString());
        assertTrue(schemes.isEncoded(encoded));
        assertTrue(schemes.verify(password, encoded));
        assertFalse(schemes.verify(utf8("s3cr\u00e9t pas"), encoded));
        // Any registry verifies any known scheme, whatever its own default.
        assertTrue(STRICT.verify(password, encoded));
    }

    @Test
    public void unknownDefaultSchemeIsRefusedWithTheKnownNames() {
        try {
            new PasswordSchemes("MD4", false);
            fail("MD4 is not a known scheme");
        } catch (IllegalArgumentException e) {
            String message = e.getMessage();
            assertTrue(message.contains("'MD4'"), message);
            for (String name : STRICT.names()) {
                assertTrue(message.contains(name), message);
            }
        }
        assertThrows(IllegalArgumentException.class, () -> new PasswordSchemes("{SSHA}", false));
        assertThrows(IllegalArgumentException.class, () -> new PasswordSchemes("", false));
        assertThrows(NullPointerException.class, () -> new PasswordSchemes(null, false));
    }

    @DataProvider
    public Object[][] weakSchemeNames() {
        return new Object[][] {{"SHA"}, {"md5"}, {"SMD5"}};
    }

    @Test(dataProvider = "weakSchemeNames")
    public void weakDefaultSchemeIsRefusedWithTheStrongNames(String name) {
        IllegalArgumentException e = expectThrows(IllegalArgumentException.class,
                () -> new PasswordSchemes(name, false));
        String message = e.getMessage();
        assertTrue(message.contains("'" + name + "'") && message.contains("too weak"), message);
        assertTrue(message.contains("[SSHA, SSHA256, SSHA384, SSHA512, PBKDF2-HMAC-SHA256, PBKDF2, PBKDF2-SHA1, "
                + "PBKDF2-SHA256, PBKDF2-SHA512, PBKDF2-HMAC-SHA512, PBKDF2_SHA256, ARGON2, CRYPT, BCRYPT]"), message);
    }

    @Test
    public void cryptAndBcryptMayBeTheDefault() {
        ByteString password = utf8("new password");
        for (String name : new String[] {"CRYPT", "BCRYPT"}) {
            PasswordSchemes schemes = new PasswordSchemes(name, false);
            ByteString encoded = schemes.encode(password);
            assertTrue(encoded.toString().startsWith("{" + name + "}$"), encoded.toString());
            assertTrue(STRICT.verify(password, encoded));
        }
    }

    @Test
    public void namesAreCanonicalOrderedAndUnmodifiable() {
        assertEquals(new ArrayList<>(STRICT.names()),
                List.of("SSHA", "SSHA256", "SSHA384", "SSHA512", "PBKDF2-HMAC-SHA256", "PBKDF2", "PBKDF2-SHA1",
                        "PBKDF2-SHA256", "PBKDF2-SHA512", "PBKDF2-HMAC-SHA512", "PBKDF2_SHA256", "ARGON2",
                        "SHA", "MD5", "SMD5", "CRYPT", "BCRYPT"));
        assertThrows(UnsupportedOperationException.class, () -> STRICT.names().add("MD4"));
    }

    @Test
    public void looksUpSchemesCaseInsensitively() {
        assertSame(STRICT.scheme("ssha").orElseThrow(), SaltedShaScheme.SSHA);
        assertSame(STRICT.scheme("SSHA512").orElseThrow(), SaltedShaScheme.SSHA512);
        assertEquals(STRICT.scheme("Pbkdf2-Hmac-Sha256").orElseThrow().name(), "PBKDF2-HMAC-SHA256");
        assertTrue(STRICT.scheme("MD4").isEmpty());
        assertTrue(STRICT.scheme("{SSHA}").isEmpty());
        assertTrue(STRICT.scheme("SSHA ").isEmpty());
        assertTrue(STRICT.scheme("").isEmpty());
        assertTrue(STRICT.scheme(null).isEmpty());
    }

    @Test
    public void unknownOrEmptySchemeNeverMatchesEvenWithClearTextAllowed() {
        assertFalse(LENIENT.verify(utf8("secret"), utf8("{MD4}Xr4ilOzQ4PCOq3aQ0qbuaQ==")));
        assertFalse(LENIENT.verify(utf8("{MD4}secret"), utf8("{MD4}secret")));
        assertFalse(LENIENT.verify(utf8("secret"), utf8("{SSHA1}lHFzXul4wnzRItssVcTnvXWRjNgBAgMEBQYHCA==")));
        assertFalse(LENIENT.verify(utf8("{}secret"), utf8("{}secret")));
        assertFalse(LENIENT.verify(utf8("secret"), utf8("{}secret")));
        assertFalse(LENIENT.isEncoded(utf8("{MD4}Xr4ilOzQ4PCOq3aQ0qbuaQ==")));
        assertFalse(LENIENT.isEncoded(utf8("{}secret")));
    }

    @Test
    public void malformedStoredValuesDoNotMatch() {
        String[] malformed = {
            "{SSHA}",
            "{SSHA}!!!!",
            "{SSHA}lHFzXul4wnzRItssVcTnvXWRjNg=",               // digest without salt
            "{SSHA}lHFzXul4wnzRItssVcTnvXWRjNgBAgMEBQYHCA=",     // wrong padding
            "{SSHA} lHFzXul4wnzRItssVcTnvXWRjNgBAgMEBQYHCA==",   // space after the brace
            " {SSHA}lHFzXul4wnzRItssVcTnvXWRjNgBAgMEBQYHCA==",   // space before it
            "{SSHA lHFzXul4wnzRItssVcTnvXWRjNgBAgMEBQYHCA==",    // no closing brace
            "SSHA}lHFzXul4wnzRItssVcTnvXWRjNgBAgMEBQYHCA==",     // no opening brace
            "{SSHA}}lHFzXul4wnzRItssVcTnvXWRjNgBAgMEBQYHCA==",
            "{{SSHA}}lHFzXul4wnzRItssVcTnvXWRjNgBAgMEBQYHCA==",
            "{PBKDF2-HMAC-SHA256}",
            "{PBKDF2-HMAC-SHA256}0:xeR41ZKIyEGqUw22hFxMjZYok6ABzk4RpJY4c6qYE0pzYWx0",
            "{PBKDF2-HMAC-SHA256}x:xeR41ZKIyEGqUw22hFxMjZYok6ABzk4RpJY4c6qYE0pzYWx0",
            "{PBKDF2-HMAC-SHA256}xeR41ZKIyEGqUw22hFxMjZYok6ABzk4RpJY4c6qYE0pzYWx0",
            "{PBKDF2-HMAC-SHA256}4096:xeR41ZKIyEGqUw22hFxMjZYok6ABzk4RpJY4c6qYE0o=",
            "{PBKDF2-HMAC-SHA256}10000001:xeR41ZKIyEGqUw22hFxMjZYok6ABzk4RpJY4c6qYE0pzYWx0", // above the cap
            "{",
            "}",
            "{}",
            "",
        };
        for (String stored : malformed) {
            for (String password : new String[] {"secret", "password"}) {
                assertFalse(STRICT.verify(utf8(password), utf8(stored)), "'" + stored + "'");
                assertFalse(LENIENT.verify(utf8(password), utf8(stored)), "'" + stored + "'");
            }
        }
    }

    @Test
    public void storedBytesThatAreNotUtf8DoNotMatch() {
        byte[] stored = utf8("{SSHA}lHFzXul4wnzRItssVcTnvXWRjNgBAgMEBQYHCA==").toByteArray();
        stored[10] = (byte) 0xff;
        assertFalse(STRICT.verify(utf8("secret"), ByteString.wrap(stored)));
        stored = utf8("{SSHA}lHFzXul4wnzRItssVcTnvXWRjNgBAgMEBQYHCA==").toByteArray();
        stored[2] = (byte) 0xd3; // 'S' with the top bit set must not fold to a scheme name
        assertFalse(STRICT.verify(utf8("secret"), ByteString.wrap(stored)));
        assertFalse(STRICT.isEncoded(ByteString.wrap(stored)));
    }

    @Test
    public void clearTextIsRefusedUnlessAllowed() {
        assertFalse(STRICT.verify(utf8("secret"), utf8("secret")));
        assertTrue(LENIENT.verify(utf8("secret"), utf8("secret")));
        assertFalse(LENIENT.verify(utf8("Secret"), utf8("secret")));
        assertFalse(LENIENT.verify(utf8("secret"), utf8("secret2")));
        assertFalse(LENIENT.verify(utf8("secret2"), utf8("secret")));
        assertFalse(LENIENT.verify(utf8("secret"), utf8("")));
        assertFalse(LENIENT.isEncoded(utf8("secret")));
        assertFalse(STRICT.allowsClearText());
        assertTrue(LENIENT.allowsClearText());
    }

    @Test
    public void aLeadingBraceWithoutAClosingOneIsClearText() {
        assertTrue(LENIENT.verify(utf8("{SSHA"), utf8("{SSHA")));
        assertFalse(STRICT.verify(utf8("{SSHA"), utf8("{SSHA")));
        assertFalse(LENIENT.isEncoded(utf8("{SSHA")));
    }

    @Test
    public void emptyOrNullPasswordsNeverMatch() {
        assertFalse(LENIENT.verify(ByteString.empty(), ByteString.empty()));
        assertFalse(LENIENT.verify(ByteString.empty(), utf8("{SSHA}lHFzXul4wnzRItssVcTnvXWRjNgBAgMEBQYHCA==")));
        assertFalse(LENIENT.verify(null, utf8("secret")));
        assertFalse(LENIENT.verify(utf8("secret"), null));
        assertFalse(LENIENT.isEncoded(null));
        assertThrows(IllegalArgumentException.class, () -> STRICT.encode(ByteString.empty()));
        assertThrows(NullPointerException.class, () -> STRICT.encode(null));
    }

    @Test
    public void isEncodedRecognisesKnownPrefixesOnly() {
        assertTrue(STRICT.isEncoded(utf8("{SSHA}anything")));
        assertTrue(STRICT.isEncoded(utf8("{sSHa384}")));
        assertTrue(STRICT.isEncoded(utf8("{PBKDF2-HMAC-SHA256}1:x")));
        assertFalse(STRICT.isEncoded(utf8("{PBKDF3}1:x")));
        assertFalse(STRICT.isEncoded(utf8("{SSHA")));
        assertFalse(STRICT.isEncoded(utf8("SSHA}x")));
        assertFalse(STRICT.isEncoded(utf8("")));
    }

    @Test
    public void toStringDescribesConfigurationNotPasswords() {
        ByteString password = utf8("hunter2-very-secret");
        ByteString encoded = LENIENT.encode(password);
        assertTrue(LENIENT.verify(password, encoded));
        String text = LENIENT.toString();
        assertEquals(text, "PasswordSchemes{default=SSHA512, allowClearText=true, "
                + "schemes=[SSHA, SSHA256, SSHA384, SSHA512, PBKDF2-HMAC-SHA256, PBKDF2, PBKDF2-SHA1, PBKDF2-SHA256, "
                + "PBKDF2-SHA512, PBKDF2-HMAC-SHA512, PBKDF2_SHA256, ARGON2, SHA, MD5, SMD5, CRYPT, BCRYPT]}");
        assertFalse(encoded.toString().contains("hunter2"));
    }

    /**
     * Eight threads verify different passwords at once, right and wrong, through every scheme. A
     * digest or key factory shared between threads without care corrupts its state under this load
     * and gives wrong answers.
     */
    @Test(timeOut = 120_000)
    public void concurrentVerificationsAreAllCorrect() throws Exception {
        final int threads = 8;
        final int passwordsPerThread = 12;
        final int rounds = 2_500;
        PasswordStorageScheme[] fast = {
            SaltedShaScheme.SSHA, SaltedShaScheme.SSHA256, SaltedShaScheme.SSHA384, SaltedShaScheme.SSHA512,
        };
        PasswordStorageScheme pbkdf2 = new Pbkdf2HmacSha256Scheme(500);

        // passwords[t][i] and their stored values, built single-threaded
        ByteString[][] passwords = new ByteString[threads][passwordsPerThread];
        ByteString[][] stored = new ByteString[threads][passwordsPerThread];
        for (int t = 0; t < threads; t++) {
            for (int i = 0; i < passwordsPerThread; i++) {
                // different lengths, so that digests of different inputs interleave
                passwords[t][i] = utf8("pw-" + t + "-" + i + "-" + "x".repeat((t * 7 + i) % 40));
                PasswordStorageScheme scheme = i == 0 ? pbkdf2 : fast[(t + i) % fast.length];
                stored[t][i] = utf8("{" + scheme.name() + "}" + scheme.encodeValue(passwords[t][i]));
            }
        }

        ExecutorService pool = Executors.newFixedThreadPool(threads);
        CountDownLatch start = new CountDownLatch(1);
        AtomicInteger wrongAnswers = new AtomicInteger();
        AtomicInteger verifications = new AtomicInteger();
        try {
            List<Future<?>> futures = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                final int me = t;
                futures.add(pool.submit(() -> {
                    start.await();
                    for (int r = 0; r < rounds; r++) {
                        // PBKDF2 (index 0) only every 50th round: it is a thousand times slower
                        int i = r % 50 == 0 ? 0 : 1 + r % (passwordsPerThread - 1);
                        int other = (me + 1 + r % (threads - 1)) % threads;
                        if (!STRICT.verify(passwords[me][i], stored[me][i])) {
                            wrongAnswers.incrementAndGet();
                        }
                        if (STRICT.verify(passwords[other][i], stored[me][i])) {
                            wrongAnswers.incrementAndGet();
                        }
                        verifications.addAndGet(2);
                    }
                    return null;
                }));
            }
            start.countDown();
            for (Future<?> future : futures) {
                future.get(110, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
        assertEquals(verifications.get(), threads * rounds * 2);
        assertEquals(wrongAnswers.get(), 0, "wrong answers under concurrency");
    }

    /**
     * Only digests without a cost parameter say a check is always one hash (the bind path then asks them no work
     * factor); a key derivation claiming it would skip the slow lane with a costly value.
     */
    @Test
    public void onlyDigestsWithoutACostSayTheyCostOneHash() {
        Set<String> oneHash = new TreeSet<>();
        for (String name : PasswordSchemes.knownNames()) {
            LENIENT.scheme(name).filter(PasswordStorageScheme::costsOneHash).ifPresent(s -> oneHash.add(s.name()));
        }
        Set<String> digests = new TreeSet<>();
        for (PasswordStorageScheme s : List.of(SaltedShaScheme.SSHA, SaltedShaScheme.SSHA256, SaltedShaScheme.SSHA384,
                SaltedShaScheme.SSHA512, SaltedShaScheme.SMD5, PlainDigestScheme.SHA, PlainDigestScheme.MD5)) {
            digests.add(s.name());
        }
        assertEquals(oneHash, digests);
    }
}
