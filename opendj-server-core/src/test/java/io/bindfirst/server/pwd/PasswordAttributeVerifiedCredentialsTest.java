package io.bindfirst.server.pwd;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertFalse;
import static org.testng.Assert.assertTrue;

import java.security.SecureRandom;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import org.forgerock.opendj.ldap.ByteString;
import org.forgerock.opendj.ldap.Entry;
import org.forgerock.opendj.ldap.LinkedAttribute;
import org.forgerock.opendj.ldap.LinkedHashMapEntry;
import org.forgerock.opendj.ldap.schema.Schema;
import org.testng.annotations.Test;

/**
 * {@link PasswordAttribute} with the verified-credential cache: which checks derive a key and which answer from
 * a record, counted through the {@link Pacer} that PBKDF2 calls every 1,024 iterations.
 */
public class PasswordAttributeVerifiedCredentialsTest {
    private static final Schema SCHEMA = Schema.getCoreSchema();
    private static final PasswordSchemes SCHEMES = new PasswordSchemes("SSHA", false);
    private static final int ITERATIONS = 4_096;
    /** PBKDF2 paces after every 1,024 iterations past the first of each block: 3 times for 4,096. */
    private static final int PACES_PER_DERIVATION = (ITERATIONS - 1) / 1_024;
    private static final ByteString RIGHT = ByteString.valueOfUtf8("right password");
    private static final ByteString WRONG = ByteString.valueOfUtf8("wrong password");

    private final AtomicInteger paces = new AtomicInteger();
    private final Pacer counting = paces::incrementAndGet;

    private static ByteString pbkdf2(ByteString clear) {
        return ByteString.valueOfUtf8("{PBKDF2-HMAC-SHA256}"
                + new Pbkdf2HmacSha256Scheme(ITERATIONS).encodeValue(clear));
    }

    private static ByteString ssha(ByteString clear) {
        return ByteString.valueOfUtf8("{SSHA}" + SaltedShaScheme.SSHA.encodeValue(clear));
    }

    private static Entry entry(String dn, ByteString... stored) {
        Entry e = new LinkedHashMapEntry(dn);
        e.addAttribute(new LinkedAttribute(PasswordAttribute.description(SCHEMA), List.of(stored)));
        return e;
    }

    /** Checks {@code clear} and says how many PBKDF2 derivations ran. */
    private int derivations(PasswordAttribute passwords, Entry e, ByteString clear, boolean expected) {
        paces.set(0);
        assertEquals(passwords.anyMatches(e, clear, counting), expected);
        return paces.get() / PACES_PER_DERIVATION;
    }

    @Test
    public void aReBindWithTheSamePasswordDerivesNothingAndCostsOneHash() {
        VerifiedCredentials cache = new VerifiedCredentials(100, new SecureRandom());
        PasswordAttribute passwords = new PasswordAttribute(SCHEMA, SCHEMES, cache);
        Entry e = entry("uid=u,dc=example,dc=com", pbkdf2(RIGHT));
        assertEquals(passwords.workFactor(e, RIGHT), ITERATIONS);
        assertEquals(derivations(passwords, e, RIGHT, true), 1);
        assertEquals(passwords.workFactor(e, RIGHT), 1, "proven once: one HMAC now");
        assertEquals(derivations(passwords, e, RIGHT, true), 0);
        assertEquals(cache.size(), 1);
    }

    /** What a selector thread may ask: an answer only when no derivation is needed, and it never derives. */
    @Test
    public void withoutDerivingOnlyOneHashOrARecordAnswers() {
        VerifiedCredentials cache = new VerifiedCredentials(100, new SecureRandom());
        PasswordAttribute passwords = new PasswordAttribute(SCHEMA, SCHEMES, cache);
        Entry cheap = entry("uid=c,dc=example,dc=com", ssha(RIGHT));
        assertEquals(passwords.matchesWithoutDeriving(cheap, RIGHT), java.util.Optional.of(true));
        assertEquals(passwords.matchesWithoutDeriving(cheap, WRONG), java.util.Optional.of(false));
        Entry costly = entry("uid=u,dc=example,dc=com", pbkdf2(RIGHT));
        assertTrue(passwords.matchesWithoutDeriving(costly, RIGHT).isEmpty(), "not proven yet: a worker derives");
        assertEquals(cache.size(), 0, "asking proves nothing");
        assertEquals(derivations(passwords, costly, RIGHT, true), 1);
        assertEquals(passwords.matchesWithoutDeriving(costly, RIGHT), java.util.Optional.of(true));
        assertTrue(passwords.matchesWithoutDeriving(costly, WRONG).isEmpty(), "a wrong one is never answered here");
        PasswordAttribute off = new PasswordAttribute(SCHEMA, SCHEMES, VerifiedCredentials.off());
        assertTrue(off.matchesWithoutDeriving(costly, RIGHT).isEmpty());
    }

