package io.bindfirst.server.testsupport;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertFalse;
import static org.testng.Assert.assertTrue;
import static org.testng.Assert.expectThrows;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

import org.testng.annotations.Test;

public class PollTest {

    @Test
    public void returnsOnceTheConditionHolds() throws Exception {
        AtomicInteger checks = new AtomicInteger();
        Poll.until("the third check", Duration.ofSeconds(10), () -> checks.incrementAndGet() == 3);
        assertEquals(checks.get(), 3);
    }

    @Test
    public void aTimeoutSaysWhatWasAwaitedAndForHowLong() {
        long t0 = System.nanoTime();
        AssertionError e = expectThrows(AssertionError.class,
                () -> Poll.until("the moon to turn blue", Duration.ofMillis(100), () -> false));
        long ms = Duration.ofNanos(System.nanoTime() - t0).toMillis();
        assertEquals(e.getMessage(), "Timed out after 100 ms waiting for: the moon to turn blue");
        assertTrue(ms >= 100, "gave up after " + ms + " ms");
    }

    @Test
    public void aProbeGivesItsAcceptedValueOrItsLastOneInTheFailure() throws Exception {
        AtomicInteger n = new AtomicInteger();
        assertEquals(Poll.until("a value past 2", Duration.ofSeconds(10), n::incrementAndGet, v -> v > 2),
                Integer.valueOf(3));
        AssertionError e = expectThrows(AssertionError.class,
                () -> Poll.until("no connections", Duration.ofMillis(50), () -> 7, v -> v == 0));
        assertEquals(e.getMessage(), "Timed out after 50 ms waiting for: no connections (last seen: 7)");
    }

    @Test
    public void withinChecksOnceMoreAtTheEndAndPassesExceptionsOn() throws Exception {
        assertTrue(Poll.within(Duration.ZERO, () -> true));
        assertFalse(Poll.within(Duration.ofMillis(20), () -> false));
        IllegalStateException thrown = new IllegalStateException("server gone");
        assertEquals(expectThrows(IllegalStateException.class, () -> Poll.within(Duration.ofSeconds(1), () -> {
            throw thrown;
        })), thrown);
    }
}
