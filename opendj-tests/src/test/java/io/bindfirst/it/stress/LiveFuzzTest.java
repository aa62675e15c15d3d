package io.bindfirst.it.stress;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import javax.net.ssl.SSLContext;

import org.testng.annotations.AfterClass;
import org.testng.annotations.BeforeClass;
import org.testng.annotations.Test;

import com.unboundid.ldap.sdk.ExtendedResult;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPConnectionOptions;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.SearchScope;
import com.unboundid.ldap.sdk.extensions.StartTLSExtendedRequest;
import com.unboundid.util.ssl.PEMFileTrustManager;
import com.unboundid.util.ssl.SSLUtil;

import io.bindfirst.it.support.ForkedServer;
import io.bindfirst.it.support.ProcessResources;
import io.bindfirst.it.support.TestServer;
import io.bindfirst.server.testsupport.Poll;

/**
 * A fuzzer against the live server: rounds of connections, each sending a burst of {@link LdapMutator} messages
 * (valid, mutated and hostile) and reading whatever comes back until the server closes or goes quiet. After each
 * round a fresh client must still bind and search within seconds. The server is a child JVM of its own, so that
 * what it holds is measured alone: once the first tenth of the rounds has warmed it up, its threads, the heap its
 * live objects take after a full collection and its resident memory are read, and after the last round none may
 * have grown past a bound. Inputs that once broke something are replayed first from
 * {@code src/test/resources/fuzz-regressions} (one hex-encoded message per line, a file per case); a failing
 * round writes its inputs to {@code target/fuzz-failures} to become such a file.
 *
 * <p>Bounded by default (CI); {@code -Dfuzz.rounds=N} and {@code -Dfuzz.seed=S} run longer or replay a round.
 */
public class LiveFuzzTest {
    private static final int ROUNDS = Integer.getInteger("fuzz.rounds", 60);
    private static final long SEED = Long.getLong("fuzz.seed", 20261124L);
    private static final int CONNECTIONS = 8;
    private static final int MESSAGES_PER_CONNECTION = 12;
    /** The rounds before the baseline: the JIT compiles the paths the fuzzer reaches, the pools fill. */
    private static final int WARM_ROUNDS = Math.max(1, ROUNDS / 10);
    private static final long MIB = 1024 * 1024;
    /** The growth allowed to the objects live after a full collection: caches filling, not a leak's slope. */
    private static final long HEAP_ALLOWANCE = 32 * MIB;
    /**
     * The growth allowed to the resident memory, all of it outside the heap (whole and resident from the start:
     * -Xms = -Xmx, pre-touched): the JIT's code and profiles for the error paths it meets for the first time.
     * Measured on a busy 2-core machine: +9.5 MiB in rounds 6 to 60, +2.1 MiB in rounds 60 to 600.
     */
    private static final long NATIVE_ALLOWANCE_KB = 32 * 1024;
    /** The shipped options, with the heap whole and touched at the start, so that the RSS grows only outside it. */
    private static final List<String> SERVER_JVM = Stream.concat(
            BenchSettings.SHIPPED_JVM_OPTS.stream().map(o -> o.startsWith("-Xms") ? "-Xms192m" : o),
            Stream.of("-XX:+AlwaysPreTouch")).toList();
    /** The server closes a departed client's connection when it reads its end of the stream. */
    private static final Duration SETTLE = Duration.ofSeconds(30);
    private ForkedServer server;

    @BeforeClass
    public void start() throws Exception {
        // user.0 to user.99 are the fuzzer's (it binds as them, and a garbled Password Modify may well change
        // their password: that is their right); user.100 is the checker's, which no fuzzed request can touch.
        server = ForkedServer.start(101, SERVER_JVM);
    }

    @AfterClass(alwaysRun = true)
    public void stop() {
        if (server != null) {
            server.close();
        }
    }

    @Test(timeOut = 900_000)
    public void theServerKeepsServingThroughHostileInput() throws Exception {
        long pid = server.pid();
        // What the server starts on first use and keeps, started before any count: the JVM's attach listener
        // (a socket of its own, opened by the first jcmd) and the TLS handshake threads (the fuzzer's valid
        // StartTLS requests would start them in any round). The sockets are counted between the two, with no
        // client connected: once a client has closed, the server may take a moment to close its side.
        server.trimmedRssKb();
        int listening = ProcessResources.of(pid).sockets(); // the listeners' sockets and jcmd's
        startsTls();
        for (List<byte[]> regression : regressions()) {
            sendAll(regression);
            stillServes("a regression input");
        }
        stillServes("the start");
        ExecutorService pool = Executors.newFixedThreadPool(CONNECTIONS);
        try {
            long messages = rounds(0, WARM_ROUNDS, pool);
            ProcessResources before = Poll.until("the warm-up's connections to close", SETTLE,
                    () -> ProcessResources.of(pid), r -> r.sockets() == listening);
            long heapBefore = server.heapAfterGcBytes();
            long rssBefore = server.trimmedRssKb();
            messages += rounds(WARM_ROUNDS, ROUNDS, pool);
            ProcessResources after = Poll.until("threads and descriptors back to " + before, SETTLE,
                    () -> ProcessResources.of(pid), before::covers);
            long heapAfter = server.heapAfterGcBytes();
            long rssAfter = server.trimmedRssKb();
            System.out.println("LIVE-FUZZ rounds=" + ROUNDS + " seed=" + SEED + " messages=" + messages
                    + " after round " + WARM_ROUNDS + ": " + before + " heap_after_gc_kib=" + heapBefore / 1024
                    + " rss_kib=" + rssBefore + "; at the end: " + after + " heap_after_gc_kib="
                    + heapAfter / 1024 + " rss_kib=" + rssAfter);
            assertTrue(server.isAlive(), "the server exited; its last output:\n" + server.lastOutput());
            assertTrue(heapAfter < heapBefore + HEAP_ALLOWANCE,
                    "heap after GC " + heapBefore / 1024 + " KiB -> " + heapAfter / 1024 + " KiB");
            assertTrue(rssBefore > 0 && rssAfter < rssBefore + NATIVE_ALLOWANCE_KB,
                    "resident memory " + rssBefore + " KiB -> " + rssAfter + " KiB");
        } finally {
            pool.shutdownNow();
        }
    }

