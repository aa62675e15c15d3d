package io.bindfirst.backend.je;

import static org.testng.Assert.assertEquals;

import org.forgerock.opendj.ldap.ByteString;
import org.testng.annotations.Test;

/** A bulk load holds limit + 1 records of a key (enough for its marker) and every record of the others. */
public class OverLimitKeysTest {
    private static final int LIMIT = 5;

    @Test
    public void aRepeatedKeyIsHeldUntilOnePastTheLimitAndOthersAlways() {
        OverLimitKeys keys = new OverLimitKeys(LIMIT);
        assertEquals(held(keys, "person", 20), LIMIT + 1);
        assertEquals(held(keys, "top", LIMIT + 1), LIMIT + 1, "exactly one past the limit is still held");
        assertEquals(held(keys, "top", 3), 0);
        assertEquals(held(keys, "user.1", 1), 1);
        assertEquals(held(keys, "person", 1), 0, "another key in between changes nothing");
    }

    @Test
    public void afterTheTrackedKeysAllCameOnceCountingStopsAndEveryRecordIsHeld() {
        OverLimitKeys keys = new OverLimitKeys(LIMIT);
        for (int i = 0; i < OverLimitKeys.TRACKED; i++) {
            assertEquals(held(keys, "user." + i, 1), 1);
        }
        assertEquals(held(keys, "user." + OverLimitKeys.TRACKED, 1), 1, "one more new key, and counting stops");
        assertEquals(held(keys, "user.0", 20), 20, "no longer counted");
        assertEquals(held(keys, "user.1", 20), 20);
    }

    @Test
    public void onceAKeyRepeatedTheTrackedKeysAreStillCountedPastTheirNumber() {
        OverLimitKeys keys = new OverLimitKeys(LIMIT);
        assertEquals(held(keys, "person", 2), 2);
        for (int i = 0; i < 2 * OverLimitKeys.TRACKED; i++) {
            assertEquals(held(keys, "user." + i, 1), 1);
        }
        assertEquals(held(keys, "person", 20), LIMIT - 1, "still counted");
        assertEquals(held(keys, "user." + (OverLimitKeys.TRACKED + 1), 20), 20, "not tracked: held in full");
    }

    @Test
    public void aResetStartsTheCountsAgain() {
        OverLimitKeys keys = new OverLimitKeys(LIMIT);
        assertEquals(held(keys, "person", 20), LIMIT + 1);
        keys.reset();
        assertEquals(held(keys, "person", 20), LIMIT + 1);
    }

    private static int held(OverLimitKeys keys, String key, int times) {
        int held = 0;
        for (int i = 0; i < times; i++) {
            if (keys.hold(ByteString.valueOfUtf8(key))) {
                held++;
            }
        }
        return held;
    }
}
