package io.bindfirst.it;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertTrue;
import static org.testng.Assert.fail;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

import org.HdrHistogram.Histogram;
import org.testng.annotations.Test;

import com.unboundid.ldap.sdk.BindResult;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPConnectionOptions;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.SimpleBindRequest;

/**
 * End-to-end bind latency: N client threads, each with its own persistent connection, re-binding (simple
 * bind) as a uniformly random user {@code uid=user.R,ou=People,dc=example,dc=com} / {@code password} with
 * {@code 0 <= R < users}. Each bind's latency (System.nanoTime around the synchronous
 * {@link LDAPConnection#bind}) goes into a per-thread HdrHistogram (1 µs to 60 s, 3 significant digits); the
 * histograms are merged at the end. A bind counts in the window in which it completes: those completing in
 * the warm-up are discarded. Every non-success (a bind result other than success, a timeout, a refused or
 * broken connection) is an error and is counted, never waited on: connections have connect and response
 * timeouts, a broken one is reopened after a short pause, and every thread stops at the deadline.
 *
 * <p>Without {@code -Dbind.bench=true} this is a short smoke run that CI executes on every build (4 threads,
 * 1 s warm-up, 3 s measured, a started server with 1,000 users): it asserts that no bind failed and that
 * binds were done, never a timing. With {@code -Dbind.bench=true} it is the full benchmark, set by
 * {@code bind.bench.threads} (16), {@code bind.bench.durationSeconds} (30), {@code bind.bench.warmupSeconds}
 * (10), {@code bind.bench.users} (10,000: the users the started server creates, or the range bound against
 * on a given server), {@code bind.bench.host} / {@code bind.bench.port} (aim at a server already listening
 * instead of starting one) and {@code bind.bench.label} ("bindfirst"). Those reach the forked test JVM only
 * through the surefire {@code systemPropertyVariables} of this module's pom.
 *
 * <p>Each run prints one {@code BIND-BENCH} line and writes it to {@code target/bind-bench/}: a row appended
 * to {@code bind-bench.csv} and one JSON file named after the label and the time (with the merged
 * histogram, base64 of its compressed encoding, for later merging or re-reading).
 *
 * <p>A started server runs in this JVM, with the shipped configuration (access log on): client and server
 * share the CPUs, the heap and the garbage collector. Figures from it are for comparing runs side by side on
 * one machine, not absolute numbers.
 */
public class BindLatencyBenchmarkTestCase {
    private static final String PREFIX = "bind.bench.";
    private static final byte[] PASSWORD = TestServer.USER_PASSWORD.getBytes(StandardCharsets.UTF_8);
    private static final long LOWEST_NANOS = TimeUnit.MICROSECONDS.toNanos(1);
    private static final long HIGHEST_NANOS = TimeUnit.SECONDS.toNanos(60);
    private static final int CONNECT_TIMEOUT_MS = 5_000;
    /** A bind not answered in this long is a (timeout) error; it also bounds how late a thread can stop. */
    private static final long RESPONSE_TIMEOUT_MS = 10_000;
    /** Pause after a failed connect, so that a dead server gives a count of errors rather than a busy loop. */
    private static final long RECONNECT_PAUSE_MS = 50;
    private static final DateTimeFormatter FILE_TIME =
            DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss.SSS'Z'").withZone(ZoneOffset.UTC);
    private static final String CSV_HEADER = "timestamp,label,mode,target,users,threads,warmup_s,duration_s,"
            + "binds,binds_per_s,mean_ms,p50_ms,p90_ms,p99_ms,p999_ms,max_ms,errors,warmup_errors";

