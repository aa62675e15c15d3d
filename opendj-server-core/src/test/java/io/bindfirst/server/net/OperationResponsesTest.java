package io.bindfirst.server.net;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertNull;
import static org.testng.Assert.assertTrue;
import static org.testng.Assert.fail;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import org.forgerock.opendj.ldap.ResultCode;
import org.forgerock.opendj.ldap.responses.Response;
import org.forgerock.opendj.ldap.responses.Result;
import org.forgerock.opendj.ldap.responses.SearchResultEntry;
import org.reactivestreams.Subscriber;
import org.reactivestreams.Subscription;
import org.testng.annotations.AfterMethod;
import org.testng.annotations.BeforeMethod;
import org.testng.annotations.Test;

import io.bindfirst.server.config.ServerConfig.Listener.Inline;
import io.bindfirst.server.work.WorkerPool;

/**
 * The stream the transport subscribes to, with real operations on a real worker pool. Its Reactive Streams
 * rules are checked by {@link OperationResponsesTckTest}; this is what the server asks beyond them.
 */
public class OperationResponsesTest {
    private static final Object COMPLETE = "onComplete";

    /** One worker, so that {@link #workersIdle()} can tell when every operation queued so far has finished. */
    private WorkerPool workers;

    @BeforeMethod
    public void startWorkers() {
        workers = new WorkerPool(1, 16, 16);
    }

    @AfterMethod(alwaysRun = true)
    public void stopWorkers() {
        workers.close();
    }

    @Test(timeOut = 60_000)
    public void entriesBeyondTheDemandWaitAndTheResultComesLast() throws Exception {
        TestConnection connection = new TestConnection(4);
        Signals s = subscribe(connection, connection.operation(3));
        s.subscription.request(1);
        workersIdle();
        assertEquals(entryName(s.poll()), "entry-0");
        assertNull(s.poll(), "one requested, one sent; the others wait");
        s.subscription.request(2);
        assertEquals(entryName(s.poll()), "entry-1");
        assertEquals(entryName(s.poll()), "entry-2");
        assertNull(s.poll(), "the result waits for demand too");
        s.subscription.request(1);
        assertEquals(((Result) s.poll()).getResultCode(), ResultCode.SUCCESS);
        assertEquals(s.poll(), COMPLETE);
        assertNull(s.poll());
    }

    @Test(timeOut = 60_000)
    public void anOperationIsQueuedOnlyOnceItsConnectionHasAFreeSlot() throws Exception {
        TestConnection connection = new TestConnection(1);
        TestConnection.Entries first = connection.operation(0).hold();
        TestConnection.Entries second = connection.operation(0);
        Signals a = subscribe(connection, first);
        first.awaitRunning();
        Signals b = subscribe(connection, second);
        assertEquals(workers.mostPending(), 1, "the second must wait for the connection's slot, not in the queue");
        a.subscription.request(2);
        b.subscription.request(2);
        first.release();
        assertEquals(((Result) a.take()).getResultCode(), ResultCode.SUCCESS);
        assertEquals(a.take(), COMPLETE);
        // The first one freed its slot before it answered, so the second is queued by now.
        workersIdle();
        assertTrue(second.hasRun(), "the first one's slot went to the second");
        assertEquals(((Result) b.poll()).getResultCode(), ResultCode.SUCCESS);
        assertEquals(b.poll(), COMPLETE);
    }

    @Test(timeOut = 60_000)
    public void anOperationTheWorkQueueRefusesIsAnsweredBusy() throws Exception {
        workers.close();
        workers = new WorkerPool(1, 1, 0); // one running, one waiting, no more
        TestConnection connection = new TestConnection(4);
        TestConnection.Entries running = connection.operation(0).hold();
        Signals a = subscribe(connection, running);
        running.awaitRunning();
        Signals b = subscribe(connection, connection.operation(0));
        Signals refused = subscribe(connection, connection.operation(0));
        refused.subscription.request(2);
        Result busy = (Result) refused.poll();
        assertEquals(busy == null ? null : busy.getResultCode(), ResultCode.BUSY,
                "answered at once, on the thread that subscribed");
        assertEquals(refused.poll(), COMPLETE);
        a.subscription.request(2);
        b.subscription.request(2);
        running.release();
        assertEquals(((Result) a.take()).getResultCode(), ResultCode.SUCCESS);
        assertEquals(((Result) b.take()).getResultCode(), ResultCode.SUCCESS);
    }

