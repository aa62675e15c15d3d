package io.bindfirst.server.pwd;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertFalse;
import static org.testng.Assert.assertTrue;
import static org.testng.Assert.expectThrows;

import java.security.SecureRandom;
import java.util.Arrays;

import org.forgerock.opendj.ldap.ByteString;
import org.testng.annotations.Test;

/** The cache alone: what it finds, what it does not, its bound, and off. */
public class VerifiedCredentialsTest {
    private static final ByteString ALICE = ByteString.valueOfUtf8("uid=alice,dc=example,dc=com");
    private static final ByteString BOB = ByteString.valueOfUtf8("uid=bob,dc=example,dc=com");
    private static final ByteString STORED = ByteString.valueOfUtf8("{PBKDF2-HMAC-SHA256}10000:c2FsdA==");
    private static final ByteString OTHER_STORED = ByteString.valueOfUtf8("{PBKDF2-HMAC-SHA256}10000:cGVwcGVy");
    private static final ByteString RIGHT = ByteString.valueOfUtf8("right password");
    private static final ByteString WRONG = ByteString.valueOfUtf8("wrong password");

    private static VerifiedCredentials cache(long size) {
        return new VerifiedCredentials(size, new SecureRandom());
    }

    @Test
    public void aRememberedPasswordIsFoundForItsEntryAndStoredValue() {
        VerifiedCredentials c = cache(10);
        assertFalse(c.holds(ALICE, STORED, c.mac(RIGHT)), "nothing before a success is remembered");
        c.remember(ALICE, STORED, c.mac(RIGHT));
        assertTrue(c.holds(ALICE, STORED, c.mac(RIGHT)));
        assertEquals(c.size(), 1);
    }

    @Test
    public void anotherPasswordMisses() {
        VerifiedCredentials c = cache(10);
        c.remember(ALICE, STORED, c.mac(RIGHT));
        assertFalse(c.holds(ALICE, STORED, c.mac(WRONG)));
        assertFalse(c.holds(ALICE, STORED, c.mac(ByteString.valueOfUtf8("right passwor"))));
    }

    @Test
    public void anotherStoredValueOrAnotherEntryMisses() {
        VerifiedCredentials c = cache(10);
        c.remember(ALICE, STORED, c.mac(RIGHT));
        // A password change, a new salt or a new work factor rewrites the stored value: the old record is
        // unreachable from the new one.
        assertFalse(c.holds(ALICE, OTHER_STORED, c.mac(RIGHT)));
        // The same stored value (same salt, same hash) under another entry is another key.
        assertFalse(c.holds(BOB, STORED, c.mac(RIGHT)));
    }

    @Test
    public void theMacIsKeyedPerInstanceAndIsNotThePassword() {
        VerifiedCredentials one = cache(10);
        VerifiedCredentials two = cache(10);
        byte[] mac = one.mac(RIGHT);
        assertEquals(mac.length, 32);
        assertTrue(Arrays.equals(mac, one.mac(RIGHT)), "one key per instance: the same password, the same HMAC");
        assertFalse(Arrays.equals(mac, two.mac(RIGHT)), "another instance has another random key");
        one.remember(ALICE, STORED, mac);
        assertFalse(one.holds(ALICE, STORED, two.mac(RIGHT)), "another key's HMAC of the right password misses");
    }

    @Test
    public void theRecordIsACopyOfTheMacGiven() {
        VerifiedCredentials c = cache(10);
        byte[] mac = c.mac(RIGHT);
        c.remember(ALICE, STORED, mac);
        Arrays.fill(mac, (byte) 0);
        assertTrue(c.holds(ALICE, STORED, c.mac(RIGHT)));
    }

    @Test
    public void theSizeIsBounded() {
        VerifiedCredentials c = cache(100);
        byte[] mac = c.mac(RIGHT);
        for (int i = 0; i < 5_000; i++) {
            c.remember(ByteString.valueOfUtf8("uid=user." + i + ",dc=example,dc=com"), STORED, mac);
        }
        assertTrue(c.size() <= 100, "held " + c.size() + " records, bound 100");
        assertTrue(c.size() > 0);
    }

    @Test
    public void zeroIsOff() {
        VerifiedCredentials c = cache(0);
        assertFalse(c.enabled());
        c.remember(ALICE, STORED, new byte[32]);
        assertFalse(c.holds(ALICE, STORED, new byte[32]));
        assertEquals(c.size(), 0);
        expectThrows(IllegalStateException.class, () -> c.mac(RIGHT));
        assertFalse(VerifiedCredentials.off().enabled());
        expectThrows(IllegalArgumentException.class, () -> cache(-1));
    }

    @Test
    public void toStringShowsNoSecret() {
        VerifiedCredentials c = cache(10);
        c.remember(ALICE, STORED, c.mac(RIGHT));
        assertEquals(c.toString(), "VerifiedCredentials{1 records}");
        assertEquals(VerifiedCredentials.off().toString(), "VerifiedCredentials{off}");
    }
}
