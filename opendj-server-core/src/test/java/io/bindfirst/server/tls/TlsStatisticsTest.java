package io.bindfirst.server.tls;

import static org.testng.Assert.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import javax.net.ssl.SSLException;
import javax.net.ssl.SSLHandshakeException;

import org.testng.annotations.Test;

public class TlsStatisticsTest {
    @Test
    public void handshakeTimesFallInTheirBuckets() {
        TlsStatistics s = new TlsStatistics();
        s.handshakeFinished(TlsStatistics.Kind.FULL, "TLSv1.3", 400_000L); // 0.4 ms
        s.handshakeFinished(TlsStatistics.Kind.FULL, "TLSv1.3", 500_000L); // on the 0.5 ms bound
        s.handshakeFinished(TlsStatistics.Kind.RESUMED, "TLSv1.2", 3_000_000L);
        s.handshakeFinished(TlsStatistics.Kind.FULL, "TLSv1.3", 5_000_000_000L); // slower than the last bound
        Map<Long, Long> h = s.handshakeTimeHistogram();
        assertEquals(h.get(500L), Long.valueOf(2));
        assertEquals(h.get(5_000L), Long.valueOf(1));
        assertEquals(h.get(Long.MAX_VALUE), Long.valueOf(1));
        assertEquals(h.values().stream().mapToLong(Long::longValue).sum(), 4);
        assertEquals(s.full(), 3);
        assertEquals(s.resumed(), 1);
        assertEquals(s.handshakeTimeTotalMicros(), 400 + 500 + 3_000 + 5_000_000);
    }

    @Test
    public void openConnectionsByProtocolGoUpAndDown() {
        TlsStatistics s = new TlsStatistics();
        s.handshakeFinished(TlsStatistics.Kind.FULL, "TLSv1.3", 1);
        s.handshakeFinished(TlsStatistics.Kind.FULL, "TLSv1.3", 1);
        s.handshakeFinished(TlsStatistics.Kind.FULL, "TLSv1.2", 1);
        s.connectionClosed("TLSv1.3");
        assertEquals(s.openByProtocol(), Map.of("TLSv1.3", 1L, "TLSv1.2", 1L));
    }

    @Test
    public void failureReasonsAreShortNamesNeverThePeersData() {
        assertEquals(TlsStatistics.reasonOf(null), "closed");
        assertEquals(TlsStatistics.reasonOf(new SSLHandshakeException(
                "Client requested protocol TLSv1.1 is not enabled or supported in server context")),
                "protocol_version");
        assertEquals(TlsStatistics.reasonOf(new SSLHandshakeException("no cipher suites in common")),
                "no_shared_cipher");
        assertEquals(TlsStatistics.reasonOf(new SSLException("Unsupported or unrecognized SSL message")), "not_tls");
        assertEquals(TlsStatistics.reasonOf(new SSLHandshakeException("something new")), "handshake");
        assertEquals(TlsStatistics.reasonOf(new IllegalStateException("x")), "other");
    }

    /** Counted from many selector threads at once: nothing is lost. */
    @Test
    public void concurrentCountsAddUp() throws Exception {
        TlsStatistics s = new TlsStatistics();
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < 8; t++) {
            Thread th = new Thread(() -> {
                for (int i = 0; i < 10_000; i++) {
                    s.handshakeStarted();
                    s.handshakeFinished(TlsStatistics.Kind.FULL, "TLSv1.3", i * 1_000L);
                    s.handshakeFailed("timeout");
                    s.connectionClosed("TLSv1.3");
                }
            });
            threads.add(th);
            th.start();
        }
        for (Thread th : threads) {
            th.join();
        }
        assertEquals(s.started(), 80_000);
        assertEquals(s.full(), 80_000);
        assertEquals(s.failures(), Map.of("timeout", 80_000L));
        assertEquals(s.openByProtocol(), Map.of("TLSv1.3", 0L));
        assertEquals(s.handshakeTimeHistogram().values().stream().mapToLong(Long::longValue).sum(), 80_000);
    }
}
