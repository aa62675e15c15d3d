package io.bindfirst.server.config;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertTrue;
import static org.testng.Assert.expectThrows;

import java.time.Duration;

import org.testng.annotations.Test;

public class ConfigUnitsTest {
    private static final String WHERE = "cn=File-Based Access Logger,cn=Loggers,cn=config: ds-cfg-file-size-limit";

    @Test
    public void sizesInOpenDjsUnits() throws Exception {
        assertEquals(ConfigUnits.bytes(WHERE, "100 mb"), 100_000_000L);
        assertEquals(ConfigUnits.bytes(WHERE, "512 KiB"), 512L * 1024);
        assertEquals(ConfigUnits.bytes(WHERE, "2gib"), 2L << 30);
        assertEquals(ConfigUnits.bytes(WHERE, "10 bytes"), 10L);
        assertEquals(ConfigUnits.bytes(WHERE, "0"), 0L);
    }

    @Test
    public void durationsInOpenDjsUnits() throws Exception {
        assertEquals(ConfigUnits.duration(WHERE, "1 d"), Duration.ofDays(1));
        assertEquals(ConfigUnits.duration(WHERE, "30 minutes"), Duration.ofMinutes(30));
        assertEquals(ConfigUnits.duration(WHERE, "2 w"), Duration.ofDays(14));
        assertEquals(ConfigUnits.duration(WHERE, "0"), Duration.ZERO);
    }

    @Test
    public void aValueWithoutAKnownUnitSaysWhereAndWhatIsExpected() {
        ConfigException e = expectThrows(ConfigException.class, () -> ConfigUnits.bytes(WHERE, "100"));
        assertTrue(e.getMessage().startsWith(WHERE + ": '100' is not a size such as 100 mb"), e.getMessage());
        e = expectThrows(ConfigException.class, () -> ConfigUnits.bytes(WHERE, "ten mb"));
        assertTrue(e.getMessage().contains("'ten mb' is not a size"), e.getMessage());
        e = expectThrows(ConfigException.class, () -> ConfigUnits.duration(WHERE, "5 parsecs"));
        assertTrue(e.getMessage().contains("'5 parsecs' is not a duration such as 1 d (units: ms, s, m, h, d, w)"),
                e.getMessage());
        e = expectThrows(ConfigException.class, () -> ConfigUnits.bytes(WHERE, "99999999999 gb"));
        assertTrue(e.getMessage().contains("too large"), e.getMessage());
    }
}
