package io.bindfirst.server.tls;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.LongAdder;

import javax.net.ssl.SSLHandshakeException;
import javax.net.ssl.SSLSession;

/**
 * What the server's TLS handshakes did since the start, for a monitor to read: handshakes begun, finished
 * (full or resumed), failed (by reason), how long they took, and the TLS connections open now by protocol.
 * Updated from the selector threads that run the handshakes, so every count is a {@link LongAdder} or an
 * atomic: no lock on the connection path.
 */
public final class TlsStatistics {
    /** Upper bounds of the handshake-time buckets, in microseconds; one more bucket holds what is slower. */
    private static final long[] BUCKET_BOUNDS_MICROS = {500, 1_000, 2_000, 5_000, 10_000, 25_000, 50_000,
        100_000, 250_000, 1_000_000};

    /** A handshake's outcome as counted: the protocol it agreed and whether it resumed an earlier session. */
    public enum Kind {
        FULL, RESUMED
    }

    private final LongAdder started = new LongAdder();
    private final LongAdder full = new LongAdder();
    private final LongAdder resumed = new LongAdder();
    private final ConcurrentHashMap<String, LongAdder> failures = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<String, LongAdder> openByProtocol = new ConcurrentHashMap<>();
    private final AtomicLongArray timeBuckets = new AtomicLongArray(BUCKET_BOUNDS_MICROS.length + 1);
    private final LongAdder timeTotalMicros = new LongAdder();

    public void handshakeStarted() {
        started.increment();
    }

    /**
     * A handshake finished: counts it as full or resumed, puts its time in the histogram and the connection
     * among the open ones of its protocol (until {@link #connectionClosed}).
     */
    public void handshakeFinished(Kind kind, String protocol, long nanos) {
        (kind == Kind.RESUMED ? resumed : full).increment();
        long micros = Math.max(0, nanos / 1_000);
        timeBuckets.incrementAndGet(bucketOf(micros));
        timeTotalMicros.add(micros);
        openByProtocol.computeIfAbsent(protocol, p -> new LongAdder()).increment();
    }

    /** A handshake failed, or its connection closed before it finished. */
    public void handshakeFailed(String reason) {
        failures.computeIfAbsent(reason, r -> new LongAdder()).increment();
    }

    /** A connection whose handshake had finished closed. */
    public void connectionClosed(String protocol) {
        LongAdder open = openByProtocol.get(protocol);
        if (open != null) {
            open.decrement();
        }
    }

    /**
     * Whether a finished handshake resumed a session: a resumed session is the one created by an earlier
     * handshake (TLS 1.2 session ID, TLS 1.3 pre-shared key), so it was created before this handshake began.
     *
     * @param creationTimeResolutionMillis how finely the provider keeps session creation times: 1 for the JDK,
     *        1000 for BoringSSL (whole seconds), where only a session from an earlier second than the handshake
     *        is surely an earlier one, so one resumed within a second of its creation counts as full
     */
    public static Kind kindOf(SSLSession session, long handshakeStartMillis, long creationTimeResolutionMillis) {
        long start = handshakeStartMillis - handshakeStartMillis % creationTimeResolutionMillis;
        return session.getCreationTime() < start ? Kind.RESUMED : Kind.FULL;
    }

    /** A failure's reason as counted: a short, stable name, never the peer's data. */
    public static String reasonOf(Throwable t) {
        if (t == null) {
            return "closed";
        }
        String message = String.valueOf(t.getMessage()).toLowerCase(Locale.ROOT);
        if (message.contains("no appropriate protocol") || message.contains("unsupported protocol")
                || message.contains("protocol_version") || message.contains("client requested protocol")) {
            return "protocol_version";
        }
        if (message.contains("no cipher") || message.contains("handshake_failure")) {
            return "no_shared_cipher";
        }
        if (message.contains("certificate") || message.contains("bad_certificate")) {
            return "certificate";
        }
        if (message.contains("unrecognized ssl message") || message.contains("plaintext")
                || message.contains("unsupported or unrecognized")) {
            return "not_tls";
        }
        return t instanceof SSLHandshakeException ? "handshake" : "other";
    }

    static int bucketOf(long micros) {
        for (int i = 0; i < BUCKET_BOUNDS_MICROS.length; i++) {
            if (micros <= BUCKET_BOUNDS_MICROS[i]) {
                return i;
            }
        }
        return BUCKET_BOUNDS_MICROS.length;
    }

    public long started() {
        return started.sum();
    }

    public long full() {
        return full.sum();
    }

    public long resumed() {
        return resumed.sum();
    }

    /** Failures by reason ({@link #reasonOf}), and handshakes cut short by the handshake time limit. */
    public Map<String, Long> failures() {
        Map<String, Long> out = new LinkedHashMap<>();
        failures.forEach((r, n) -> out.put(r, n.sum()));
        return out;
    }

    /** TLS connections open now whose handshake finished, by negotiated protocol ("TLSv1.3", "TLSv1.2"). */
    public Map<String, Long> openByProtocol() {
        Map<String, Long> out = new LinkedHashMap<>();
        openByProtocol.forEach((p, n) -> out.put(p, n.sum()));
        return out;
    }

    /**
     * The handshake-time histogram: bucket upper bound in microseconds ({@code Long.MAX_VALUE} for the last)
     * to the number of finished handshakes that took at most that long and more than the bound before.
     */
    public Map<Long, Long> handshakeTimeHistogram() {
        Map<Long, Long> out = new LinkedHashMap<>();
        for (int i = 0; i <= BUCKET_BOUNDS_MICROS.length; i++) {
            long bound = i < BUCKET_BOUNDS_MICROS.length ? BUCKET_BOUNDS_MICROS[i] : Long.MAX_VALUE;
            out.put(bound, timeBuckets.get(i));
        }
        return out;
    }

    /** Sum of finished handshakes' times, in microseconds (with the count, the mean). */
    public long handshakeTimeTotalMicros() {
        return timeTotalMicros.sum();
    }
}
