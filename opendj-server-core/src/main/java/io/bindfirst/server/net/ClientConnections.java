package io.bindfirst.server.net;

import java.net.SocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

import org.forgerock.opendj.ldap.ResultCode;
import org.glassfish.grizzly.Connection;
import org.glassfish.grizzly.Grizzly;
import org.glassfish.grizzly.attributes.Attribute;

/**
 * The open client connections: the maximum-connections limit, the idle time limit and the notice of
 * disconnection every connection gets when the server stops. The SDK has neither limit (and OpenDJ's idle
 * limit once silently did nothing, its issue #697), so both are here and both have integration tests.
 *
 * <p>The idle limit is enforced by one daemon thread that wakes a few times per limit period and walks the
 * connections; nothing is done per request unless the limit is on. The same thread closes connections whose
 * TLS handshake has not finished in time.
 */
public final class ClientConnections implements AutoCloseable {
    private final ConcurrentHashMap<Long, ClientConnection> open = new ConcurrentHashMap<>();
    /**
     * By both ends' addresses and ports: how a Grizzly connection's own is found ({@link #of}). The client's
     * end alone is not enough: one client port may connect to both listeners.
     */
    private final ConcurrentHashMap<Ends, ClientConnection> byEnds = new ConcurrentHashMap<>();
    /** A Grizzly connection's {@link ClientConnection}, found once by its ends and then kept on it. */
    private final Attribute<ClientConnection> own =
            Grizzly.DEFAULT_ATTRIBUTE_BUILDER.createAttribute(ClientConnections.class.getName() + ".own");
    private final AtomicInteger count = new AtomicInteger();
    /** The most connections open at once, and how many were admitted in all: for cn=monitor. */
    private final AtomicInteger peak = new AtomicInteger();
    private final AtomicLong admitted = new AtomicLong();
    /** Connections refused because the maximum was open: for cn=monitor and /metrics. */
    private final LongAdder refusedAtLimit = new LongAdder();
    /** Numbers connections per server, not per JVM: tests run several servers in one JVM. */
    private final AtomicLong nextId = new AtomicLong();
    /** Set once by {@link #drain}: the server is stopping. */
    private volatile boolean draining;
    /** The message of the refusals and notices of a stop. */
    static final String SHUTTING_DOWN = "The Directory Server is shutting down";
    private final int max;
    private final long idleLimitNanos;
    private final boolean idleLimitOn;
    /** Runs the idle limit's walks and TLS handshake deadlines; one daemon thread. */
    private final ScheduledThreadPoolExecutor timer;

    public ClientConnections(int maxConnections, int idleTimeLimitSeconds) {
        this.max = maxConnections;
        this.idleLimitNanos = TimeUnit.SECONDS.toNanos(idleTimeLimitSeconds);
        this.idleLimitOn = idleTimeLimitSeconds > 0;
        this.timer = new ScheduledThreadPoolExecutor(1, r -> {
            Thread t = new Thread(r, "connection-timer");
            t.setDaemon(true);
            return t;
        });
        // A deadline is dropped from the queue when cancelled, and none runs after close().
        timer.setRemoveOnCancelPolicy(true);
        timer.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
        if (idleLimitOn) {
            long period = Math.max(100, Math.min(5_000, idleTimeLimitSeconds * 1000L / 4));
            timer.scheduleWithFixedDelay(this::disconnectIdle, period, period, TimeUnit.MILLISECONDS);
        }
    }

    /**
     * Runs {@code task} once after {@code delay} on the connections' timer thread (it must not block).
     *
     * @return the pending task, to cancel when it is no longer needed (a cancelled task leaves the queue at
     *         once, and with it what it holds), or {@code null} when the server is stopping
     */
    ScheduledFuture<?> afterDelay(Duration delay, Runnable task) {
        try {
            return timer.schedule(task, delay.toNanos(), TimeUnit.NANOSECONDS);
        } catch (RejectedExecutionException e) {
            // Closed: the server is stopping and closes every connection anyway.
            return null;
        }
    }

    /** The number of a new connection: never given to another while the server runs. */
    long nextId() {
        return nextId.getAndIncrement();
    }

    /** Whether connections record their activity (only when an idle limit is set). */
    boolean tracksActivity() {
        return idleLimitOn;
    }

    /** Admits a new connection unless the maximum is reached. */
    boolean tryAdd(ClientConnection c) {
        while (true) {
            int n = count.get();
            if (n >= max) {
                refusedAtLimit.increment();
                return false;
            }
            if (count.compareAndSet(n, n + 1)) {
                admitted.incrementAndGet();
                if (n + 1 > peak.get()) {
                    peak.accumulateAndGet(n + 1, Math::max);
                }
                open.put(c.id(), c);
                Ends ends = Ends.of(c.localAddress(), c.peerAddress());
                if (ends != null) {
                    byEnds.put(ends, c);
                }
                return true;
            }
        }
    }