    @Test
    public void bindLatency() throws Exception {
        Settings s = Settings.fromSystemProperties();
        TestServer started = null;
        try {
            String host = s.host;
            int port = s.port;
            if (port == 0) {
                started = TestServer.start(s.users);
                host = "127.0.0.1";
                port = started.port();
            }
            preflight(host, port, s.users);
            Result r = run(host, port, s, started == null ? host + ":" + port : "in-process");
            System.out.println(r.line());
            write(r);
            assertEquals(r.errors, 0, "binds that failed in the measured window: " + r.errorSummary());
            assertEquals(r.warmupErrors, 0, "binds that failed in the warm-up: " + r.errorSummary());
            assertTrue(r.histogram.getTotalCount() > 0, "no bind completed in the measured window");
        } finally {
            if (started != null) {
                started.close();
            }
        }
    }

    /**
     * One bind as the first and as the last user of the range before the load: a wrong port, a server
     * down or a range larger than the server's data then fails at once with a clear message.
     */
    private static void preflight(String host, int port, int users) {
        for (int n : new int[] {0, users - 1}) {
            try (LDAPConnection c = connect(host, port)) {
                c.bind(new SimpleBindRequest(TestServer.user(n), PASSWORD));
            } catch (LDAPException e) {
                fail("cannot bind as " + TestServer.user(n) + " on " + host + ":" + port
                        + " (is the server up, and does it hold users 0.." + (users - 1) + "?): " + e, e);
            }
        }
    }

    private static LDAPConnection connect(String host, int port) throws LDAPException {
        LDAPConnectionOptions o = new LDAPConnectionOptions();
        // No reader thread per connection: the calling thread reads its own response. Cheaper at 200 threads.
        o.setUseSynchronousMode(true);
        o.setConnectTimeoutMillis(CONNECT_TIMEOUT_MS);
        o.setResponseTimeoutMillis(RESPONSE_TIMEOUT_MS);
        return new LDAPConnection(o, host, port);
    }

    private static Result run(String host, int port, Settings s, String target) throws InterruptedException {
        long start = System.nanoTime();
        long measureFrom = start + TimeUnit.SECONDS.toNanos(s.warmupSeconds);
        long measureTo = measureFrom + TimeUnit.SECONDS.toNanos(s.durationSeconds);
        List<Worker> workers = new ArrayList<>();
        CountDownLatch done = new CountDownLatch(s.threads);
        for (int i = 0; i < s.threads; i++) {
            Worker w = new Worker(host, port, s.users, measureFrom, measureTo, done);
            Thread t = new Thread(w, "bind-bench-" + i);
            t.setDaemon(true);
            w.thread = t;
            workers.add(w);
        }
        for (Worker w : workers) {
            w.thread.start();
        }
        // Each thread checks the deadline before every bind; one in flight ends within the response timeout.
        long graceMs = RESPONSE_TIMEOUT_MS + CONNECT_TIMEOUT_MS + 5_000;
        long waitMs = TimeUnit.NANOSECONDS.toMillis(measureTo - System.nanoTime()) + graceMs;
        boolean stopped = done.await(Math.max(waitMs, graceMs), TimeUnit.MILLISECONDS);
        if (!stopped) {
            for (Worker w : workers) {
                w.abort();
            }
            done.await(5, TimeUnit.SECONDS);
        }
        assertTrue(stopped, "bind threads still running " + graceMs + " ms after the deadline");
        // The latch orders every thread's writes before these reads.
        Result r = new Result(s, target, Instant.now());
        for (Worker w : workers) {
            r.histogram.add(w.histogram);
            r.errors += w.errors;
            r.warmupErrors += w.warmupErrors;
            w.errorsByCause.forEach((k, v) -> r.errorsByCause.merge(k, v, Long::sum));
        }
        return r;
    }

    /** One client thread with its own connection. */
    private static final class Worker implements Runnable {
        private final String host;
        private final int port;
        private final int users;
        private final long measureFrom;
        private final long measureTo;
        private final CountDownLatch done;
        final Histogram histogram = new Histogram(LOWEST_NANOS, HIGHEST_NANOS, 3);
        final Map<String, Long> errorsByCause = new TreeMap<>();
        long errors;
        long warmupErrors;
        Thread thread;
        private volatile LDAPConnection connection;
        private volatile boolean aborted;

