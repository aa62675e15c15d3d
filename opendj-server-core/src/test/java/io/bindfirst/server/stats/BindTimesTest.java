package io.bindfirst.server.stats;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertSame;
import static org.testng.Assert.assertTrue;

import java.util.List;

import org.forgerock.opendj.ldap.ResultCode;
import org.testng.annotations.Test;

public class BindTimesTest {
    private static final List<String> SCHEMES = List.of("SSHA512", "PBKDF2-HMAC-SHA256");

    @Test
    public void eachBindGoesToTheSeriesOfItsSchemeAndOutcome() {
        BindTimes t = new BindTimes(SCHEMES);
        t.record(0, ResultCode.SUCCESS, 20_000);
        t.record(0, ResultCode.SUCCESS, 30_000);
        t.record(1, ResultCode.SUCCESS, 3_000_000);
        t.record(-1, ResultCode.INVALID_CREDENTIALS, 40_000);
        t.record(-1, ResultCode.BUSY, 1_000);
        t.record(7, ResultCode.SUCCESS, 5_000); // a number beyond the labels: none, never an exception
        List<BindTimes.Series> recorded = t.recorded();
        assertEquals(recorded.stream().map(s -> s.scheme() + " " + s.outcome().label() + " " + s.count()).toList(),
                List.of("none success 1", "none invalidCredentials 1", "none other 1", "SSHA512 success 2",
                        "PBKDF2-HMAC-SHA256 success 1"));
        BindTimes.Series ssha = recorded.get(3);
        assertEquals(ssha.sumNanos(), 50_000);
        long[] buckets = ssha.bucketCounts();
        assertEquals(buckets[1], 1, "20 us: the 25 us bucket");
        assertEquals(buckets[2], 1, "30 us: the 50 us bucket");
        assertSame(t.series(0, ResultCode.SUCCESS), ssha, "resolved once: the same series every time");
    }

    @Test
    public void quantilesAreTheUpperBoundsOfTheirBuckets() {
        BindTimes t = new BindTimes(SCHEMES);
        for (int i = 0; i < 98; i++) {
            t.record(0, ResultCode.SUCCESS, 8_000);
        }
        t.record(0, ResultCode.SUCCESS, 900_000);
        t.record(0, ResultCode.SUCCESS, 5_000_000_000L);
        long[] counts = t.series(0, ResultCode.SUCCESS).bucketCounts();
        assertEquals(BindTimes.quantileBoundMicros(counts, 0.5), 10);
        assertEquals(BindTimes.quantileBoundMicros(counts, 0.99), 1_000);
        assertEquals(BindTimes.quantileBoundMicros(counts, 1.0), Long.MAX_VALUE, "beyond the last bound");
        assertEquals(BindTimes.quantileBoundMicros(new long[counts.length], 0.5), -1);
        assertTrue(counts[counts.length - 1] == 1);
    }
}
