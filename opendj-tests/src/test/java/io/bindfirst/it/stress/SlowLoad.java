package io.bindfirst.it.stress;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

import org.HdrHistogram.Histogram;
import org.forgerock.opendj.ldap.ByteString;

import com.unboundid.ldap.sdk.Attribute;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPConnectionOptions;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.SearchRequest;
import com.unboundid.ldap.sdk.SearchScope;
import com.unboundid.ldap.sdk.SimpleBindRequest;

import io.bindfirst.it.support.TestServer;
import io.bindfirst.server.pwd.Pbkdf2HmacSha256Scheme;

/**
 * Slow operations beside the fast binds: one thread and one connection per slow connection, each looping
 * one kind of slow operation from the start of the warm-up to the end of the measured window.
 * <ul>
 * <li>{@code pbkdf2}: a simple bind as {@code uid=slow.K,ou=People,dc=example,dc=com} (K the connection's
 * index), whose {@code userPassword} is a {@code {PBKDF2-HMAC-SHA256}} hash of {@code password} with the
 * configured iterations; {@link #prepare()} (re)creates those users, bound as root, since the server takes
 * pre-hashed values from root only.</li>
 * <li>{@code search}: bound as root (no size, time or lookthrough limit), a subtree search of the whole
 * suffix with {@value #SEARCH_FILTER}: employeeNumber is in every sample user and has no index, so the
 * server reads and tests every entry, and returns none.</li>
 * <li>{@code wrong_password}: the {@code pbkdf2} bind with a wrong password, whose invalidCredentials counts as
 * the operation done: a password-guessing storm, a full derivation every time.</li>
 * </ul>
 * Latencies of slow operations completing in the measured window go to their own histogram. Any other
 * result than success (busy, timeLimitExceeded, a timeout after {@value #RESPONSE_TIMEOUT_MS} ms, a broken
 * connection), from the start of the warm-up to the end of the window, is a slow error, counted by cause.
 * {@link #stop()} at the end of the window closes the connections, which ends the operations in flight.
 */
final class SlowLoad {
    static final String SEARCH_BASE = "dc=example,dc=com";
    static final String SEARCH_FILTER = "(employeeNumber=*no-such-value*)";
    static final long RESPONSE_TIMEOUT_MS = 120_000;
    static final long LOWEST_NANOS = TimeUnit.MICROSECONDS.toNanos(1);
    static final long HIGHEST_NANOS = TimeUnit.SECONDS.toNanos(300);
    private static final int CONNECT_TIMEOUT_MS = 5_000;
    private static final long RECONNECT_PAUSE_MS = 50;
    private static final String PASSWORD = TestServer.USER_PASSWORD;

    private final String host;
    private final int port;
    private final BenchSettings s;
    private final List<Slow> slows = new ArrayList<>();
    final Histogram histogram = new Histogram(LOWEST_NANOS, HIGHEST_NANOS, 3);
    /** The same latencies by kind (for mixed: PBKDF2 binds and searches differ by orders of magnitude). */
    final Map<BenchSettings.SlowKind, Histogram> byKind = new TreeMap<>();
    final Map<String, Long> errorsByCause = new TreeMap<>();
    long errors;

    SlowLoad(String host, int port, BenchSettings s) {
        this.host = host;
        this.port = port;
        this.s = s;
    }

    static String slowUser(int k) {
        return "uid=slow." + k + "," + TestServer.PEOPLE;
    }

    /** Creates, or replaces, the users of the PBKDF2 connections. */
    void prepare() throws LDAPException {
        List<Integer> pbkdf2 = new ArrayList<>();
        for (int k = 0; k < s.slowConnections(); k++) {
            if (s.slowKind.of(k) != BenchSettings.SlowKind.SEARCH) {
                pbkdf2.add(k);
            }
        }
        if (pbkdf2.isEmpty()) {
            return;
        }
        long t0 = System.nanoTime();
        // One hash for all of them: the cost is the server's, per bind, not the salt's uniqueness.
        String hash = "{" + Pbkdf2HmacSha256Scheme.NAME + "}"
                + new Pbkdf2HmacSha256Scheme(s.slowIterations).encodeValue(ByteString.valueOfUtf8(PASSWORD));
        long encodeMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
        try (LDAPConnection c = connect()) {
            c.bind(s.rootDN, s.rootPassword);
            for (int k : pbkdf2) {
                String dn = slowUser(k);
                try {
                    c.delete(dn);
                } catch (LDAPException e) {
                    if (e.getResultCode() != ResultCode.NO_SUCH_OBJECT) {
                        throw e;
                    }
                }
                c.add(dn, new Attribute("objectClass", "top", "person", "organizationalPerson", "inetOrgPerson"),
                        new Attribute("uid", "slow." + k), new Attribute("cn", "Slow " + k),
                        new Attribute("sn", "slow"), new Attribute("userPassword", hash));
            }
        }
        System.out.printf("BIND-BENCH slow users %s created with %,d PBKDF2 iterations (%d ms to hash here)%n",
                pbkdf2, s.slowIterations, encodeMs);
    }

