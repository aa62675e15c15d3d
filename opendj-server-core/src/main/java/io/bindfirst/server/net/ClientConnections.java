package io.bindfirst.server.net;

import java.net.SocketAddress;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import org.forgerock.opendj.ldap.ResultCode;

/**
 * The open client connections: the maximum-connections limit, the idle time limit and the notice of
 * disconnection every connection gets when the server stops. The SDK has neither limit (and OpenDJ's idle
 * limit once silently did nothing, its issue #697), so both are here and both have integration tests.
 *
 * <p>The idle limit is enforced by one daemon thread that wakes a few times per limit period and walks the
 * connections; nothing is done per request unless the limit is on.
 */
public final class ClientConnections implements AutoCloseable {
    private final ConcurrentHashMap<Long, ClientConnection> open = new ConcurrentHashMap<>();
    /** By the client's address and port: how the {@link ReadGate} finds a Grizzly connection's own. */
    private final ConcurrentHashMap<SocketAddress, ClientConnection> byPeer = new ConcurrentHashMap<>();
    private final AtomicInteger count = new AtomicInteger();
    /** Numbers connections per server, not per JVM: tests run several servers in one JVM. */
    private final AtomicLong nextId = new AtomicLong();
    private final int max;
    private final long idleLimitNanos;
    private final ScheduledExecutorService reaper;

    public ClientConnections(int maxConnections, int idleTimeLimitSeconds) {
        this.max = maxConnections;
        this.idleLimitNanos = TimeUnit.SECONDS.toNanos(idleTimeLimitSeconds);
        if (idleTimeLimitSeconds > 0) {
            reaper = Executors.newSingleThreadScheduledExecutor(r -> {
                Thread t = new Thread(r, "idle-time-limit");
                t.setDaemon(true);
                return t;
            });
            long period = Math.max(100, Math.min(5_000, idleTimeLimitSeconds * 1000L / 4));
            reaper.scheduleWithFixedDelay(this::disconnectIdle, period, period, TimeUnit.MILLISECONDS);
        } else {
            reaper = null;
        }
    }

    /** The number of a new connection: never given to another while the server runs. */
    long nextId() {
        return nextId.getAndIncrement();
    }

    /** Whether connections record their activity (only when an idle limit is set). */
    boolean tracksActivity() {
        return reaper != null;
    }

    /** Admits a new connection unless the maximum is reached. */
    boolean tryAdd(ClientConnection c) {
        while (true) {
            int n = count.get();
            if (n >= max) {
                return false;
            }
            if (count.compareAndSet(n, n + 1)) {
                open.put(c.id(), c);
                SocketAddress peer = c.peerAddress();
                if (peer != null) {
                    byPeer.put(peer, c);
                }
                return true;
            }
        }
    }

    void remove(ClientConnection c) {
        if (open.remove(c.id()) != null) {
            count.decrementAndGet();
            SocketAddress peer = c.peerAddress();
            if (peer != null) {
                byPeer.remove(peer, c);
            }
        }
    }

    /** The open connection with this number, or {@code null} (never opened, or closed since). */
    public ClientConnection byId(long id) {
        return open.get(id);
    }

    /** The open connection from this client address and port, if any. */
    ClientConnection byPeer(SocketAddress peer) {
        return peer == null ? null : byPeer.get(peer);
    }

    public int size() {
        return count.get();
    }

    public int max() {
        return max;
    }

    private void disconnectIdle() {
        long now = System.nanoTime();
        long limitSeconds = TimeUnit.NANOSECONDS.toSeconds(idleLimitNanos);
        for (ClientConnection c : open.values()) {
            if (c.idleNanos(now) > idleLimitNanos) {
                c.disconnect(ResultCode.ADMIN_LIMIT_EXCEEDED, "The connection was idle for more than the "
                        + "idle time limit of " + limitSeconds + " seconds");
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
        if (reaper != null) {
            reaper.shutdownNow();
        }
    }
}
