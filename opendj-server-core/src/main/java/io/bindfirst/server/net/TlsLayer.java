package io.bindfirst.server.net;

import java.time.Duration;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

import javax.net.ssl.SSLEngine;

import org.glassfish.grizzly.Buffer;
import org.glassfish.grizzly.Connection;
import org.glassfish.grizzly.filterchain.BaseFilter;
import org.glassfish.grizzly.filterchain.Filter;
import org.glassfish.grizzly.filterchain.FilterChain;
import org.glassfish.grizzly.filterchain.FilterChainBuilder;
import org.glassfish.grizzly.filterchain.FilterChainContext;
import org.glassfish.grizzly.filterchain.NextAction;
import org.glassfish.grizzly.ssl.SSLBaseFilter;
import org.glassfish.grizzly.ssl.SSLEngineConfigurator;
import org.glassfish.grizzly.ssl.SSLFilter;
import org.glassfish.grizzly.ssl.SSLUtils;

import io.bindfirst.server.tls.TlsContext;
import io.bindfirst.server.tls.TlsStatistics;
import io.bindfirst.server.work.ThreadNice;

/**
 * TLS in the connections' Grizzly filter chains: one {@link SSLFilter}, first in the LDAPS listener's chain
 * and put into a plain connection's chain by StartTLS, taking its engines from the {@link TlsContext}.
 *
 * <p>Why not the SDK's {@code LDAPClientContext.enableTLS}: the filter it builds has a handshake timeout, and
 * with any timeout Grizzly runs the handshake <em>synchronously</em>: the selector thread that read the first
 * handshake bytes blocks, reading the client's next flight with a temporary selector, until the handshake is
 * done or the timeout passes. Every other connection on that selector waits meanwhile, and a client that
 * sends half a handshake holds them all for the timeout; under concurrent StartTLS some clients' handshakes
 * timed out. This filter has no timeout, so each handshake step runs when its bytes arrive and the selector
 * goes on; the time limit is the connection's own deadline ({@link ClientConnection}).
 *
 * <p>Its handshake events feed the {@link TlsStatistics} and tell the connection when TLS is up.
 */
final class TlsLayer implements AutoCloseable {
    private final TlsContext tls;
    private final TlsStatistics statistics;
    private final SSLFilter filter;
    /** Runs handshake steps off the selector threads, or {@code null} (they run on the selectors). */
    private final ThreadPoolExecutor handshakes;
    /** Hands reads to {@link #handshakes} while a handshake is in progress; {@code null} with no handshake threads. */
    private final OffSelector offSelector;
    private final ClientConnections connections;

    /**
     * @param handshakeThreads threads for handshake steps ({@code ds-cfg-ssl-handshake-threads}); 0: none
     * @param handshakeNice their nice value ({@code ds-cfg-ssl-handshake-thread-nice}): with the threads that
     *        serve established connections at 0, the kernel runs those first, and a storm of handshakes takes
     *        the CPU they leave (docs/BENCHMARKS.md, "Established connections during a handshake storm")
     */
    TlsLayer(TlsContext tls, TlsStatistics statistics, ClientConnections connections, int handshakeThreads,
            int handshakeNice) {
        this.tls = tls;
        this.statistics = statistics;
        this.connections = connections;
        ThreadNice nice = handshakeThreads == 0 || handshakeNice == 0 ? null : ThreadNice.ofThisSystem();
        this.handshakes = handshakeThreads == 0 ? null : new ThreadPoolExecutor(handshakeThreads,
                handshakeThreads, 0, TimeUnit.SECONDS, new LinkedBlockingQueue<>(), r -> {
                    Thread t = new Thread(() -> {
                        if (nice != null) {
                            nice.raiseCurrentThread(handshakeNice, "TLS handshake threads");
                        }
                        r.run();
                    }, "tls-handshake");
                    t.setDaemon(true);
                    return t;
                });
        this.offSelector = handshakes == null ? null : new OffSelector();
        Engines engines = new Engines(tls);
        this.filter = new SSLFilter(engines, engines);
        filter.setHandshakeTimeout(-1, TimeUnit.MILLISECONDS);
        // Grizzly never renegotiates by itself to ask for a client certificate later (it would run that handshake
        // blocking on a selector thread); the certificate is asked for in the first handshake or not at all. A
        // client's own renegotiation is refused by the JDK (TlsContext).
        filter.setRenegotiationDisabled(true);
        filter.addHandshakeListener(new Events(connections));
    }

    /** The filters an LDAPS listener's chain has right after the transport. */
    Filter[] ldapsFilters() {
        return offSelector == null ? new Filter[] {filter} : new Filter[] {offSelector, filter};
    }

