package io.bindfirst.server.net;

import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import org.forgerock.opendj.ldap.responses.Response;
import org.reactivestreams.Publisher;
import org.reactivestreams.Subscriber;
import org.reactivestreams.Subscription;

import io.bindfirst.server.core.Operation;
import io.bindfirst.server.core.ResponseSink;
import io.bindfirst.server.work.WorkQueue;

/**
 * The responses of one operation, as the reactive stream the SDK's transport subscribes to. When it is
 * subscribed it queues the operation on the worker pool (once its connection has a free slot); the worker
 * then {@link #send}s entries and the result and {@link #complete}s. Signals are serialized by a drain loop and never exceed the demand the
 * transport requested (a search may produce more entries than it asked for: those wait in a queue).
 *
 * <p>Why not {@code Flowable.create(..., BUFFER)}: that allocates an emitter, a growable array queue and
 * operator wrappers per request; a bind needs one response. The profile showed that plumbing on the hot
 * path (issue #4).
 */
final class OperationResponses implements Publisher<Response>, Subscription, ResponseSink {
    private final Operation operation;
    private final ClientConnection connection;
    private final WorkQueue workQueue;
    private final ConcurrentLinkedQueue<Response> pending = new ConcurrentLinkedQueue<>();
    private final AtomicLong requested = new AtomicLong();
    private final AtomicInteger wip = new AtomicInteger();
    private Subscriber<? super Response> downstream;
    private volatile boolean completed;
    private volatile boolean cancelled;
    private boolean terminated;

    OperationResponses(Operation operation, ClientConnection connection, WorkQueue workQueue) {
        this.operation = operation;
        this.connection = connection;
        this.workQueue = workQueue;
    }

    @Override
    public void subscribe(Subscriber<? super Response> subscriber) {
        if (downstream != null) {
            // One subscriber only (the transport): a second gets an immediate error, per the spec (1.9, 2.5).
            subscriber.onSubscribe(this);
            subscriber.onError(new IllegalStateException("An operation's responses can be subscribed once"));
            return;
        }
        downstream = subscriber;
        subscriber.onSubscribe(this);
        operation.attach(this);
        connection.slots().start(this::enqueue);
    }

    private void enqueue() {
        if (!workQueue.enqueue(operation)) {
            operation.rejectBusy();
        }
    }

    @Override
    public void request(long n) {
        if (n <= 0) {
            cancelled = true;
            downstream.onError(new IllegalArgumentException("request(" + n + "): demand must be positive (3.9)"));
            return;
        }
        requested.accumulateAndGet(n, (a, b) -> a + b < 0 ? Long.MAX_VALUE : a + b);
        drain();
    }

    @Override
    public void cancel() {
        cancelled = true;
        pending.clear();
    }

    @Override
    public void send(Response response) {
        if (!cancelled) {
            pending.offer(response);
            drain();
        }
    }

    @Override
    public void complete() {
        completed = true;
        drain();
    }

    /** Delivers what demand allows; whichever thread gets here first does the work for all (the wip count). */
    private void drain() {
        if (wip.getAndIncrement() != 0) {
            return;
        }
        int missed = 1;
        do {
            long demand = requested.get();
            long delivered = 0;
            while (delivered != demand && !cancelled) {
                Response next = pending.poll();
                if (next == null) {
                    break;
                }
                downstream.onNext(next);
                delivered++;
            }
            if (delivered != 0 && demand != Long.MAX_VALUE) {
                requested.addAndGet(-delivered);
            }
            if (!terminated && !cancelled && completed && pending.isEmpty()) {
                terminated = true;
                downstream.onComplete();
            }
            missed = wip.addAndGet(-missed);
        } while (missed != 0);
    }
}