    @Test
    public void wrongPasswordsAreNeverRememberedAndStayCostly() {
        VerifiedCredentials cache = new VerifiedCredentials(100, new SecureRandom());
        PasswordAttribute passwords = new PasswordAttribute(SCHEMA, SCHEMES, cache);
        Entry e = entry("uid=u,dc=example,dc=com", pbkdf2(RIGHT));
        assertEquals(derivations(passwords, e, WRONG, false), 1);
        assertEquals(derivations(passwords, e, WRONG, false), 1);
        assertEquals(cache.size(), 0);
        assertEquals(derivations(passwords, e, RIGHT, true), 1);
        // With the right one remembered, a wrong one still derives (and so still goes to the slow lane).
        assertEquals(passwords.workFactor(e, WRONG), ITERATIONS);
        assertEquals(derivations(passwords, e, WRONG, false), 1);
        assertEquals(cache.size(), 1);
    }

    @Test
    public void aNewStoredValueMissesAndTheOldPasswordFailsAgainstIt() {
        VerifiedCredentials cache = new VerifiedCredentials(100, new SecureRandom());
        PasswordAttribute passwords = new PasswordAttribute(SCHEMA, SCHEMES, cache);
        String dn = "uid=u,dc=example,dc=com";
        assertEquals(derivations(passwords, entry(dn, pbkdf2(RIGHT)), RIGHT, true), 1);
        // A password change: the old password is checked against the new value in full, and fails.
        Entry changed = entry(dn, pbkdf2(WRONG));
        assertEquals(passwords.workFactor(changed, RIGHT), ITERATIONS);
        assertEquals(derivations(passwords, changed, RIGHT, false), 1);
        // The same password stored again with a new salt: a new value, proven again once.
        Entry resalted = entry(dn, pbkdf2(RIGHT));
        assertEquals(derivations(passwords, resalted, RIGHT, true), 1);
        assertEquals(derivations(passwords, resalted, RIGHT, true), 0);
    }

    @Test
    public void anotherEntryWithTheSameStoredValueMisses() {
        PasswordAttribute passwords = new PasswordAttribute(SCHEMA, SCHEMES,
                new VerifiedCredentials(100, new SecureRandom()));
        ByteString stored = pbkdf2(RIGHT);
        assertEquals(derivations(passwords, entry("uid=a,dc=example,dc=com", stored), RIGHT, true), 1);
        assertEquals(derivations(passwords, entry("uid=b,dc=example,dc=com", stored), RIGHT, true), 1);
    }

    @Test
    public void everyCostlyValueIsCheckedAndEachOneThatMatchedIsRemembered() {
        VerifiedCredentials cache = new VerifiedCredentials(100, new SecureRandom());
        PasswordAttribute passwords = new PasswordAttribute(SCHEMA, SCHEMES, cache);
        Entry e = entry("uid=u,dc=example,dc=com", pbkdf2(WRONG), pbkdf2(RIGHT), ssha(WRONG));
        assertEquals(derivations(passwords, e, RIGHT, true), 2, "no early exit on a miss");
        assertEquals(cache.size(), 1, "only the value that matched");
        assertEquals(derivations(passwords, e, RIGHT, true), 0);
        assertEquals(derivations(passwords, e, WRONG, true), 2, "the other password misses: every value again");
        assertEquals(cache.size(), 2);
        assertEquals(derivations(passwords, e, WRONG, true), 0);
    }

