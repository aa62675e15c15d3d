package io.bindfirst.server.net;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertFalse;
import static org.testng.Assert.assertNull;
import static org.testng.Assert.assertTrue;
import static org.testng.Assert.fail;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.glassfish.grizzly.Buffer;
import org.glassfish.grizzly.filterchain.BaseFilter;
import org.glassfish.grizzly.filterchain.FilterChain;
import org.glassfish.grizzly.filterchain.FilterChainContext;
import org.glassfish.grizzly.filterchain.NextAction;
import org.testng.annotations.AfterMethod;
import org.testng.annotations.Test;

import io.bindfirst.server.testsupport.Poll;
import io.bindfirst.server.work.WorkQueue;
import io.bindfirst.server.work.WorkerPool;

/**
 * The gate on the server's own transport ({@link LdapTransport}, one selector), real sockets on loopback, and
 * the real worker pool whose saturation it obeys. A filter after the gate records what each read carried.
 * The clients here are not LDAP connections the server admitted, so only the server-wide half of the gate is
 * exercised; the per-connection half is {@link OperationSlots}' (see its test).
 */
public class ReadGateTest {
    private final List<AutoCloseable> open = new ArrayList<>();

    @AfterMethod(alwaysRun = true)
    public void closeAll() throws Exception {
        for (int i = open.size() - 1; i >= 0; i--) {
            open.get(i).close();
        }
        open.clear();
    }

    @Test(timeOut = 60_000)
    public void readsPassWhileTheWorkQueueHasRoom() throws Exception {
        WorkerPool workers = workers(1, 1);
        Gate gate = gate(workers);
        gate.client().send("A");
        assertEquals(gate.reads.poll(30, TimeUnit.SECONDS), "A");
        assertEquals(gate.readGate.timesParked(), 0);
    }

    @Test(timeOut = 60_000)
    public void readsWaitWhileTheWorkQueueIsSaturatedAndResumeInArrivalOrder() throws Exception {
        WorkerPool workers = workers(1, 1);
        Gate gate = gate(workers);
        Held held = hold(workers, 1);
        assertTrue(workers.saturated());
        Client a = gate.client();
        Client b = gate.client();
        Client c = gate.client();
        a.send("A");
        Poll.until("A's read parked", Duration.ofSeconds(30), () -> gate.readGate.parked() == 1);
        b.send("B");
        Poll.until("B's read parked", Duration.ofSeconds(30), () -> gate.readGate.parked() == 2);
        c.send("C");
        Poll.until("C's read parked", Duration.ofSeconds(30), () -> gate.readGate.parked() == 3);
        assertNull(gate.reads.poll(), "nothing passes the gate while the queue is saturated");

        held.releaseAll();
        List<String> order = List.of(take(gate), take(gate), take(gate));
        assertEquals(order, List.of("A", "B", "C"), "parked reads resume in the order they were parked");
        assertEquals(gate.readGate.parked(), 0);
        assertEquals(gate.readGate.timesParked(), 3);
    }

    /** The pool is saturated at its capacity and says it caught up below three quarters of it. */
    @Test(timeOut = 60_000)
    public void parkedReadsResumeOnlyOnceTheQueueIsBelowThreeQuartersOfItsCapacity() throws Exception {
        WorkerPool workers = workers(1, 4);
        Gate gate = gate(workers);
        Held held = hold(workers, 4);
        assertTrue(workers.saturated());
        gate.client().send("A");
        Poll.until("the read parked", Duration.ofSeconds(30), () -> gate.readGate.parked() == 1);

        held.release(0);
        held.awaitRunning(1); // so the first one's end, and what it told the gate, are over
        assertFalse(workers.saturated(), "three of four held");
        assertEquals(gate.readGate.parked(), 1, "three of four is not below three quarters: the read still waits");
        assertNull(gate.reads.poll());

        held.release(1);
        assertEquals(take(gate), "A", "two of four held: below three quarters, the read resumes");
        held.releaseAll();
    }