        Worker(String host, int port, int users, long measureFrom, long measureTo, CountDownLatch done) {
            this.host = host;
            this.port = port;
            this.users = users;
            this.measureFrom = measureFrom;
            this.measureTo = measureTo;
            this.done = done;
        }

        @Override
        public void run() {
            try {
                loop();
            } catch (RuntimeException | Error e) {
                // Not a bind failure but a fault of this client: counted as an error so the run fails.
                errors++;
                errorsByCause.merge("client thread died: " + e, 1L, Long::sum);
            } finally {
                LDAPConnection c = connection;
                if (c != null) {
                    c.close();
                }
                done.countDown();
            }
        }

        private void loop() {
            ThreadLocalRandom random = ThreadLocalRandom.current();
            StringBuilder dn = new StringBuilder(64);
            while (!aborted && System.nanoTime() < measureTo) {
                LDAPConnection c = connection;
                if (c == null) {
                    try {
                        connection = connect(host, port);
                    } catch (LDAPException e) {
                        error(System.nanoTime(), "connect: " + e.getResultCode());
                        pause();
                    }
                    continue;
                }
                dn.setLength(0);
                dn.append("uid=user.").append(random.nextInt(users)).append(',').append(TestServer.PEOPLE);
                SimpleBindRequest request = new SimpleBindRequest(dn.toString(), PASSWORD);
                long t0 = System.nanoTime();
                ResultCode code;
                try {
                    BindResult result = c.bind(request);
                    code = result.getResultCode();
                } catch (LDAPException e) {
                    code = e.getResultCode();
                }
                long t1 = System.nanoTime();
                if (code == ResultCode.SUCCESS) {
                    if (t1 >= measureFrom && t1 < measureTo) {
                        histogram.recordValue(Math.min(Math.max(t1 - t0, LOWEST_NANOS), HIGHEST_NANOS));
                    }
                } else {
                    error(t1, "bind: " + code);
                    // A client-side code (timeout, server down, decoding error) leaves the connection in
                    // doubt: a late response could be read as the next bind's. Open a fresh one.
                    if (code.isClientSideResultCode() || !c.isConnected()) {
                        c.close();
                        connection = null;
                    }
                }
            }
        }

        private void error(long at, String cause) {
            if (at < measureFrom) {
                warmupErrors++;
            } else if (at < measureTo) {
                errors++;
            } else {
                return;
            }
            errorsByCause.merge(cause, 1L, Long::sum);
        }

        private void pause() {
            long left = TimeUnit.NANOSECONDS.toMillis(measureTo - System.nanoTime());
            if (left > 0) {
                try {
                    Thread.sleep(Math.min(RECONNECT_PAUSE_MS, left));
                } catch (InterruptedException e) {
                    aborted = true;
                    Thread.currentThread().interrupt();
                }
            }
        }

        /** Stops a thread stuck past its deadline: closing the socket ends a blocked read. */
        void abort() {
            aborted = true;
            LDAPConnection c = connection;
            if (c != null) {
                c.close();
            }
            thread.interrupt();
        }
    }

    /** The run's settings: fixed for the smoke run, from system properties for the benchmark. */
    static final class Settings {
        final boolean bench;
        final int threads;
        final long warmupSeconds;
        final long durationSeconds;
        final int users;
        final String host;
        /** 0: start a server. */
        final int port;
        final String label;

        private Settings(boolean bench, int threads, long warmupSeconds, long durationSeconds, int users,
                         String host, int port, String label) {
            this.bench = bench;
            this.threads = threads;
            this.warmupSeconds = warmupSeconds;
            this.durationSeconds = durationSeconds;
            this.users = users;
            this.host = host;
            this.port = port;
            this.label = label;
        }

