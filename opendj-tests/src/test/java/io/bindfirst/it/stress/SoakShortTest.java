package io.bindfirst.it.stress;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertTrue;

import java.time.Duration;
import java.util.List;

import org.testng.annotations.Test;

import io.bindfirst.bench.MixedLoad;
import io.bindfirst.it.support.ForkedServer;
import io.bindfirst.it.support.ProcessResources;
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
            int listening = ProcessResources.of(pid).sockets(); // the listeners' sockets, with no client yet
            MixedLoad.Result warm = MixedLoad.run(settings(server.port(), WARM_UP, WARM_UP.dividedBy(2)));
            assertEquals(warm.errors(), 0, "errors in the warm-up: " + warm.firstErrors());
            ProcessResources before = Poll.until("the warm-up's connections to close", SETTLE,
                    () -> ProcessResources.of(pid), r -> r.sockets() == listening);
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
            ProcessResources after = Poll.until("threads and descriptors back to " + before, SETTLE,
                    () -> ProcessResources.of(pid), before::covers);
            assertTrue(server.isAlive(), "the server exited; its last output:\n" + server.lastOutput());
            System.out.println("SOAK-SHORT after the clients left: " + after);
        }
    }

    private static MixedLoad.Settings settings(int port, Duration length, Duration window) {
        return new MixedLoad.Settings("127.0.0.1", port, CONNECTIONS, RATE, length, window, USERS, 0.1, "password");
    }
}
