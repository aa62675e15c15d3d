package io.bindfirst.it.stress;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertTrue;
import static org.testng.Assert.fail;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
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

import io.bindfirst.it.support.ForkedServer;
import io.bindfirst.it.support.TestServer;

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
 * <p>Around the fast binds, for connection-management experiments:
 * <ul>
 * <li><b>idle connections</b> ({@link IdleCrowd}): before the warm-up, N raw non-blocking sockets each
 * bind once as {@code uid=user.K} (K cycling over the user range) and then stay silent until the end of
 * the measured window, when the ones the server has closed are counted; opened in batches, in bounded
 * time, failing with how many were opened.</li>
 * <li><b>slow connections</b> ({@link SlowLoad}): round(threads * f / (1 - f)) more connections, each
 * with its own thread, looping slow operations through the warm-up and the measured window: PBKDF2 binds
 * as {@code uid=slow.K} (users the benchmark (re)creates as root, with a pre-hashed
 * {@code {PBKDF2-HMAC-SHA256}} password), or unindexed subtree searches of the whole suffix as root. Their
 * latencies (those completing in the window) and their errors (busy, timeLimitExceeded, 120 s timeouts...:
 * reported, fatal only to the smoke run) are kept apart from the fast binds'.</li>
 * <li><b>resident memory</b> of the server process (Linux {@code VmRSS}) just before the idle connections
 * are opened and once they are all bound, after a short settle: the difference over N is the cost of an
 * idle connection.</li>
 * </ul>
 *
 * <p>Without {@code -Dbind.bench=true} this is a short smoke run that CI executes on every build (4 threads,
 * 1 s warm-up, 3 s measured, a server started in this JVM with 1,000 users, 50 idle connections, slow
 * fraction 0.34 = 2 slow connections of mixed kinds, one PBKDF2 at 20,000 iterations and one search): it
 * asserts that no fast bind failed and that binds were done, that every idle connection was opened, that
 * no slow operation failed and that one completed; never a timing. With {@code -Dbind.bench=true} it is the
 * full benchmark, set by these {@code bind.bench.*} properties:
 * <ul>
 * <li>{@code threads} (16), {@code durationSeconds} (30), {@code warmupSeconds} (10), {@code users}
 * (10,000: the users the started server creates; 5,000: the range bound against on a given server),
 * {@code label} ("bindfirst");</li>
 * <li>{@code host} / {@code port}: aim at a server already listening instead of starting one, with
 * {@code serverPid} to read that process's memory;</li>
 * <li>{@code server}: {@code inprocess} (a server in this JVM, the default) or {@code fork} (a child JVM,
 * {@link ForkedServer}, with {@code serverJvmOpts}, default those of {@code bin/start-ds}); fork is chosen by itself
 * for more than 2,000 idle connections when no port is given, so that the client's and the server's
 * sockets do not share one process's descriptor limit;</li>
 * <li>{@code idle} (0);</li>
 * <li>{@code slowFraction} (0, below 1), {@code slowKind} ({@code pbkdf2}, {@code search},
 * {@code wrong_password} (PBKDF2 users, wrong passwords: invalidCredentials is their expected answer) or
 * {@code mixed}, the default: even slow connections PBKDF2, odd ones search), {@code slowIterations}
 * ({@link BenchSettings#DEFAULT_SLOW_ITERATIONS}, about 2 s of CPU per bind on the 2-core machine where it
 * was measured), {@code rootDN} ("cn=Directory Manager") and {@code rootPassword} ("password").</li>
 * </ul>
 * Surefire passes those given to Maven ({@code -Dbind.bench.threads=200}) on to the forked test JVM.
 * {@code benchmarks/bind-bench.sh} runs it with options.
 *
 * <p>Each run prints one {@code BIND-BENCH} line and writes it to {@code target/bind-bench/}: a row appended
 * to {@code bind-bench-v3.csv} and one JSON file named after the label and the time (with the merged
 * histograms, base64 of their compressed encoding, for later merging or re-reading); see {@link BenchResult}.
 *
 * <p>A server started in-process runs in this JVM, with the shipped configuration (access log on): client
 * and server share the CPUs, the heap and the garbage collector, and its memory figures are this JVM's
 * (rss_of=test-jvm). A forked one shares only the CPUs. Figures are for comparing runs side by side on one
 * machine, not absolute numbers.
 */
public class BindLatencyBenchmarkTestCase {
    private static final byte[] PASSWORD = TestServer.USER_PASSWORD.getBytes(StandardCharsets.UTF_8);
    private static final long LOWEST_NANOS = BenchResult.LOWEST_NANOS;
    private static final long HIGHEST_NANOS = BenchResult.HIGHEST_NANOS;
    private static final int CONNECT_TIMEOUT_MS = 5_000;
    /** A bind not answered in this long is a (timeout) error; it also bounds how late a thread can stop. */
    private static final long RESPONSE_TIMEOUT_MS = 10_000;
    /** Pause after a failed connect, so that a dead server gives a count of errors rather than a busy loop. */
    private static final long RECONNECT_PAUSE_MS = 50;
    /** Opening the idle connections may take this long, plus {@value #IDLE_OPEN_MS_PER_CONNECTION} ms each. */
    private static final long IDLE_OPEN_BASE_MS = 60_000;
    private static final long IDLE_OPEN_MS_PER_CONNECTION = 20;

    @Test
    public void bindLatency() throws Exception {
        BenchSettings s = BenchSettings.fromSystemProperties();
        TestServer inProcess = null;
        ForkedServer forked = null;
        IdleCrowd idle = null;
        try {
            String host = s.host;
            int port = s.port;
            BenchResult r;
            long rssPid;
            switch (s.server) {
                case INPROCESS:
                    inProcess = TestServer.start(s.users, c -> c.withPasswords(
                            c.passwords().withVerifiedCredentialCacheSize(ForkedServer.VERIFIED_CREDENTIAL_CACHE)));
                    host = "127.0.0.1";
                    port = inProcess.port();
                    r = new BenchResult(s, "in-process");
                    rssPid = ProcessHandle.current().pid();
                    r.rssOf = "test-jvm";
                    break;
                case FORK:
                    forked = ForkedServer.start(s.users, s.serverJvmOpts);
                    host = "127.0.0.1";
                    port = forked.port();
                    r = new BenchResult(s, "forked");
                    rssPid = forked.pid();
                    r.rssOf = "server";
                    break;
                default:
                    r = new BenchResult(s, host + ":" + port);
                    rssPid = s.serverPid;
                    r.rssOf = rssPid > 0 ? "server" : "none";
            }
            preflight(host, port, s.users);
            SlowLoad slow = new SlowLoad(host, port, s);
            slow.prepare();
            idle = new IdleCrowd(host, port, s.users, PASSWORD);
            if (s.idle > 0) {
                openIdle(idle, s, r, rssPid);
            }
            // In-process, the process is client and server at once: its CPU is not the server's.
            run(host, port, s, slow, idle, r, "server".equals(r.rssOf) ? rssPid : -1);
            System.out.println(r.line());
            r.write();
            if (forked != null && !forked.isAlive()) {
                fail("the forked server exited during the run; its last output:\n" + forked.lastOutput());
            }
            assertEquals(r.errors, 0, "binds that failed in the measured window: " + r.errorSummary());
            assertEquals(r.warmupErrors, 0, "binds that failed in the warm-up: " + r.errorSummary());
            assertTrue(r.histogram.getTotalCount() > 0, "no bind completed in the measured window");
            assertEquals(r.idleOpened, s.idle, "idle connections opened");
            if (!s.bench) {
                // In the benchmark, slow errors (busy, timeLimitExceeded...) are results, reported above.
                assertEquals(r.slowErrors, 0, "slow operations that failed: " + r.slowErrorSummary());
                assertTrue(s.slowConnections() == 0 || r.slowHistogram.getTotalCount() > 0,
                        "no slow operation completed in the measured window");
            }
        } finally {
            if (idle != null) {
                idle.close();
            }
            if (forked != null) {
                forked.close();
            }
            if (inProcess != null) {
                inProcess.close();
            }
        }
    }

    /**
     * Opens and binds the idle connections, reading the server's resident memory just before and, after a
     * short settle with no requests at all, just after.
     */
    private static void openIdle(IdleCrowd idle, BenchSettings s, BenchResult r, long rssPid)
            throws InterruptedException {
        long settleMs = s.bench ? 2_000 : 200;
        Thread.sleep(settleMs / 2);
        r.rssBeforeIdleKb = ForkedServer.rssKb(rssPid);
        long t0 = System.nanoTime();
        long budgetMs = IDLE_OPEN_BASE_MS + IDLE_OPEN_MS_PER_CONNECTION * s.idle;
        try {
            idle.open(s.idle, t0 + TimeUnit.MILLISECONDS.toNanos(budgetMs));
        } catch (IllegalStateException e) {
            String hint = s.server != BenchSettings.ServerMode.INPROCESS ? ""
                    : " (the server runs in this JVM: its sockets and the idle ones share one descriptor limit;"
                    + " bind.bench.server=fork gives it its own)";
            fail("cannot open the idle connections: " + e.getMessage() + hint, e);
        }
        r.idleOpenMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
        r.idleOpened = idle.opened();
        Thread.sleep(settleMs);
        r.rssAfterIdleKb = ForkedServer.rssKb(rssPid);
        System.out.printf("BIND-BENCH %d idle connections opened and bound in %d ms; rss %d -> %d KiB (%s)%n",
                r.idleOpened, r.idleOpenMs, r.rssBeforeIdleKb, r.rssAfterIdleKb, r.rssOf);
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

    private static void run(String host, int port, BenchSettings s, SlowLoad slow, IdleCrowd idle, BenchResult r,
            long serverPid) throws InterruptedException {
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
        slow.start(measureFrom, measureTo);
        for (Worker w : workers) {
            w.thread.start();
        }
        // The server's CPU time over exactly the measured window (not the warm-up, not the wind-down).
        sleepUntil(measureFrom);
        long cpuFrom = ForkedServer.cpuNanos(serverPid);
        sleepUntil(measureTo);
        long cpuTo = ForkedServer.cpuNanos(serverPid);
        r.serverCpuNanos = cpuFrom < 0 || cpuTo < 0 ? -1 : cpuTo - cpuFrom;
        // Each thread checks the deadline before every bind; one in flight ends within the response timeout.
        long graceMs = RESPONSE_TIMEOUT_MS + CONNECT_TIMEOUT_MS + 5_000;
        long waitMs = TimeUnit.NANOSECONDS.toMillis(measureTo - System.nanoTime()) + graceMs;
        boolean stopped = done.await(Math.max(waitMs, graceMs), TimeUnit.MILLISECONDS);
        // The window is over: slow operations still in flight no longer count; closing their connections ends them.
        boolean slowStopped = slow.stop();
        if (s.idle > 0) {
            r.idleOpenAtEnd = idle.countOpen();
            r.idleClosedBy.putAll(idle.closedBy);
        }
        if (!stopped) {
            for (Worker w : workers) {
                w.abort();
            }
            done.await(5, TimeUnit.SECONDS);
        }
        assertTrue(stopped, "bind threads still running " + graceMs + " ms after the deadline");
        assertTrue(slowStopped, "slow threads still running 10 s after they were stopped");
        // The latch orders every thread's writes before these reads.
        r.at = Instant.now();
        for (Worker w : workers) {
            r.histogram.add(w.histogram);
            r.errors += w.errors;
            r.warmupErrors += w.warmupErrors;
            w.errorsByCause.forEach((k, v) -> r.errorsByCause.merge(k, v, Long::sum));
        }
        r.slowHistogram.add(slow.histogram);
        r.slowByKind.putAll(slow.byKind);
        r.slowErrors = slow.errors;
        r.slowErrorsByCause.putAll(slow.errorsByCause);
    }

    private static void sleepUntil(long nanoTime) throws InterruptedException {
        long left;
        while ((left = nanoTime - System.nanoTime()) > 0) {
            TimeUnit.NANOSECONDS.sleep(left);
        }
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
}