        static Settings fromSystemProperties() {
            if (!Boolean.parseBoolean(prop("bind.bench"))) {
                return new Settings(false, 4, 1, 3, 1_000, null, 0, "smoke");
            }
            String host = prop(PREFIX + "host");
            int port = (int) number("port", host != null ? 389 : 0, 0, 65_535);
            if (port != 0 && host == null) {
                host = "127.0.0.1";
            }
            String label = prop(PREFIX + "label");
            return new Settings(true,
                    (int) number("threads", 16, 1, 10_000),
                    number("warmupSeconds", 10, 0, 86_400),
                    number("durationSeconds", 30, 1, 86_400),
                    (int) number("users", port == 0 ? 10_000 : 5_000, 1, Integer.MAX_VALUE),
                    host, port, label != null ? label : "bindfirst");
        }

        /**
         * A property's value, or {@code null} when it is unset, blank or an unresolved {@code ${...}} that
         * Maven passes through when a systemPropertyVariables entry names a property nobody set.
         */
        static String prop(String name) {
            String v = System.getProperty(name);
            if (v == null || v.isBlank() || v.startsWith("${")) {
                return null;
            }
            return v.trim();
        }

        private static long number(String name, long dflt, long min, long max) {
            String v = prop(PREFIX + name);
            if (v == null) {
                return dflt;
            }
            long n;
            try {
                n = Long.parseLong(v.replace("_", ""));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(PREFIX + name + " is not a whole number: " + v, e);
            }
            if (n < min || n > max) {
                throw new IllegalArgumentException(PREFIX + name + " must be in " + min + ".." + max + ": " + v);
            }
            return n;
        }
    }

    /** The merged figures of one run. */
    static final class Result {
        final Settings s;
        final String target;
        final Instant at;
        final Histogram histogram = new Histogram(LOWEST_NANOS, HIGHEST_NANOS, 3);
        final Map<String, Long> errorsByCause = new TreeMap<>();
        long errors;
        long warmupErrors;

        Result(Settings s, String target, Instant at) {
            this.s = s;
            this.target = target;
            this.at = at;
        }

        long binds() {
            return histogram.getTotalCount();
        }

        double bindsPerSecond() {
            return binds() / (double) s.durationSeconds;
        }

        double ms(double nanos) {
            return nanos / 1e6;
        }

        double pct(double p) {
            return binds() == 0 ? 0 : ms(histogram.getValueAtPercentile(p));
        }

        double mean() {
            return binds() == 0 ? 0 : ms(histogram.getMean());
        }

        double max() {
            return binds() == 0 ? 0 : ms(histogram.getMaxValue());
        }

        String mode() {
            return s.bench ? "bench" : "smoke";
        }

        String errorSummary() {
            return errorsByCause.isEmpty() ? "none" : errorsByCause.toString();
        }

        String line() {
            return String.format(Locale.ROOT, "BIND-BENCH label=%s mode=%s target=%s users=%d threads=%d "
                            + "warmup_s=%d duration_s=%d binds=%d binds_per_s=%.1f mean_ms=%.3f p50_ms=%.3f "
                            + "p90_ms=%.3f p99_ms=%.3f p999_ms=%.3f max_ms=%.3f errors=%d warmup_errors=%d%s",
                    s.label, mode(), target, s.users, s.threads, s.warmupSeconds, s.durationSeconds, binds(),
                    bindsPerSecond(), mean(), pct(50), pct(90), pct(99), pct(99.9), max(), errors, warmupErrors,
                    errorsByCause.isEmpty() ? "" : " error_causes=" + errorSummary());
        }

        String csvRow() {
            return String.format(Locale.ROOT, "%s,%s,%s,%s,%d,%d,%d,%d,%d,%.1f,%.4f,%.4f,%.4f,%.4f,%.4f,%.4f,%d,%d",
                    at, csv(s.label), mode(), csv(target), s.users, s.threads, s.warmupSeconds, s.durationSeconds,
                    binds(), bindsPerSecond(), mean(), pct(50), pct(90), pct(99), pct(99.9), max(), errors,
                    warmupErrors);
        }