    @Override
    public void close() {
        if (handshakes != null) {
            handshakes.shutdownNow();
        }
    }

    /**
     * Ahead of the TLS filter: a read that arrives while the connection's handshake is in progress is suspended
     * and resumed on a handshake thread, where the TLS filter then runs the handshake step (the key exchange
     * and the signature, a millisecond of CPU with the JDK). The selector thread goes straight back to the other
     * connections' reads. Once the handshake is done, reads pass through here at the cost of one state check.
     */
    private final class OffSelector extends BaseFilter {
        @Override
        public NextAction handleRead(FilterChainContext ctx) {
            ClientConnection c = connections.of(ctx.getConnection());
            if (c == null || !c.tlsHandshaking() || handshakes.isShutdown()) {
                return ctx.getInvokeAction();
            }
            ownCopy(ctx);
            ctx.suspend();
            try {
                handshakes.execute(() -> ctx.resumeNext());
            } catch (RejectedExecutionException stopping) {
                ctx.resumeNext();
            }
            return ctx.getSuspendAction();
        }

        /**
         * The read, in a buffer of its own size. Grizzly reads a TLS connection into a buffer of twice the largest
         * record (33 KB with the JDK's TLS), taken from a cache of the reading thread's, and puts it back in the
         * cache of whichever thread lets it go: here a handshake thread, once its step is done. So each
         * handshake read had the selector allocate a new one (twice per connection: 17% of what a storm of full
         * handshakes allocated); copying its few hundred bytes leaves that buffer to the selector's cache. A read
         * that fills most of the buffer (a long certificate chain) goes over as it is: its copy would cost as much.
         */
        private void ownCopy(FilterChainContext ctx) {
            if (ctx.getMessage() instanceof Buffer read && read.remaining() < read.capacity() / 2) {
                Buffer copy = ctx.getMemoryManager().allocate(read.remaining());
                copy.put(read);
                copy.flip();
                read.tryDispose();
                ctx.setMessage(copy);
            }
        }
    }

    long sessionTimeResolutionMillis() {
        return tls.sessionTimeResolutionMillis();
    }

    Duration handshakeTimeout() {
        return tls.handshakeTimeout();
    }

    TlsStatistics statistics() {
        return statistics;
    }

    /**
     * StartTLS: the next write on {@code connection} (the StartTLS response, which goes out in clear) puts the
     * TLS filter in its chain, so that the client's handshake, which follows that response, meets it.
     *
     * @return false when the connection already has TLS, or has it coming
     */
    boolean startTls(Connection<?> connection) {
        FilterChain chain = (FilterChain) connection.getProcessor();
        for (Filter f : chain) {
            if (f instanceof SSLBaseFilter || f instanceof AfterNextWrite) {
                return false;
            }
        }
        FilterChainBuilder withTls = FilterChainBuilder.stateless().addAll(chain).add(1, new AfterNextWrite());
        if (offSelector != null) {
            withTls.add(1, offSelector);
        }
        connection.setProcessor(withTls.build());
        return true;
    }

    /** Takes the TLS filter's place in the chain when the first message goes out, and lets that one pass. */
    private final class AfterNextWrite extends BaseFilter {
        @Override
        public NextAction handleWrite(FilterChainContext ctx) {
            ctx.getFilterChain().set(ctx.getFilterIdx(), filter);
            return ctx.getInvokeAction();
        }
    }

    /** Every connection's engine comes from the TLS context, so a renewed certificate reaches new ones. */
    private static final class Engines extends SSLEngineConfigurator {
        private final TlsContext tls;

        Engines(TlsContext tls) {
            this.tls = tls;
        }

        @Override
        public SSLEngine createSSLEngine() {
            return tls.newServerEngine();
        }

        @Override
        public SSLEngine createSSLEngine(String peerHost, int peerPort) {
            return tls.newServerEngine();
        }
    }

    /** Handshake events, passed to the connection they belong to. */
    private static final class Events implements SSLBaseFilter.HandshakeListener {
        private final ClientConnections connections;

        Events(ClientConnections connections) {
            this.connections = connections;
        }

        @Override
        public void onStart(Connection<?> connection) {
            ClientConnection c = connections.of(connection);
            SSLEngine engine = SSLUtils.getSSLEngine(connection);
            if (c != null && engine != null) {
                c.handshakeStarted(engine);
            }
        }

        @Override
        public void onComplete(Connection<?> connection) {
            ClientConnection c = connections.of(connection);
            if (c != null) {
                c.handshakeFinished();
            }
        }

        @Override
        public void onFailure(Connection<?> connection, Throwable t) {
            ClientConnection c = connections.of(connection);
            if (c != null) {
                c.handshakeFailed(TlsStatistics.reasonOf(t));
            }
        }
    }
}