    void remove(ClientConnection c) {
        if (open.remove(c.id()) != null) {
            count.decrementAndGet();
            Ends ends = Ends.of(c.localAddress(), c.peerAddress());
            if (ends != null) {
                byEnds.remove(ends, c);
            }
        }
    }

    /** The open connection with this number, or {@code null} (never opened, or closed since). */
    public ClientConnection byId(long id) {
        return open.get(id);
    }

    /**
     * The server's connection for a Grizzly one, or {@code null} when it was not admitted (or is closed). The
     * first call finds it by address and gives it the Grizzly connection (for StartTLS); later calls read it
     * from the Grizzly connection's attributes.
     */
    ClientConnection of(Connection<?> grizzly) {
        ClientConnection c = own.get(grizzly);
        if (c == null) {
            Ends ends = Ends.of((SocketAddress) grizzly.getLocalAddress(), (SocketAddress) grizzly.getPeerAddress());
            c = ends == null ? null : byEnds.get(ends);
            if (c != null) {
                c.attachTransport(grizzly);
                own.set(grizzly, c);
            }
        }
        return c;
    }

    /** A connection's local and remote address and port. */
    private record Ends(SocketAddress local, SocketAddress peer) {
        static Ends of(SocketAddress local, SocketAddress peer) {
            return local == null || peer == null ? null : new Ends(local, peer);
        }
    }

    /** Tasks waiting on the connection timer: handshake deadlines pending, and the idle limit's walk if it is on. */
    public int pendingTimers() {
        return timer.getQueue().size();
    }

    public int size() {
        return count.get();
    }

    public int max() {
        return max;
    }

    /** The most connections that were open at once since the start. */
    public int peak() {
        return peak.get();
    }

    /** The reason {@link #refused()} names connections refused at the maximum by. */
    public static final String REFUSED_AT_LIMIT = "connection_limit";

    /**
     * Connections refused since the start, by reason: only {@value #REFUSED_AT_LIMIT} (the maximum was open)
     * today. Back-pressure never refuses a connection (it suspends reads), and a TLS handshake that fails is
     * counted by the TLS statistics.
     */
    public Map<String, Long> refused() {
        return Map.of(REFUSED_AT_LIMIT, refusedAtLimit.sum());
    }

    /** Connections admitted since the start (those refused at the maximum are not counted). */
    public long admitted() {
        return admitted.get();
    }

    private void disconnectIdle() {
        long now = System.nanoTime();
        long limitSeconds = TimeUnit.NANOSECONDS.toSeconds(idleLimitNanos);
        for (ClientConnection c : open.values()) {
            if (c.idleNanos(now) > idleLimitNanos) {
                String why = "The connection was idle for more than the idle time limit of " + limitSeconds
                        + " seconds";
                if (c.tlsHandshaking()) {
                    // No notice mid-handshake: it would wait in the write queue for a handshake the client has
                    // not finished, and the socket with it (ResourceAbuseTest: LDAPS connections that sent half
                    // a ClientHello left the registry with their sockets open).
                    c.terminate(why);
                } else {
                    c.disconnect(ResultCode.ADMIN_LIMIT_EXCEEDED, why);
                }
            }
        }
    }

    /** Whether the server has begun to stop: no operation starts any more ({@link #drain}). */
    boolean draining() {
        return draining;
    }

    /**
     * Refuses every operation not yet started (unavailable) from now on, and waits until no connection has one
     * outstanding, or {@code limit} has passed: the first step of a stop, after the listeners stop accepting.
     * An operation counted before the flag is waited for; one counted after sees it (both are volatile).
     * Searches are abandoned rather than waited for: one may run long (a large result, a client that reads
     * slowly) and changes nothing; its client learns of the stop from the notice that follows.
     *
     * @return how many operations were still outstanding at the limit
     */
    public int drain(Duration limit) {
        draining = true;
        for (ClientConnection c : open.values()) {
            c.abandonSearches();
        }
        long end = System.nanoTime() + limit.toNanos();
        for (;;) {
            int outstanding = 0;
            for (ClientConnection c : open.values()) {
                outstanding += c.slots().outstanding();
            }
            if (outstanding == 0 || System.nanoTime() - end > 0) {
                return outstanding;
            }
            try {
                Thread.sleep(5);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return outstanding;
            }
        }
    }

    /** Sends every open connection a notice of disconnection and closes it. */
    public void disconnectAll(ResultCode code, String message) {
        for (ClientConnection c : List.copyOf(open.values())) {
            c.disconnect(code, message);
        }
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }
}