        String json() {
            ByteBuffer buf = ByteBuffer.allocate(histogram.getNeededByteBufferCapacity());
            int len = histogram.encodeIntoCompressedByteBuffer(buf);
            String hist = Base64.getEncoder().encodeToString(java.util.Arrays.copyOf(buf.array(), len));
            StringBuilder causes = new StringBuilder("{");
            errorsByCause.forEach((k, v) -> causes.append(causes.length() > 1 ? ", " : "")
                    .append(quote(k)).append(": ").append(v));
            causes.append('}');
            return String.format(Locale.ROOT, "{%n"
                            + "  \"timestamp\": %s,%n  \"label\": %s,%n  \"mode\": %s,%n  \"target\": %s,%n"
                            + "  \"users\": %d,%n  \"threads\": %d,%n  \"warmupSeconds\": %d,%n"
                            + "  \"durationSeconds\": %d,%n  \"binds\": %d,%n  \"bindsPerSecond\": %.1f,%n"
                            + "  \"latencyMs\": {\"mean\": %.4f, \"p50\": %.4f, \"p90\": %.4f, \"p99\": %.4f, "
                            + "\"p99.9\": %.4f, \"max\": %.4f},%n"
                            + "  \"errors\": %d,%n  \"warmupErrors\": %d,%n  \"errorCauses\": %s,%n"
                            + "  \"java\": %s,%n  \"processors\": %d,%n"
                            + "  \"histogram\": {\"unit\": \"ns\", \"lowest\": %d, \"highest\": %d, "
                            + "\"significantDigits\": 3, \"compressedBase64\": %s}%n}%n",
                    quote(at.toString()), quote(s.label), quote(mode()), quote(target), s.users, s.threads,
                    s.warmupSeconds, s.durationSeconds, binds(), bindsPerSecond(), mean(), pct(50), pct(90),
                    pct(99), pct(99.9), max(), errors, warmupErrors, causes, quote(System.getProperty("java.version")),
                    Runtime.getRuntime().availableProcessors(), LOWEST_NANOS, HIGHEST_NANOS, quote(hist));
        }
    }

    private static void write(Result r) throws IOException {
        Path dir = Path.of(System.getProperty("basedir", ".")).resolve("target/bind-bench");
        Files.createDirectories(dir);
        Path csv = dir.resolve("bind-bench.csv");
        String row = r.csvRow() + System.lineSeparator();
        if (!Files.exists(csv) || Files.size(csv) == 0) {
            row = CSV_HEADER + System.lineSeparator() + row;
        }
        Files.writeString(csv, row, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        String name = "bind-bench-" + r.s.label.replaceAll("[^A-Za-z0-9._-]", "_") + "-t" + r.s.threads + "-"
                + FILE_TIME.format(r.at) + ".json";
        Path json = dir.resolve(name);
        Files.writeString(json, r.json(), StandardOpenOption.CREATE_NEW);
        System.out.println("BIND-BENCH wrote " + csv.toAbsolutePath() + " and " + json.toAbsolutePath());
    }

    private static String csv(String v) {
        return v.contains(",") || v.contains("\"") || v.contains("\n") ? "\"" + v.replace("\"", "\"\"") + "\"" : v;
    }

    private static String quote(String v) {
        StringBuilder b = new StringBuilder("\"");
        for (char ch : v.toCharArray()) {
            switch (ch) {
                case '"': b.append("\\\""); break;
                case '\\': b.append("\\\\"); break;
                case '\n': b.append("\\n"); break;
                case '\r': b.append("\\r"); break;
                case '\t': b.append("\\t"); break;
                default:
                    if (ch < 0x20) {
                        b.append(String.format(Locale.ROOT, "\\u%04x", (int) ch));
                    } else {
                        b.append(ch);
                    }
            }
        }
        return b.append('"').toString();
    }
}
