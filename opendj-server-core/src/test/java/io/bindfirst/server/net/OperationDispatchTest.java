package io.bindfirst.server.net;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertFalse;
import static org.testng.Assert.assertNotSame;
import static org.testng.Assert.assertSame;
import static org.testng.Assert.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import org.forgerock.opendj.ldap.ResultCode;
import org.forgerock.opendj.ldap.responses.Response;
import org.forgerock.opendj.ldap.responses.Result;
import org.testng.annotations.AfterMethod;
import org.testng.annotations.BeforeMethod;
import org.testng.annotations.Test;

import io.bindfirst.server.core.Operation;
import io.bindfirst.server.core.ResponseSink;
import io.bindfirst.server.testsupport.Poll;
import io.bindfirst.server.config.ServerConfig.Listener.Inline;
import io.bindfirst.server.work.WorkerPool;

/**
 * Where {@link OperationDispatch} starts an operation: on the calling thread only for an operation that may
 * start inline, whose connection has nothing else outstanding, and (in the adaptive mode) while the workers
 * are idle; an operation that moves itself to the workers finishes there. A real worker pool and the real
 * {@code Operation.run}.
 */
public class OperationDispatchTest {
    private WorkerPool workers;

    @BeforeMethod
    public void startWorkers() {
        workers = new WorkerPool(1, 16, 16);
        sent.clear();
    }

    @AfterMethod(alwaysRun = true)
    public void stopWorkers() {
        workers.close();
    }

    /** What the transport does once it has subscribed: the responses go to {@link #sent}. */
    private void start(Inline mode, TestConnection connection, Operation op) {
        start(mode, connection, op, false);
    }

    private final List<Response> sent = new CopyOnWriteArrayList<>();

    private void start(Inline mode, TestConnection connection, Operation op, boolean stopping) {
        op.attach(new ResponseSink() {
            @Override
            public void send(Response response) {
                sent.add(response);
            }

            @Override
            public void complete() {
            }
        });
        new OperationDispatch(workers, mode, () -> stopping).start(op, connection.slots());
    }

    @Test(timeOut = 60_000)
    public void onceTheServerStopsAnOperationIsRefusedWithoutRunning() throws Exception {
        TestConnection connection = new TestConnection(4);
        TestConnection.Cheap op = connection.cheap(false);
        start(Inline.NEVER, connection, op, true);
        assertEquals(op.startedOn, null, "it did not run");
        assertEquals(sent.size(), 1);
        Result r = (Result) sent.get(0);
        assertEquals(r.getResultCode(), ResultCode.UNAVAILABLE);
        assertEquals(r.getDiagnosticMessage(), ClientConnections.SHUTTING_DOWN);
        assertEquals(connection.slots().outstanding(), 0, "its slot is free again");
    }

    @Test(timeOut = 60_000)
    public void aCheapOperationRunsOnTheThreadThatStartsIt() throws Exception {
        TestConnection connection = new TestConnection(4);
        TestConnection.Cheap op = connection.cheap(false);
        start(Inline.ALWAYS, connection, op);
        assertSame(op.finishedOn, Thread.currentThread(), "finished before start returned, on this thread");
        assertTrue(op.startedInline);
        assertEquals(connection.slots().outstanding(), 0, "its slot is free again");
    }

    @Test(timeOut = 60_000)
    public void anOperationThatMayBlockMovesToAWorkerAndFinishesThere() throws Exception {
        TestConnection connection = new TestConnection(4);
        TestConnection.Cheap op = connection.cheap(true);
        start(Inline.ALWAYS, connection, op);
        op.awaitFinished();
        assertSame(op.startedOn, Thread.currentThread());
        assertNotSame(op.finishedOn, Thread.currentThread(), "the rest ran on a worker");
        assertTrue(op.finishedOn.getName().startsWith("worker-"), op.finishedOn.getName());
    }

    @Test(timeOut = 60_000)
    public void neverMeansEveryOperationGoesToTheWorkers() throws Exception {
        TestConnection connection = new TestConnection(4);
        TestConnection.Cheap op = connection.cheap(false);
        start(Inline.NEVER, connection, op);
        op.awaitFinished();
        assertNotSame(op.startedOn, Thread.currentThread());
        assertFalse(op.startedInline, "on a worker an operation is not inline: onWorkers runs the rest at once");
    }

    @Test(timeOut = 60_000)
    public void anOperationThatCannotStartInlineGoesToTheWorkers() throws Exception {
        TestConnection connection = new TestConnection(4);
        TestConnection.Entries search = connection.operation(0);
        start(Inline.ALWAYS, connection, search);
        search.awaitRunning();
        assertEquals(workers.mostPending(), 1, "queued, not run here");
    }

    @Test(timeOut = 60_000)
    public void aCheapOperationDoesNotOvertakeOneOfItsConnectionStillOutstanding() throws Exception {
        TestConnection connection = new TestConnection(4);
        TestConnection.Entries search = connection.operation(0).hold();
        start(Inline.ALWAYS, connection, search);
        search.awaitRunning();
        TestConnection.Cheap bind = connection.cheap(false);
        start(Inline.ALWAYS, connection, bind);
        assertEquals(bind.finishedOn, null, "queued behind the search, on the one worker");
        search.release();
        bind.awaitFinished();
        assertNotSame(bind.finishedOn, Thread.currentThread());
    }

    @Test(timeOut = 60_000)
    public void whenWorkersIdleACheapOperationWaitsItsTurnWhileTheyAreBusy() throws Exception {
        TestConnection busy = new TestConnection(4);
        TestConnection.Entries search = busy.operation(0).hold();
        start(Inline.WHEN_WORKERS_IDLE, busy, search);
        search.awaitRunning();
        TestConnection other = new TestConnection(4);
        TestConnection.Cheap queued = other.cheap(false);
        start(Inline.WHEN_WORKERS_IDLE, other, queued);
        assertEquals(queued.finishedOn, null, "the workers had work, so it was queued");
        search.release();
        queued.awaitFinished();
        Poll.until("workers idle", Duration.ofSeconds(30), () -> !workers.hasWork());
        TestConnection.Cheap inline = other.cheap(false);
        start(Inline.WHEN_WORKERS_IDLE, other, inline);
        assertSame(inline.finishedOn, Thread.currentThread(), "idle workers: run here");
    }
}