    /** Starts the slow threads; their operations count from {@code measureFrom} to {@code measureTo}. */
    void start(long measureFrom, long measureTo) {
        for (int k = 0; k < s.slowConnections(); k++) {
            Slow w = new Slow(k, s.slowKind.of(k), measureFrom, measureTo);
            w.thread = new Thread(w, "bind-bench-slow-" + k + "-" + w.kind.label());
            w.thread.setDaemon(true);
            slows.add(w);
        }
        for (Slow w : slows) {
            w.thread.start();
        }
    }

    /**
     * Stops every slow thread (closing its connection ends an operation in flight) and merges the figures.
     *
     * @return {@code false} if a thread did not end within 10 s
     */
    boolean stop() throws InterruptedException {
        for (Slow w : slows) {
            w.abort();
        }
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        boolean all = true;
        for (Slow w : slows) {
            w.thread.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(until - System.nanoTime())));
            if (w.thread.isAlive()) {
                all = false;
                continue;
            }
            // join orders the thread's writes before these reads
            histogram.add(w.histogram);
            byKind.computeIfAbsent(w.kind, k -> new Histogram(LOWEST_NANOS, HIGHEST_NANOS, 3)).add(w.histogram);
            errors += w.errors;
            w.errorsByCause.forEach((k, v) -> errorsByCause.merge(k, v, Long::sum));
        }
        return all;
    }

    private LDAPConnection connect() throws LDAPException {
        LDAPConnectionOptions o = new LDAPConnectionOptions();
        o.setUseSynchronousMode(true);
        o.setConnectTimeoutMillis(CONNECT_TIMEOUT_MS);
        o.setResponseTimeoutMillis(RESPONSE_TIMEOUT_MS);
        return new LDAPConnection(o, host, port);
    }

    /** One slow connection and its thread. */
    private final class Slow implements Runnable {
        final int index;
        final BenchSettings.SlowKind kind;
        final long measureFrom;
        final long measureTo;
        final Histogram histogram = new Histogram(LOWEST_NANOS, HIGHEST_NANOS, 3);
        final Map<String, Long> errorsByCause = new TreeMap<>();
        long errors;
        Thread thread;
        private volatile LDAPConnection connection;
        private volatile boolean stopped;

        Slow(int index, BenchSettings.SlowKind kind, long measureFrom, long measureTo) {
            this.index = index;
            this.kind = kind;
            this.measureFrom = measureFrom;
            this.measureTo = measureTo;
        }

        @Override
        public void run() {
            try {
                loop();
            } catch (RuntimeException | Error e) {
                errors++;
                errorsByCause.merge("slow client thread died: " + e, 1L, Long::sum);
            } finally {
                LDAPConnection c = connection;
                if (c != null) {
                    c.close();
                }
            }
        }

        private void loop() {
            SimpleBindRequest bind = new SimpleBindRequest(slowUser(index),
                    kind == BenchSettings.SlowKind.WRONG_PASSWORD ? "not-" + PASSWORD : PASSWORD);
            while (!stopped && System.nanoTime() < measureTo) {
                LDAPConnection c = connection;
                if (c == null) {
                    try {
                        c = connect();
                        connection = c;
                        if (kind == BenchSettings.SlowKind.SEARCH) {
                            c.bind(s.rootDN, s.rootPassword);
                        }
                    } catch (LDAPException e) {
                        drop(System.nanoTime(), "connect or root bind: " + e.getResultCode());
                        pause();
                    }
                    continue;
                }
                long t0 = System.nanoTime();
                ResultCode code;
                try {
                    if (kind != BenchSettings.SlowKind.SEARCH) {
                        code = c.bind(bind).getResultCode();
                    } else {
                        SearchRequest r = new SearchRequest(SEARCH_BASE, SearchScope.SUB, SEARCH_FILTER, "1.1");
                        code = c.search(r).getResultCode();
                    }
                } catch (LDAPException e) {
                    code = e.getResultCode();
                }
                long t1 = System.nanoTime();
                if (stopped) {
                    return;
                }
                if (code == ResultCode.SUCCESS || kind == BenchSettings.SlowKind.WRONG_PASSWORD
                        && code == ResultCode.INVALID_CREDENTIALS) { // the answer a guess gets
                    if (t1 >= measureFrom && t1 < measureTo) {
                        histogram.recordValue(Math.min(Math.max(t1 - t0, LOWEST_NANOS), HIGHEST_NANOS));
                    }
                } else if (code.isClientSideResultCode() || !c.isConnected()) {
                    drop(t1, kind.label() + ": " + code);
                } else {
                    error(t1, kind.label() + ": " + code);
                }
            }
        }

        /** An error after which the connection is in doubt: counted, closed, and reopened by the loop. */
        private void drop(long at, String cause) {
            error(at, cause);
            LDAPConnection c = connection;
            connection = null;
            if (c != null) {
                c.close();
            }
        }

        private void error(long at, String cause) {
            if (at < measureTo) {
                errors++;
                errorsByCause.merge(cause, 1L, Long::sum);
            }
        }

        private void pause() {
            try {
                Thread.sleep(RECONNECT_PAUSE_MS);
            } catch (InterruptedException e) {
                stopped = true;
                Thread.currentThread().interrupt();
            }
        }

        void abort() {
            stopped = true;
            LDAPConnection c = connection;
            if (c != null) {
                c.close();
            }
            thread.interrupt();
        }
    }
}
