package io.bindfirst.it;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.testng.annotations.AfterClass;
import org.testng.annotations.BeforeClass;
import org.testng.annotations.Test;

import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPConnectionOptions;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.SearchScope;

/**
 * A fuzzer against the live server: rounds of connections, each sending a burst of {@link LdapMutator} messages
 * (valid, mutated and hostile) and reading whatever comes back until the server closes or goes quiet. After each
 * round a fresh client must still bind and search within seconds; at the end the server's threads and heap must
 * be where they were. Inputs that once broke something are replayed first from
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
    private TestServer server;

    @BeforeClass
    public void start() throws Exception {
        // user.0 to user.99 are the fuzzer's (it binds as them, and a garbled Password Modify may well change
        // their password: that is their right); user.100 is the checker's, which no fuzzed request can touch.
        server = TestServer.start(101);
    }

    @AfterClass(alwaysRun = true)
    public void stop() {
        if (server != null) {
            server.close();
        }
    }

    @Test(timeOut = 600_000)
    public void theServerKeepsServingThroughHostileInput() throws Exception {
        for (List<byte[]> regression : regressions()) {
            sendAll(regression);
            stillServes("a regression input");
        }
        stillServes("the start");
        int threadsBefore = Thread.activeCount();
        long heapBefore = HeapAfterGc.usedBytes();
        ExecutorService pool = Executors.newFixedThreadPool(CONNECTIONS);
        long messages = 0;
        try {
            for (int round = 0; round < ROUNDS; round++) {
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
        } finally {
            pool.shutdownNow();
        }
        System.out.println("LIVE-FUZZ rounds=" + ROUNDS + " seed=" + SEED + " messages=" + messages);
        // Connections close asynchronously: give the server a moment before counting its threads.
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (Thread.activeCount() > threadsBefore + 8 && System.nanoTime() < deadline) {
            Thread.sleep(100);
        }
        assertTrue(Thread.activeCount() <= threadsBefore + 8,
                "threads " + threadsBefore + " -> " + Thread.activeCount());
        long heapAfter = HeapAfterGc.usedBytes();
        assertTrue(heapAfter < heapBefore + 64L * 1024 * 1024,
                "heap after GC " + heapBefore / 1024 + " KiB -> " + heapAfter / 1024 + " KiB");
        assertEquals(server.server().context().backends().userBackends().size(), 1);
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
