package io.bindfirst.server.pwd;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertTrue;
import static org.testng.Assert.expectThrows;

import org.forgerock.opendj.ldap.ByteString;
import org.testng.annotations.DataProvider;
import org.testng.annotations.Test;

/**
 * The configured costs reach the values the default scheme writes, and those values check: each scheme with a
 * cost, encoded at a cost other than its default, read back by the same server's schemes.
 */
public class SchemeCostsTest {
    private static final ByteString PASSWORD = ByteString.valueOfUtf8("a secret");
    private static final SchemeCosts COSTS = new SchemeCosts(1234, 5, 2048, 1, 2);

    @DataProvider
    public Object[][] schemes() {
        return new Object[][] {
            // scheme, what the encoded value (after {NAME}) shows of the cost, or null to read it as a work factor
            {"PBKDF2-HMAC-SHA256", null},
            {"PBKDF2-HMAC-SHA512", "1234:"},
            {"PBKDF2-SHA512", "1234$"},
            {"PBKDF2", "1234$"},
            {"PBKDF2_SHA256", "AAAE0"}, // 389: the count in the first 4 bytes, 0x000004d2
            {"BCRYPT", "$2b$05$"},
            {"ARGON2", "$argon2id$v=19$m=2048,t=1,p=2$"},
        };
    }

    @Test(dataProvider = "schemes")
    public void newValuesCarryTheConfiguredCostAndCheck(String scheme, String costShown) {
        PasswordSchemes schemes = new PasswordSchemes(scheme, false, COSTS);
        ByteString stored = schemes.encode(PASSWORD);
        String value = stored.toString().substring(scheme.length() + 2);
        if (costShown == null) {
            assertEquals(schemes.workFactor(stored), 1234, value);
        } else {
            assertTrue(value.startsWith(costShown), value);
        }
        assertTrue(schemes.verify(PASSWORD, stored));
        assertTrue(!schemes.verify(ByteString.valueOfUtf8("a secreT"), stored));
        assertTrue(new PasswordSchemes("SSHA512", false).verify(PASSWORD, stored), "any server reads it");
    }

    @Test
    public void theDefaultsAreTheSchemesOwn() {
        ByteString stored = new PasswordSchemes("PBKDF2-HMAC-SHA256", false).encode(PASSWORD);
        assertEquals(new PasswordSchemes("SSHA512", false).workFactor(stored),
                Pbkdf2HmacSha256Scheme.DEFAULT_ITERATIONS);
        assertTrue(new PasswordSchemes("BCRYPT", false).encode(PASSWORD).toString().startsWith("{BCRYPT}$2b$10$"));
    }

    @Test
    public void aCostOutOfRangeNamesItsSetting() {
        IllegalArgumentException e = expectThrows(IllegalArgumentException.class,
                () -> new SchemeCosts(10_000, 3, 2048, 1, 1));
        assertTrue(e.getMessage().contains("ds-cfg-bcrypt-cost") && e.getMessage().contains("4 and 15"),
                e.getMessage());
        e = expectThrows(IllegalArgumentException.class, () -> new SchemeCosts(0, 10, 2048, 1, 1));
        assertTrue(e.getMessage().contains("ds-cfg-pbkdf2-iterations"), e.getMessage());
        e = expectThrows(IllegalArgumentException.class, () -> new SchemeCosts(10_000, 10, 512, 1, 1));
        assertTrue(e.getMessage().contains("ds-cfg-argon2-memory"), e.getMessage());
    }
}