    @Test
    public void cheapValuesAreNotRemembered() {
        VerifiedCredentials cache = new VerifiedCredentials(100, new SecureRandom());
        PasswordAttribute passwords = new PasswordAttribute(SCHEMA, SCHEMES, cache);
        Entry e = entry("uid=u,dc=example,dc=com", ssha(RIGHT));
        assertTrue(passwords.anyMatches(e, RIGHT, Pacer.NONE));
        assertEquals(cache.size(), 0);
        assertEquals(passwords.workFactor(e, RIGHT), 1);
    }

    @Test
    public void offEveryCheckDerives() {
        PasswordAttribute passwords = new PasswordAttribute(SCHEMA, SCHEMES, VerifiedCredentials.off());
        Entry e = entry("uid=u,dc=example,dc=com", pbkdf2(RIGHT));
        for (int i = 0; i < 3; i++) {
            assertEquals(derivations(passwords, e, RIGHT, true), 1);
            assertEquals(passwords.workFactor(e, RIGHT), ITERATIONS);
        }
        assertFalse(passwords.anyMatches(e, WRONG, Pacer.NONE));
    }

    /**
     * Each check that asks the cache counts once, a hit or a miss; the look-ups that only decide where a bind
     * runs ({@code workFactor}, an undecided answer without deriving) count nothing.
     */
    @Test
    public void eachCheckThatAsksCountsOneHitOrOneMiss() {
        VerifiedCredentials cache = new VerifiedCredentials(100, new SecureRandom());
        PasswordAttribute passwords = new PasswordAttribute(SCHEMA, SCHEMES, cache);
        Entry costly = entry("uid=u,dc=example,dc=com", pbkdf2(RIGHT), pbkdf2(WRONG));
        assertEquals(passwords.matchingSchemeWithoutDeriving(costly, RIGHT), PasswordAttribute.UNDECIDED);
        passwords.workFactor(costly, RIGHT);
        assertEquals(cache.hits() + cache.misses(), 0, "deciding where to check is not a check");
        assertTrue(passwords.anyMatches(costly, RIGHT, Pacer.NONE));
        assertEquals(cache.misses(), 1, "two values looked up, one check");
        passwords.workFactor(costly, RIGHT);
        assertTrue(passwords.anyMatches(costly, RIGHT, Pacer.NONE));
        assertEquals(passwords.matchesWithoutDeriving(costly, RIGHT), java.util.Optional.of(true));
        assertEquals(cache.hits(), 2);
        passwords.anyMatches(entry("uid=c,dc=example,dc=com", ssha(RIGHT)), RIGHT, Pacer.NONE);
        assertEquals(cache.hits() + cache.misses(), 3, "a cheap value never asks the cache");
    }

    /** The scheme of the value that matched, whether derived or answered by a record; none for no match. */
    @Test
    public void theMatchingSchemeIsTheMatchingValuesOwn() {
        PasswordAttribute passwords = new PasswordAttribute(SCHEMA, SCHEMES,
                new VerifiedCredentials(100, new SecureRandom()));
        List<String> labels = PasswordSchemes.schemeLabels();
        Entry e = entry("uid=u,dc=example,dc=com", ssha(WRONG), pbkdf2(RIGHT));
        assertEquals(labels.get(passwords.matchingScheme(e, RIGHT, Pacer.NONE)), "PBKDF2-HMAC-SHA256");
        assertEquals(labels.get(passwords.matchingSchemeWithoutDeriving(e, RIGHT)), "PBKDF2-HMAC-SHA256",
                "from the record");
        assertEquals(labels.get(passwords.matchingScheme(e, WRONG, Pacer.NONE)), "SSHA");
        assertEquals(passwords.matchingScheme(e, ByteString.valueOfUtf8("neither"), Pacer.NONE),
                PasswordSchemes.NO_MATCH);
        PasswordAttribute clear = new PasswordAttribute(SCHEMA, new PasswordSchemes("SSHA", true));
        assertEquals(labels.get(clear.matchingScheme(List.of(RIGHT), RIGHT, Pacer.NONE)), PasswordSchemes.CLEAR_TEXT);
    }
}
