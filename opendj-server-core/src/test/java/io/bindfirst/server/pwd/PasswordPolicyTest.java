package io.bindfirst.server.pwd;

import static org.testng.Assert.assertFalse;
import static org.testng.Assert.assertTrue;
import static org.testng.Assert.expectThrows;

import java.time.Duration;

import org.forgerock.opendj.ldap.DN;
import org.forgerock.opendj.ldap.GeneralizedTime;
import org.testng.annotations.Test;

public class PasswordPolicyTest {
    private static final DN DN_ = PasswordPolicies.DEFAULT_DN;
    private static final long NOW = GeneralizedTime.valueOf("20261124040000Z").getTimeInMillis();

    @Test
    public void withoutADurationEveryValueLocks() {
        PasswordPolicy p = PasswordPolicy.withoutLockout(DN_);
        assertFalse(p.locksOut());
        assertTrue(p.locks("19700101000000Z", NOW));
        assertTrue(p.locks("20261124035959Z", NOW));
        assertTrue(p.locks(PasswordPolicy.LOCKED_UNTIL_RESET, NOW));
    }

    @Test
    public void aDurationEndsTheLockButNotTheDraftsUntilResetValue() {
        PasswordPolicy p = new PasswordPolicy(DN_, 3, Duration.ofMinutes(5), Duration.ZERO);
        assertTrue(p.locksOut());
        assertTrue(p.locks("20261124035600Z", NOW), "locked 4 minutes ago");
        assertTrue(p.locks("20261124035500.001Z", NOW), "5 minutes less a millisecond ago");
        assertFalse(p.locks("20261124035500Z", NOW), "exactly 5 minutes ago: over");
        assertFalse(p.locks("20261123040000Z", NOW));
        assertTrue(p.locks(PasswordPolicy.LOCKED_UNTIL_RESET, NOW));
    }

    @Test
    public void anUnreadableLockLocks() {
        PasswordPolicy p = new PasswordPolicy(DN_, 3, Duration.ofMinutes(5), Duration.ZERO);
        assertTrue(p.locks("yesterday", NOW));
    }

    @Test
    public void negativeSettingsAreRefused() {
        expectThrows(IllegalArgumentException.class, () -> new PasswordPolicy(DN_, -1, Duration.ZERO, Duration.ZERO));
        expectThrows(IllegalArgumentException.class,
                () -> new PasswordPolicy(DN_, 1, Duration.ofSeconds(-1), Duration.ZERO));
    }
}
