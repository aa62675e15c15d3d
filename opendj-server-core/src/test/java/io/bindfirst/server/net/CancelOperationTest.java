package io.bindfirst.server.net;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertTrue;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import org.forgerock.opendj.ldap.ResultCode;
import org.forgerock.opendj.ldap.responses.ExtendedResult;
import org.forgerock.opendj.ldap.responses.Response;
import org.forgerock.opendj.ldap.responses.Result;
import org.forgerock.opendj.ldap.responses.SearchResultEntry;
import org.testng.annotations.Test;

import io.bindfirst.server.core.Operation;
import io.bindfirst.server.core.ResponseSink;

/**
 * The Cancel operation's answers with the real {@code Operation.run} and a connection's outstanding operations:
 * {@code success} after the cancelled one answered {@code canceled}; {@code tooLate} after it answered anything
 * else (here an operation that does not look at the cancel once running); never before the other's answer.
 */
public class CancelOperationTest {

    /** Every response of every operation it is attached to, in the order sent. */
    private static final class Recorder {
        final List<String> sent = new CopyOnWriteArrayList<>();

        ResponseSink sink(String name) {
            return new ResponseSink() {
                @Override
                public void send(Response response) {
                    if (!(response instanceof SearchResultEntry)) {
                        sent.add(name + ":" + ((Result) response).getResultCode().intValue()
                                + (response instanceof ExtendedResult ? "x" : ""));
                    }
                }

                @Override
                public void complete() {
                }
            };
        }
    }

    @Test(timeOut = 30_000)
    public void anOperationCancelledBeforeItRunsAnswersCanceledAndTheCancelSuccess() {
        TestConnection connection = new TestConnection(4);
        Recorder r = new Recorder();
        TestConnection.Entries search = connection.operation(3);
        search.attach(r.sink("search"));
        Operation cancel = connection.cancel(2, 1);
        cancel.attach(r.sink("cancel"));
        cancel.run();
        assertEquals(r.sent, List.of(), "the cancel waits for the search's answer");
        search.run();
        assertEquals(r.sent, List.of("search:" + ResultCode.CANCELLED.intValue(),
                "cancel:" + ResultCode.SUCCESS.intValue() + "x"));
    }

    @Test(timeOut = 30_000)
    public void anOperationThatGoesOnAnswersAndTheCancelIsTooLate() throws Exception {
        TestConnection connection = new TestConnection(4);
        Recorder r = new Recorder();
        TestConnection.Entries search = connection.operation(3).hold();
        search.attach(r.sink("search"));
        Thread worker = new Thread(search::run);
        worker.start();
        search.awaitRunning();
        Operation cancel = connection.cancel(2, 1);
        cancel.attach(r.sink("cancel"));
        cancel.run();
        assertEquals(r.sent, List.of());
        search.release();
        worker.join();
        assertEquals(r.sent, List.of("search:" + ResultCode.SUCCESS.intValue(),
                "cancel:" + ResultCode.TOO_LATE.intValue() + "x"));
    }

    @Test
    public void nothingOutstandingOrItselfAreRefusedAtOnce() {
        TestConnection connection = new TestConnection(4);
        Recorder r = new Recorder();
        Operation unknown = connection.cancel(2, 99);
        unknown.attach(r.sink("unknown"));
        unknown.run();
        Operation itself = connection.cancel(3, 3);
        itself.attach(r.sink("itself"));
        itself.run();
        assertEquals(r.sent, List.of("unknown:" + ResultCode.NO_SUCH_OPERATION.intValue() + "x",
                "itself:" + ResultCode.CANNOT_CANCEL.intValue() + "x"));
    }

    @Test
    public void aCancelCannotBeCancelled() {
        TestConnection connection = new TestConnection(4);
        Recorder r = new Recorder();
        TestConnection.Entries search = connection.operation(0);
        search.attach(r.sink("search"));
        Operation first = connection.cancel(2, 1);
        first.attach(r.sink("first"));
        first.run();
        Operation second = connection.cancel(3, 2);
        second.attach(r.sink("second"));
        second.run();
        assertTrue(r.sent.contains("second:" + ResultCode.CANNOT_CANCEL.intValue() + "x"), r.sent.toString());
        search.run();
        assertEquals(r.sent.get(r.sent.size() - 1), "first:" + ResultCode.SUCCESS.intValue() + "x");
    }
}
