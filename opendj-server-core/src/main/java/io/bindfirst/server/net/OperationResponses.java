package io.bindfirst.server.net;

import java.util.Objects;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import org.forgerock.opendj.ldap.responses.Response;
import org.reactivestreams.Publisher;
import org.reactivestreams.Subscriber;
import org.reactivestreams.Subscription;

import io.bindfirst.server.core.Operation;
import io.bindfirst.server.core.ResponseSink;

/**
 * The responses of one operation, as the reactive stream the SDK's transport subscribes to. When it is
 * subscribed it starts the operation (once its connection has a free slot) through {@link OperationDispatch};
 * the operation then {@link #send}s entries and the result and {@link #complete}s. Every signal to the
 * subscriber comes from one drain loop, so none overlap, and none exceed the demand the transport
 * requested (a search may produce more entries than it asked for: those wait in a queue). The Reactive
 * Streams TCK checks it ({@code OperationResponsesTckTest}).
 *
 * <p>Why not {@code Flowable.create(..., BUFFER)}: that allocates an emitter, a growable array queue and
 * operator wrappers per request; a bind needs one response. The profile showed that plumbing on the hot
 * path.
 */
final class OperationResponses implements Publisher<Response>, Subscription, ResponseSink {
    /** What a refused second subscriber is given before its error: its calls must not reach the stream. */
    private static final Subscription REFUSED = new Subscription() {
        @Override
        public void request(long n) {
        }

        @Override
        public void cancel() {
        }
    };

    private final Operation operation;
    private final OperationSlots slots;
    private final OperationDispatch dispatch;
    private final ConcurrentLinkedQueue<Response> pending = new ConcurrentLinkedQueue<>();
    private final AtomicLong requested = new AtomicLong();
    private final AtomicInteger wip = new AtomicInteger();
    private boolean subscribed;
    /**
     * Until the stream ends or is cancelled; then dropped, so that a cancelled subscriber can be collected
     * while the operation still runs (rule 3.13). Cleared only by the thread that owns the drain loop.
     */
    private Subscriber<? super Response> downstream;
    private volatile boolean completed;
    /** Cancelled, or ended: nothing more is queued or signalled. */
    private volatile boolean cancelled;
    /** A request for no demand (rule 3.9): its error is signalled by the drain loop, never over an onNext. */
    private volatile IllegalArgumentException invalidRequest;

    /**
     * @param slots the limit on outstanding operations of the operation's connection, whose slot the
     *              operation frees when it finishes
     */
    OperationResponses(Operation operation, OperationSlots slots, OperationDispatch dispatch) {
        this.operation = operation;
        this.slots = slots;
        this.dispatch = dispatch;
    }

    @Override
    public void subscribe(Subscriber<? super Response> subscriber) {
        Objects.requireNonNull(subscriber, "subscriber (rule 1.9)");
        if (subscribed) {
            // One subscriber only (the transport): a second gets an immediate error, per the spec (1.9, 2.5).
            subscriber.onSubscribe(REFUSED);
            subscriber.onError(new IllegalStateException("An operation's responses can be subscribed once"));
            return;
        }
        subscribed = true;
        downstream = subscriber;
        subscriber.onSubscribe(this);
        operation.attach(this);
        slots.start(this::enqueue);
    }

    private void enqueue() {
        dispatch.start(operation, slots);
    }

    @Override
    public void request(long n) {
        if (n <= 0) {
            invalidRequest = new IllegalArgumentException("request(" + n + "): demand must be positive (3.9)");
        } else {
            requested.accumulateAndGet(n, (a, b) -> a + b < 0 ? Long.MAX_VALUE : a + b);
        }
        drain();
    }

    @Override
    public void cancel() {
        cancelled = true;
        drain();
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
            Subscriber<? super Response> s = downstream;
            if (s != null) {
                deliver(s);
            }
            missed = wip.addAndGet(-missed);
        } while (missed != 0);
    }

    /** One pass of the drain loop, on the thread that owns it. */
    private void deliver(Subscriber<? super Response> s) {
        long demand = requested.get();
        long delivered = 0;
        while (delivered != demand && !cancelled && invalidRequest == null) {
            Response next = pending.poll();
            if (next == null) {
                break;
            }
            s.onNext(next);
            delivered++;
        }
        if (delivered != 0 && demand != Long.MAX_VALUE) {
            requested.addAndGet(-delivered);
        }
        IllegalArgumentException invalid = invalidRequest;
        if (cancelled) {
            end();
        } else if (invalid != null) {
            end();
            s.onError(invalid);
        } else if (completed && pending.isEmpty()) {
            end();
            s.onComplete();
        }
    }

    /** Nothing more will be signalled: forget the subscriber and whatever it will not receive. */
    private void end() {
        cancelled = true;
        downstream = null;
        pending.clear();
    }
}
