package io.bindfirst.server.net;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;

import org.forgerock.opendj.ldap.responses.Response;
import org.forgerock.opendj.ldap.responses.Result;
import org.reactivestreams.Publisher;
import org.reactivestreams.Subscriber;
import org.reactivestreams.Subscription;

import io.bindfirst.server.core.Operation;
import io.bindfirst.server.core.ResponseSink;
import io.bindfirst.server.work.Compensation;

/**
 * The responses of one operation, as the reactive stream the SDK's transport subscribes to. When it is
 * subscribed it starts the operation (once its connection has a free slot) through {@link OperationDispatch};
 * the operation then {@link #send}s entries and the result and {@link #complete}s. Every signal to the
 * subscriber comes from one drain loop, so none overlap, and none exceed the demand the transport
 * requested (a search may produce more entries than it asked for: those wait in a queue). The Reactive
 * Streams TCK checks it ({@code OperationResponsesTckTest}).
 *
 * <p>That queue is bounded: the transport asks for the next response only once the last one is written to
 * the socket, so a client that does not read would otherwise have the server hold its whole result (every
 * entry of every search it pipelined) in memory. At {@link #MOST_QUEUED} entries the operation's thread waits
 * for the client (standing aside for a replacement in its pool meanwhile, {@link Compensation}); one that is
 * still not reading after the time limit is cut off, the connection closed without a notice it would not read.
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

    /**
     * Entries (and references) held beyond the transport's demand before the operation waits: with the two the
     * transport holds, a few dozen entries per operation in memory, whatever the result's size.
     */
    static final int MOST_QUEUED = 32;

    private final Operation operation;
    private final OperationSlots slots;
    private final OperationDispatch dispatch;
    private final Duration longestWait;
    private final Runnable cutOff;
    /** Puts an entry and the result right behind it in one write; {@code null} where there is no transport. */
    private final WriteGather gather;
    private final ConcurrentLinkedQueue<Response> pending = new ConcurrentLinkedQueue<>();
    /** How many responses {@link #pending} holds (its own size() walks the queue). Through {@link #QUEUED}. */
    private volatile int queued;
    /** What a producer over the bound waits on; notified when responses leave the queue or the stream ends. */
    private final Object room = new Object();
    private volatile boolean producerWaiting;
    /** The transport's outstanding demand, through {@link #REQUESTED}. */
    private volatile long requested;
    /** The drain loop's work-in-progress count, through {@link #WIP}. */
    private volatile int wip;
    // Fields and VarHandles, not Atomic* objects: one stream is made per request, a bind's included, and three
    // atomics were three more objects each time.
    private static final VarHandle QUEUED;
    private static final VarHandle REQUESTED;
    private static final VarHandle WIP;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            QUEUED = lookup.findVarHandle(OperationResponses.class, "queued", int.class);
            REQUESTED = lookup.findVarHandle(OperationResponses.class, "requested", long.class);
            WIP = lookup.findVarHandle(OperationResponses.class, "wip", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }
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
     * @param longestWait how long the operation waits, its queue full, for the client to read
     * @param cutOff closes the connection when the client has not read for that long
     */
    OperationResponses(Operation operation, OperationSlots slots, OperationDispatch dispatch, Duration longestWait,
                       Runnable cutOff) {
        this(operation, slots, dispatch, longestWait, cutOff, null);
    }

    /** @param gather the transport's {@link WriteGather}, or {@code null} to write each response on its own */
    OperationResponses(Operation operation, OperationSlots slots, OperationDispatch dispatch, Duration longestWait,
                       Runnable cutOff, WriteGather gather) {
        this.gather = gather;
        this.operation = operation;
        this.slots = slots;
        this.dispatch = dispatch;
        this.longestWait = longestWait;
        this.cutOff = cutOff;
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
            long current;
            long next;
            do {
                current = requested;
                next = current + n < 0 ? Long.MAX_VALUE : current + n;
            } while (!REQUESTED.compareAndSet(this, current, next));
        }
        drain();
    }

    @Override
    public void cancel() {
        cancelled = true;
        drain();
    }

    /**
     * Queues a response. An entry or reference that finds {@link #MOST_QUEUED} already waiting waits first (on
     * the operation's thread, a worker's or the slow lane's: a search never runs on a transport thread) until
     * the client has read some, the operation is abandoned, or the time limit cuts the client off. The final
     * result never waits: every operation's last response, and a bind's only one, which may be sent inline; nor
     * does anything sent from a transport thread, which must never block (no operation that sends entries runs
     * there today).
     */
    @Override
    public void send(Response response) {
        if (cancelled) {
            return;
        }
        if (!(response instanceof Result) && queued >= MOST_QUEUED && Compensation.mayWait()
                && !waitForRoom()) {
            return;
        }
        QUEUED.getAndAdd(this, 1);
        pending.offer(response);
        drain();
    }

    /** @return whether there is room now; {@code false} if the stream ended or the operation was stopped */
    private boolean waitForRoom() {
        long now = System.nanoTime();
        long deadline = now + longestWait.toNanos();
        // A client that reads, only more slowly than the server sends, makes room within moments: the thread
        // waits that long as it is, and stands aside (a replacement thread started) only for a longer wait.
        Wait w = awaitRoom(Math.min(deadline, now + BRIEF_WAIT_NANOS));
        if (w == Wait.TIMED_OUT && deadline - System.nanoTime() > 0) {
            Wait[] rest = new Wait[1];
            Compensation.whileWaiting(() -> rest[0] = awaitRoom(deadline));
            w = rest[0];
        }
        if (w == Wait.TIMED_OUT) {
            cutOff.run();
            cancel();
            return false;
        }
        return w == Wait.ROOM;
    }

    /** How long a producer waits for room before its pool replaces it for the rest of the wait. */
    private static final long BRIEF_WAIT_NANOS = TimeUnit.MILLISECONDS.toNanos(50);

    private enum Wait { ROOM, STOPPED, TIMED_OUT }

    private Wait awaitRoom(long until) {
        synchronized (room) {
            producerWaiting = true;
            try {
                while (queued >= MOST_QUEUED) {
                    if (cancelled || operation.isAbandoned()) {
                        return Wait.STOPPED;
                    }
                    long left = until - System.nanoTime();
                    if (left <= 0) {
                        return Wait.TIMED_OUT;
                    }
                    // A bounded wait: an abandon or the connection's close stops the operation without a word
                    // to this stream, so the flag is looked at again every so often.
                    room.wait(Math.max(1, Math.min(TimeUnit.NANOSECONDS.toMillis(left), 100)));
                }
                return cancelled || operation.isAbandoned() ? Wait.STOPPED : Wait.ROOM;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return Wait.STOPPED;
            } finally {
                producerWaiting = false;
            }
        }
    }

    private void wakeProducer() {
        if (producerWaiting) {
            synchronized (room) {
                room.notifyAll();
            }
        }
    }

    /** Queues the last entry and the result together, so that one pass of the drain loop finds both. */
    @Override
    public void sendWithResult(Response last, Result result) {
        if (cancelled) {
            return;
        }
        QUEUED.getAndAdd(this, 2);
        pending.offer(last);
        pending.offer(result);
        drain();
    }

    @Override
    public void complete() {
        completed = true;
        drain();
    }

    /** Delivers what demand allows; whichever thread gets here first does the work for all (the wip count). */
    private void drain() {
        if ((int) WIP.getAndAdd(this, 1) != 0) {
            return;
        }
        int missed = 1;
        do {
            Subscriber<? super Response> s = downstream;
            if (s != null) {
                deliver(s);
            }
            missed = (int) WIP.getAndAdd(this, -missed) - missed;
        } while (missed != 0);
    }

    /** One pass of the drain loop, on the thread that owns it. */
    private void deliver(Subscriber<? super Response> s) {
        long demand = requested;
        long delivered = 0;
        while (delivered != demand && !cancelled && invalidRequest == null) {
            Response next = pending.poll();
            if (next == null) {
                break;
            }
            QUEUED.getAndAdd(this, -1);
            if (gather != null && !(next instanceof Result) && demand - delivered >= 2
                    && pending.peek() instanceof Result) {
                // An entry with the result right behind it, and demand for both: one write for the two (the
                // drain loop is the queue's only consumer, so the result peeked is the one polled).
                Response result = pending.poll();
                QUEUED.getAndAdd(this, -1);
                gather.holdingNextWrite(() -> s.onNext(next));
                s.onNext(result);
                delivered += 2;
                continue;
            }
            s.onNext(next);
            delivered++;
        }
        if (delivered != 0) {
            if (demand != Long.MAX_VALUE) {
                REQUESTED.getAndAdd(this, -delivered);
            }
            wakeProducer();
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
        queued = 0;
        wakeProducer();
    }
}
