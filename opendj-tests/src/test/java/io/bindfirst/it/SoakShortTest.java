package io.bindfirst.it;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.testng.annotations.Test;

import io.bindfirst.bench.MixedLoad;
import io.bindfirst.server.testsupport.Poll;

/**
 * The soak of {@code benchmarks/soak.sh} in short, for every build: the same mixed load (binds, searches,
 * modifies over connections held open) for about a minute ({@code -Dsoak.seconds}, default 60) against a
 * forked server, which must answer every operation with success; once the clients have left, the server's
 * threads and descriptors must come back to (at most) what they were after a warm-up. Counts only, no timing:
 * this machine's speed says nothing. The warm-up (a few seconds of the same load) lets the server start what
 * it starts once and keeps (worker threads, the database's log files) before the baseline is taken.
 */
public class SoakShortTest {
    private static final int USERS = 1000;
    private static final int CONNECTIONS = 20;
    private static final double RATE = 200;
    private static final Duration WARM_UP = Duration.ofSeconds(6);
    /** The server closes a departed client's connection when it reads the unbind or the end of the stream. */
    private static final Duration SETTLE = Duration.ofSeconds(30);

    @Test
    public void mixedLoadMakesNoErrorAndLeavesNoThreadOrDescriptor() throws Exception {
        long seconds = Long.getLong("soak.seconds", 60);
        try (ForkedServer server = ForkedServer.start(USERS, List.of("-Xmx192m"))) {
            long pid = server.pid();
            int listening = Resources.of(pid).sockets(); // the listeners' sockets, with no client yet
            MixedLoad.Result warm = MixedLoad.run(settings(server.port(), WARM_UP, WARM_UP.dividedBy(2)));
            assertEquals(warm.errors(), 0, "errors in the warm-up: " + warm.firstErrors());
            Resources before = Poll.until("the warm-up's connections to close", SETTLE, () -> Resources.of(pid),
                    r -> r.sockets() == listening);
            MixedLoad.Result run = MixedLoad.run(settings(server.port(), Duration.ofSeconds(seconds),
                    Duration.ofSeconds(seconds / 3)));
            System.out.println("SOAK-SHORT " + run.line(settings(server.port(), Duration.ofSeconds(seconds),
                    Duration.ofSeconds(seconds / 3))) + " baseline " + before);
            assertEquals(run.errors(), 0, "errors: " + run.firstErrors());
            for (MixedLoad.Op op : MixedLoad.Op.values()) {
                // a tenth of the offered rate: the machine may be slow, but each type must have run
                long n = run.counts().get(op);
                assertTrue(n > RATE * seconds / 3 / 10, op + " ran " + n + " times");
            }
            Resources after = Poll.until("threads and descriptors back to " + before, SETTLE,
                    () -> Resources.of(pid), before::covers);
            assertTrue(server.isAlive(), "the server exited; its last output:\n" + server.lastOutput());
            System.out.println("SOAK-SHORT after the clients left: " + after);
        }
    }

    private static MixedLoad.Settings settings(int port, Duration length, Duration window) {
        return new MixedLoad.Settings("127.0.0.1", port, CONNECTIONS, RATE, length, window, USERS, 0.1, "password");
    }

    /**
     * A process's threads (/proc/PID/task/N/comm, by name with digits folded so that {@code worker-3} and
     * {@code worker-7} count together) except the JVM's own, its sockets and its other descriptors
     * (/proc/PID/fd) except the database's log files ({@code .jdb}), of which the database opens a new one
     * whenever the last is full.
     *
     * <p>The JVM's own threads (compilers, garbage collector workers, G1's refinement threads) are left out:
     * the JVM starts them when its load calls for them, up to limits it sets from the number of processors,
     * and keeps some of them for good, so one more of them after a load is not something the server holds.
     */
    record Resources(SortedMap<String, Integer> threads, int sockets, int otherFds) {
        private static final Pattern DIGITS = Pattern.compile("\\d+");
        /** Names the JVM gives its own threads (Linux keeps the first 15 characters). */
        private static final List<String> JVM_THREADS = List.of("C1 CompilerThre", "C2 CompilerThre",
                "GC Thread#", "G1 Refine#", "G1 Conc#", "G1 Main Marker", "G1 Service", "G1 Young RemSet",
                "VM Thread", "VM Periodic Tas", "Sweeper thread", "Monitor Deflati", "Service Thread",
                "Notification Th", "Signal Dispatch", "Reference Handl", "Finalizer", "Common-Cleaner",
                "Attach Listener");

        static Resources of(long pid) throws IOException {
            Path proc = Path.of("/proc", Long.toString(pid));
            SortedMap<String, Integer> threads = new TreeMap<>();
            try (Stream<Path> tasks = Files.list(proc.resolve("task"))) {
                for (Path task : (Iterable<Path>) tasks::iterator) {
                    String name;
                    try {
                        name = Files.readString(task.resolve("comm")).strip();
                    } catch (IOException e) {
                        continue; // ended between the listing and the read
                    }
                    if (JVM_THREADS.stream().noneMatch(name::startsWith)) {
                        threads.merge(DIGITS.matcher(name).replaceAll("N"), 1, Integer::sum);
                    }
                }
            }
            int sockets = 0;
            int other = 0;
            try (Stream<Path> fds = Files.list(proc.resolve("fd"))) {
                for (Path fd : (Iterable<Path>) fds::iterator) {
                    String target;
                    try {
                        target = Files.readSymbolicLink(fd).toString();
                    } catch (IOException e) {
                        continue; // closed between the listing and the read
                    }
                    if (target.startsWith("socket:")) {
                        sockets++;
                    } else if (!target.endsWith(".jdb")) {
                        other++;
                    }
                }
            }
            return new Resources(threads, sockets, other);
        }

        int threadCount() {
            return threads.values().stream().mapToInt(Integer::intValue).sum();
        }

        /**
         * No more of anything than this (a pool may shrink after the load; it must not grow), and no thread of a
         * name this did not have.
         */
        boolean covers(Resources now) {
            return now.threadCount() <= threadCount() && threads.keySet().containsAll(now.threads.keySet())
                    && now.sockets <= sockets && now.otherFds <= otherFds;
        }

        @Override
        public String toString() {
            return "Resources[threads=" + threadCount() + " " + threads + ", sockets=" + sockets + ", otherFds="
                    + otherFds + "]";
        }
    }
}