    /**
     * A subscriber that stops asking (a client that stops reading): the operation queues a bounded number of
     * entries, then waits, with a thread started in its place; more demand lets it go on; demand that never
     * comes cuts the client off after the time limit, and the operation ends without sending the rest.
     */
    @Test(timeOut = 60_000)
    public void anOperationWaitsForDemandWithBoundedEntriesQueuedThenCutsOffAClientThatNeverReads()
            throws Exception {
        TestConnection connection = new TestConnection(4);
        int entries = 10 * OperationResponses.MOST_QUEUED;
        TestConnection.Entries op = connection.operation(entries);
        AtomicBoolean cutOff = new AtomicBoolean();
        Signals s = new Signals();
        OperationResponses responses = new OperationResponses(op, connection.slots(),
                dispatch(), Duration.ofSeconds(2), () -> cutOff.set(true));
        responses.subscribe(s);
        s.subscription.request(1);
        op.awaitRunning();
        io.bindfirst.server.testsupport.Poll.until("the operation waiting for demand", Duration.ofSeconds(10),
                workers::waitingForClients, n -> n == 1);
        assertEquals(workers.threads(), 1, "the configured workers, the stand-in not counted");
        CountDownLatch other = new CountDownLatch(1);
        assertTrue(workers.enqueue(other::countDown));
        assertTrue(other.await(10, TimeUnit.SECONDS), "other work waits for the one worker, which waits");
        s.subscription.request(5);
        for (int i = 0; i < 6; i++) {
            assertEquals(entryName(s.take()), "entry-" + i);
        }
        // No more demand: the time limit cuts the client off, and the operation ends.
        io.bindfirst.server.testsupport.Poll.until("the client cut off", Duration.ofSeconds(10), cutOff::get,
                c -> c);
        workersIdle();
        assertEquals(workers.waitingForClients(), 0);
        int received = 6;
        while (s.poll() instanceof SearchResultEntry) {
            received++;
        }
        assertTrue(received <= 6 + OperationResponses.MOST_QUEUED + 1, "entries sent after the cut-off: "
                + received);
    }

    @Test(timeOut = 60_000)
    public void aRefusedSecondSubscriberCannotCancelTheFirstOnesResponses() throws Exception {
        TestConnection connection = new TestConnection(4);
        OperationResponses responses = new OperationResponses(connection.operation(1), connection.slots(),
                dispatch(), Duration.ofMinutes(1), () -> { });
        Signals first = new Signals();
        Signals second = new Signals();
        responses.subscribe(first);
        responses.subscribe(second);
        assertTrue(second.poll() instanceof IllegalStateException, "one subscriber per operation (rule 1.9)");
        second.subscription.cancel();
        second.subscription.request(5);
        first.subscription.request(3);
        workersIdle();
        assertEquals(entryName(first.poll()), "entry-0");
        assertEquals(((Result) first.poll()).getResultCode(), ResultCode.SUCCESS);
        assertEquals(first.poll(), COMPLETE);
        assertNull(second.poll(), "the refused subscriber gets nothing more");
    }

    @Test(timeOut = 60_000)
    public void aRequestForNothingEndsTheStreamWithOneError() throws Exception {
        TestConnection connection = new TestConnection(4);
        Signals s = subscribe(connection, connection.operation(2));
        s.subscription.request(0);
        s.subscription.request(5);
        workersIdle();
        assertTrue(s.poll() instanceof IllegalArgumentException, "rule 3.9");
        assertNull(s.poll(), "nothing after the error, though the operation went on sending and demand came");
    }