    /**
     * The last operation can finish between the gate's look at the queue and its parking of the read; no
     * operation is left to resume it then, so the gate looks again after parking. Here the queue is saturated
     * at the gate's first look only and never calls back, which is that interleaving.
     */
    @Test(timeOut = 60_000)
    public void aReadParkedAfterTheQueueCaughtUpIsResumedByTheGateItself() throws Exception {
        AtomicInteger looks = new AtomicInteger();
        WorkQueue caughtUpAfterTheFirstLook = new WorkQueue() {
            @Override
            public boolean enqueue(Runnable operation) {
                throw new UnsupportedOperationException("nothing is queued through the gate");
            }

            @Override
            public boolean hasWork() {
                return false;
            }

            @Override
            public void ranInline() {
            }

            @Override
            public long started() {
                return 0;
            }

            @Override
            public long startedInline() {
                return 0;
            }

            @Override
            public boolean saturated() {
                return looks.getAndIncrement() == 0;
            }

            @Override
            public void whenCaughtUp(Runnable callback) {
                // Never called back: the operation that would have is the one that already finished.
            }

            @Override
            public void close() {
            }
        };
        Gate gate = gate(caughtUpAfterTheFirstLook);
        gate.client().send("A");
        String passed = gate.reads.poll(30, TimeUnit.SECONDS);
        assertEquals(passed, "A", "the read stayed parked with nothing left to resume it");
        assertEquals(gate.readGate.timesParked(), 1);
        assertEquals(gate.readGate.parked(), 0);
    }

    // --- fixtures ---

    private WorkerPool workers(int threads, int capacity) {
        WorkerPool pool = new WorkerPool(threads, capacity, 16);
        open.add(pool);
        return pool;
    }

    private Gate gate(WorkQueue workQueue) throws IOException {
        Gate gate = new Gate(workQueue);
        open.add(gate);
        return gate;
    }

    private static String take(Gate gate) throws InterruptedException {
        String read = gate.reads.poll(30, TimeUnit.SECONDS);
        if (read == null) {
            fail("no read passed the gate");
        }
        return read;
    }

    /** Queues {@code n} tasks that hold their worker until released, one by one or all. */
    private static Held hold(WorkerPool workers, int n) {
        Held held = new Held(n);
        for (int i = 0; i < n; i++) {
            int k = i;
            assertTrue(workers.enqueue(() -> {
                held.running[k].countDown();
                try {
                    held.release[k].await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }));
        }
        return held;
    }

    private static final class Held {
        final CountDownLatch[] running;
        final CountDownLatch[] release;

        Held(int n) {
            running = new CountDownLatch[n];
            release = new CountDownLatch[n];
            for (int i = 0; i < n; i++) {
                running[i] = new CountDownLatch(1);
                release[i] = new CountDownLatch(1);
            }
        }

        void release(int k) {
            release[k].countDown();
        }

        void releaseAll() {
            for (CountDownLatch r : release) {
                r.countDown();
            }
        }

        void awaitRunning(int k) throws InterruptedException {
            assertTrue(running[k].await(30, TimeUnit.SECONDS), "task " + k + " never ran");
        }
    }

    /** The gate on a transport of its own, listening on a loopback port, with a recorder after it. */
    private static final class Gate implements AutoCloseable {
        final ReadGate readGate;
        final BlockingQueue<String> reads = new LinkedBlockingQueue<>();
        private final ClientConnections connections = new ClientConnections(16, 0);
        private final LdapTransport transport;
        private final int port;
        private final List<Socket> clients = new ArrayList<>();

        Gate(WorkQueue workQueue) throws IOException {
            readGate = new ReadGate(workQueue, connections);
            transport = new LdapTransport(1, readGate);
            ((FilterChain) transport.grizzly().getProcessor()).add(new BaseFilter() {
                @Override
                public NextAction handleRead(FilterChainContext ctx) {
                    Buffer b = ctx.getMessage();
                    reads.add(b.toStringContent(StandardCharsets.US_ASCII));
                    b.tryDispose();
                    return ctx.getStopAction();
                }
            });
            port = ((InetSocketAddress) transport.grizzly().bind("127.0.0.1", 0).getLocalAddress()).getPort();
        }

        Client client() throws IOException {
            Socket s = new Socket(InetAddress.getLoopbackAddress(), port);
            clients.add(s);
            return new Client(s);
        }

        @Override
        public void close() throws IOException {
            for (Socket s : clients) {
                s.close();
            }
            transport.close();
            connections.close();
        }
    }

    private record Client(Socket socket) {
        void send(String text) throws IOException {
            socket.getOutputStream().write(text.getBytes(StandardCharsets.US_ASCII));
            socket.getOutputStream().flush();
        }
    }
}