    /** Rounds {@code from} to {@code to} (excluded), each checked by a fresh client; returns the messages sent. */
    private long rounds(int from, int to, ExecutorService pool) throws Exception {
        long messages = 0;
        for (int round = from; round < to; round++) {
            Random random = new Random(SEED * 1_000_003L + round);
            List<List<byte[]>> inputs = new ArrayList<>();
            for (int c = 0; c < CONNECTIONS; c++) {
                LdapMutator mutator = new LdapMutator(new Random(random.nextLong()));
                List<byte[]> burst = new ArrayList<>();
                for (int m = 0; m < MESSAGES_PER_CONNECTION; m++) {
                    burst.add(mutator.next());
                }
                inputs.add(burst);
                messages += burst.size();
            }
            List<Future<?>> done = new ArrayList<>();
            for (List<byte[]> burst : inputs) {
                done.add(pool.submit(() -> {
                    sendAll(burst);
                    return null;
                }));
            }
            for (Future<?> f : done) {
                f.get(60, TimeUnit.SECONDS);
            }
            try {
                stillServes("round " + round + " of seed " + SEED);
            } catch (AssertionError | Exception e) {
                Path saved = save(round, inputs);
                throw new AssertionError("After round " + round + " (seed " + SEED + ", -Dfuzz.seed=" + SEED
                        + "; inputs in " + saved + "): " + e.getMessage(), e);
            }
        }
        return messages;
    }

    /** Sends each message on one connection (pipelined), then reads until the server closes or goes quiet. */
    private void sendAll(List<byte[]> burst) {
        try (Socket s = new Socket("127.0.0.1", server.port())) {
            s.setSoTimeout(300);
            OutputStream out = s.getOutputStream();
            InputStream in = s.getInputStream();
            try {
                for (byte[] m : burst) {
                    out.write(m);
                }
                out.flush();
            } catch (IOException closedByTheServer) {
                return; // the server may drop a connection whose input makes no sense: that is fine
            }
            byte[] buf = new byte[65_536];
            long until = System.nanoTime() + 5_000_000_000L;
            while (System.nanoTime() < until) {
                try {
                    if (in.read(buf) < 0) {
                        return;
                    }
                } catch (SocketTimeoutException quiet) {
                    return;
                } catch (IOException reset) {
                    return;
                }
            }
        } catch (IOException e) {
            throw new AssertionError("cannot connect: " + e.getMessage(), e);
        }
    }

    /** A fresh client binds and searches, each within 10 s. */
    private void stillServes(String after) throws Exception {
        LDAPConnectionOptions options = new LDAPConnectionOptions();
        options.setConnectTimeoutMillis(10_000);
        options.setResponseTimeoutMillis(10_000);
        try (LDAPConnection c = new LDAPConnection(options, "127.0.0.1", server.port())) {
            assertEquals(c.bind(TestServer.user(100), "password").getResultCode(), ResultCode.SUCCESS, after);
            assertEquals(c.search(TestServer.PEOPLE, SearchScope.ONE, "(uid=user.2)").getEntryCount(), 1, after);
        }
    }

    /** A client trusting the server's CA starts TLS on the plain port and binds over it. */
    private void startsTls() throws Exception {
        SSLContext trusting = new SSLUtil(new PEMFileTrustManager(
                server.instance().resolve("config/tls/ca.pem").toFile())).createSSLContext("TLSv1.3");
        try (LDAPConnection c = new LDAPConnection("127.0.0.1", server.port())) {
            ExtendedResult r = c.processExtendedOperation(new StartTLSExtendedRequest(trusting));
            assertEquals(r.getResultCode(), ResultCode.SUCCESS, r.toString());
            assertEquals(c.bind(TestServer.user(100), "password").getResultCode(), ResultCode.SUCCESS);
        }
    }

    private static List<List<byte[]>> regressions() throws IOException {
        Path dir = TestServer.repoRoot().resolve("opendj-tests/src/test/resources/fuzz-regressions");
        List<List<byte[]>> out = new ArrayList<>();
        if (!Files.isDirectory(dir)) {
            return out;
        }
        try (Stream<Path> files = Files.list(dir)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".hex")).sorted().toList()) {
                List<byte[]> messages = new ArrayList<>();
                for (String line : Files.readAllLines(f)) {
                    if (!line.isBlank() && !line.startsWith("#")) {
                        messages.add(HexFormat.of().parseHex(line.trim()));
                    }
                }
                out.add(messages);
            }
        }
        return out;
    }

    private static Path save(int round, List<List<byte[]>> inputs) throws IOException {
        Path dir = Files.createDirectories(TestServer.repoRoot().resolve("opendj-tests/target/fuzz-failures"));
        Path file = dir.resolve("seed-" + SEED + "-round-" + round + ".hex");
        List<String> lines = new ArrayList<>();
        lines.add("# LiveFuzzTest seed " + SEED + " round " + round + ": one connection's messages per block");
        for (List<byte[]> burst : inputs) {
            for (byte[] m : burst) {
                lines.add(HexFormat.of().formatHex(m));
            }
        }
        Files.write(file, lines);
        return file;
    }
}