    /**
     * Demand racing the worker's sends: the subscriber asks for one more from another thread each time it is
     * given one, while the worker goes on sending. Every round delivers every entry once, in order, then the
     * result and the completion, and no two signals ever overlap.
     */
    @Test(timeOut = 120_000)
    public void demandRacingSendsDeliversEverythingInOrderOneSignalAtATime() throws Exception {
        int entries = 50;
        ExecutorService requester = Executors.newSingleThreadExecutor();
        try {
            for (int round = 0; round < 300; round++) {
                TestConnection connection = new TestConnection(1);
                Ordered s = new Ordered(requester);
                new OperationResponses(connection.operation(entries), connection.slots(),
                dispatch(), Duration.ofMinutes(1), () -> { }).subscribe(s);
                s.subscription.request(1);
                if (!s.done.await(30, TimeUnit.SECONDS)) {
                    fail("round " + round + ": no completion after " + s.received + " signals");
                }
                assertEquals(List.copyOf(s.problems), List.of(), "round " + round);
                assertEquals(s.received, entries + 1, "round " + round);
            }
        } finally {
            requester.shutdownNow();
        }
    }

    private Signals subscribe(TestConnection connection, TestConnection.Entries op) {
        Signals s = new Signals();
        new OperationResponses(op, connection.slots(),
                dispatch(), Duration.ofMinutes(1), () -> { }).subscribe(s);
        return s;
    }

    /** Returns once the single worker has finished everything queued before this call. */
    private void workersIdle() throws InterruptedException {
        CountDownLatch reached = new CountDownLatch(1);
        assertTrue(workers.enqueue(reached::countDown));
        assertTrue(reached.await(30, TimeUnit.SECONDS), "the worker is stuck");
    }

    private static String entryName(Object signal) {
        assertTrue(signal instanceof SearchResultEntry, "expected an entry, got " + signal);
        return ((SearchResultEntry) signal).getName().rdn().getFirstAVA().getAttributeValue().toString();
    }

    /** Records every signal, in order; requests only when the test does. */
    private static final class Signals implements Subscriber<Response> {
        private final BlockingQueue<Object> signals = new LinkedBlockingQueue<>();
        volatile Subscription subscription;

        @Override
        public void onSubscribe(Subscription s) {
            subscription = s;
        }

        @Override
        public void onNext(Response r) {
            signals.add(r);
        }

        @Override
        public void onError(Throwable t) {
            signals.add(t);
        }

        @Override
        public void onComplete() {
            signals.add(COMPLETE);
        }

        /** The next signal already received, or {@code null}. */
        Object poll() {
            return signals.poll();
        }

        /** The next signal, waiting for it. */
        Object take() throws InterruptedException {
            Object signal = signals.poll(30, TimeUnit.SECONDS);
            if (signal == null) {
                fail("no signal came");
            }
            return signal;
        }
    }

    /** Checks order and that signals never overlap, as they arrive; asks for the next one from another thread. */
    private static final class Ordered implements Subscriber<Response> {
        final CountDownLatch done = new CountDownLatch(1);
        final List<String> problems = new CopyOnWriteArrayList<>();
        private final AtomicBoolean inside = new AtomicBoolean();
        private final ExecutorService requester;
        volatile Subscription subscription;
        volatile int received;

        Ordered(ExecutorService requester) {
            this.requester = requester;
        }

        @Override
        public void onSubscribe(Subscription s) {
            subscription = s;
        }

        @Override
        public void onNext(Response r) {
            enter("onNext");
            String expected = "entry-" + received;
            if (r instanceof SearchResultEntry e) {
                String name = e.getName().rdn().getFirstAVA().getAttributeValue().toString();
                if (!name.equals(expected)) {
                    problems.add(name + " where " + expected + " was due");
                }
            } else if (!(r instanceof Result)) {
                problems.add("unexpected " + r);
            }
            received++;
            inside.set(false);
            requester.execute(() -> subscription.request(1));
        }

        @Override
        public void onError(Throwable t) {
            enter("onError");
            problems.add("error " + t);
            inside.set(false);
            done.countDown();
        }

        @Override
        public void onComplete() {
            enter("onComplete");
            inside.set(false);
            done.countDown();
        }

        private void enter(String signal) {
            if (!inside.compareAndSet(false, true)) {
                problems.add(signal + " while another signal was being delivered");
            }
        }
    }

    private OperationDispatch dispatch() {
        return new OperationDispatch(workers, Inline.NEVER, () -> false);
    }
}
