package io.bindfirst.server.net;

import java.time.Duration;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;

import org.forgerock.opendj.ldap.responses.Response;
import org.reactivestreams.Publisher;
import org.reactivestreams.Subscriber;
import org.reactivestreams.Subscription;
import org.reactivestreams.tck.PublisherVerification;
import org.reactivestreams.tck.TestEnvironment;
import org.testng.annotations.AfterClass;
import org.testng.annotations.AfterMethod;

import io.bindfirst.server.core.Operation;
import io.bindfirst.server.config.ServerConfig.Listener.Inline;
import io.bindfirst.server.work.WorkerPool;

/**
 * {@link OperationResponses} against the Reactive Streams TCK. A stream of N elements is an operation that
 * sends N - 1 search entries and then its result, run by a real worker pool; a stream of none is an abandoned
 * operation, which sends nothing and still completes.
 */
public class OperationResponsesTckTest extends PublisherVerification<Response> {
    /**
     * How long the TCK waits for what must happen: generous, since on a busy machine a worker may start late.
     * Its checks of an expected error sleep this long whatever happens (three rules), so not more.
     */
    private static final long TIMEOUT_MILLIS = 5_000;
    /** How long it watches for what must not happen (an element nobody asked for). */
    private static final long NO_SIGNALS_MILLIS = 200;
    /** How long after a cancel it collects garbage and expects the subscriber to be gone (rule 3.13). */
    private static final long CANCELLED_SUBSCRIBER_GC_MILLIS = 1_000;

    private final WorkerPool workers = new WorkerPool(2, 64, 64);
    private final Queue<Operation> operations = new ConcurrentLinkedQueue<>();

    public OperationResponsesTckTest() {
        super(new TestEnvironment(TIMEOUT_MILLIS, NO_SIGNALS_MILLIS), CANCELLED_SUBSCRIBER_GC_MILLIS);
    }

    @Override
    public Publisher<Response> createPublisher(long elements) {
        TestConnection connection = new TestConnection(1);
        TestConnection.Entries op = connection.operation(Math.max(0, elements - 1));
        if (elements == 0) {
            op.abandon();
        }
        operations.add(op);
        return new OperationResponses(op, connection.slots(),
                new OperationDispatch(workers, Inline.NEVER, () -> false), Duration.ofMinutes(1), () -> { });
    }

    /** A stream that already has its subscriber: it refuses the next one with onSubscribe, then onError (1.9). */
    @Override
    public Publisher<Response> createFailedPublisher() {
        Publisher<Response> taken = createPublisher(1);
        taken.subscribe(new Subscriber<Response>() {
            @Override
            public void onSubscribe(Subscription s) {
                s.cancel();
            }

            @Override
            public void onNext(Response r) {
            }

            @Override
            public void onError(Throwable t) {
            }

            @Override
            public void onComplete() {
            }
        });
        return taken;
    }

    /**
     * Some TCK rules use a stream of 2^31 elements and cancel it early; its operation would go on producing
     * entries nobody reads. Abandon every operation after each rule, as a closing connection does.
     */
    @AfterMethod(alwaysRun = true)
    public void abandonOperations() {
        for (Operation op = operations.poll(); op != null; op = operations.poll()) {
            op.abandon();
        }
    }

    @AfterClass(alwaysRun = true)
    public void stopWorkers() {
        workers.close();
    }
}
