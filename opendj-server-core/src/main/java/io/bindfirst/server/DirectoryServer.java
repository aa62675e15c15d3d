package io.bindfirst.server;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.InetSocketAddress;
import java.util.List;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import com.sun.management.UnixOperatingSystemMXBean;

import io.bindfirst.server.commit.ChangeListener;
import io.bindfirst.server.config.ServerConfig;
import io.bindfirst.server.core.OperationFactory;
import io.bindfirst.server.core.ServerContext;
import io.bindfirst.server.metrics.HttpMetricsListener;
import io.bindfirst.server.metrics.ServerMetrics;
import io.bindfirst.server.net.ClientConnections;
import io.bindfirst.server.net.LdapConnectionHandler;
import io.bindfirst.server.tls.TlsContext;
import io.bindfirst.server.tls.TlsStatistics;
import io.bindfirst.server.work.WorkQueue;
import io.reactivex.rxjava3.plugins.RxJavaPlugins;

/**
 * One running server: built from a {@link ServerConfig}, started, stopped. An instance, not a static
 * singleton, so tests run several in one JVM.
 */
public final class DirectoryServer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(DirectoryServer.class);
    /** File descriptors the server needs besides its client connections: JE files, logs, the JVM's jars. */
    static final int FILE_DESCRIPTOR_RESERVE = 256;

    /** What operations run with, and what the transport shares with them (workers, connections, TLS). */
    private final ServerComposition parts;
    private final ServerContext context;
    private final LdapConnectionHandler connectionHandler;
    /** The HTTP listener for metrics and health probes, or {@code null} when it is disabled. */
    private final HttpMetricsListener httpMetrics;
    private final java.util.concurrent.atomic.AtomicBoolean closed = new java.util.concurrent.atomic.AtomicBoolean();

    private DirectoryServer(ServerComposition parts, LdapConnectionHandler handler, HttpMetricsListener httpMetrics) {
        this.parts = parts;
        this.context = parts.context;
        this.connectionHandler = handler;
        this.httpMetrics = httpMetrics;
    }

    /** Opens the backends (creating sample data on a first start), then starts listening. */
    public static DirectoryServer start(ServerConfig config) throws ServerStartException {
        return start(config, List.of());
    }

    /**
     * As {@link #start(ServerConfig)}, with {@code extraListeners} told of every committed change after the
     * server's own listeners (a test's recorder; later, change feeds).
     */
    public static DirectoryServer start(ServerConfig config, List<ChangeListener> extraListeners)
            throws ServerStartException {
        // Errors delivered after a subscriber went away (a client that closed mid-response) are noise.
        RxJavaPlugins.setErrorHandler(e -> LOG.debug("Undeliverable reactive error", e));
        ServerComposition parts = ServerComposition.open(config, extraListeners);
        ServerContext ctx = parts.context;
        try {
            ServerConfig.Listener l = config.listener();
            LdapConnectionHandler handler = new LdapConnectionHandler(l, config.ldapsListener(), parts.tls,
                    ctx.schema(), new OperationFactory(ctx), ctx.authenticatedUsers(), ctx.accessLog(),
                    parts.workers, parts.connections, parts.tlsStatistics);
            HttpMetricsListener httpMetrics = null;
            if (config.httpMetrics().enabled()) {
                try {
                    httpMetrics = HttpMetricsListener.start(config.httpMetrics(),
                            ServerMetrics.registry(parts.monitored, handler::timesReadsParked), handler.address(),
                            parts.userBackends);
                } catch (IOException | RuntimeException e) {
                    handler.close();
                    throw e;
                }
            }
            warnIfTooFewFileDescriptors(config.listener().maxConnections());
            parts.advertise(handler.address());
            return new DirectoryServer(parts, handler, httpMetrics);
        } catch (IOException | RuntimeException e) {
            parts.closeAfterFailedStart();
            // The connection handler's IOException names the listener that could not start.
            throw new ServerStartException(e.getMessage(), e);
        }
    }

    /**
     * Each client connection is a file descriptor, and a server out of them stops accepting without a word
     * from the transport: say so at start when the limit cannot hold the configured maximum.
     */
    private static void warnIfTooFewFileDescriptors(int maxConnections) {
        if (ManagementFactory.getOperatingSystemMXBean() instanceof UnixOperatingSystemMXBean os) {
            long limit = os.getMaxFileDescriptorCount();
            long needed = (long) maxConnections + FILE_DESCRIPTOR_RESERVE;
            if (limit < needed) {
                LOG.warn("The open-files limit is {}, below the {} client connections allowed "
                        + "(ds-cfg-max-allowed-client-connections) plus {} for the server itself: connections "
                        + "beyond about {} will not be accepted. Raise the limit or lower the setting.",
                        limit, maxConnections, FILE_DESCRIPTOR_RESERVE, Math.max(0, limit - FILE_DESCRIPTOR_RESERVE));
            }
        }
    }

    /** How many sample entries this start created: more than 0 only on a first start with sample data. */
    public long sampleEntriesCreated() {
        return parts.sampleEntriesCreated;
    }

    public ServerContext context() {
        return context;
    }

    /** The open client connections (their count, the limits). */
    public ClientConnections clientConnections() {
        return connectionHandler.connections();
    }

    /** The work queue operations run from (its high-water figures are for tests and benchmarks). */
    public WorkQueue workQueue() {
        return parts.workers;
    }

    /** How often a saturated work queue parked a connection's read since the start (per-connection limits aside). */
    public long timesReadsParked() {
        return connectionHandler.timesReadsParked();
    }

    /** Operations started on the selector thread that read them ({@code ds-cfg-inline-cheap-operations}). */
    public long operationsStartedInline() {
        return parts.workers.startedInline();
    }

    /** Where the LDAP listener is bound (with the real port when 0 was configured). */
    public InetSocketAddress ldapAddress() {
        return connectionHandler.address();
    }

    /** Where the LDAPS listener is bound, or {@code null} when it is disabled. */
    public InetSocketAddress ldapsAddress() {
        return connectionHandler.ldapsAddress();
    }

    /**
     * Reads the TLS key and certificate files again now, if they changed, instead of at the next periodic check
     * (bin/reload-tls asks it with SIGHUP). New connections get the new certificate; established ones carry on.
     *
     * @return whether a new certificate is now in use ({@code false}: no TLS, the files unchanged, or unusable:
     *         the server log says which)
     */
    public boolean reloadTls() {
        TlsContext tls = parts.tls;
        if (tls == null) {
            LOG.info("Asked to reload the TLS key and certificate, but TLS is not configured");
            return false;
        }
        boolean reloaded = tls.reloadIfChanged();
        if (!reloaded) {
            LOG.info("Asked to reload the TLS key and certificate: no new certificate is in use (the files are "
                    + "unchanged, or a warning above says why they cannot be used)");
        }
        return reloaded;
    }

    /** Where the HTTP metrics listener is bound, or {@code null} when it is disabled. */
    public InetSocketAddress httpMetricsAddress() {
        return httpMetrics == null ? null : httpMetrics.address();
    }

    /** What the TLS handshakes did since the start: for a monitor to publish. */
    public TlsStatistics tlsStatistics() {
        return connectionHandler.tlsStatistics();
    }

    /**
     * Has {@code action} run (once, on a thread of its own, with the reason) when a replicated backend's storage
     * must be opened again: the server must then be closed and started again on the same configuration, which
     * rebuilds every cache and the registry of connections from what the storage holds (the Launcher does so).
     */
    public void whenRestartRequired(java.util.function.Consumer<String> action) {
        java.util.concurrent.atomic.AtomicBoolean once = new java.util.concurrent.atomic.AtomicBoolean();
        for (io.bindfirst.server.backend.Backend b : parts.userBackends) {
            b.replication().whenRestartRequired(reason -> {
                if (once.compareAndSet(false, true)) {
                    Thread t = new Thread(() -> action.accept(reason), "storage-restart");
                    t.start(); // not on the storage engine's thread, which the close waits for
                }
            });
        }
    }

    /**
     * Stops listening (HTTP first, so health probes fail from the start of the shutdown), sends each connection
     * a notice of disconnection, finishes queued operations, closes the backends and the access log.
     */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        if (httpMetrics != null) {
            httpMetrics.close();
        }
        connectionHandler.close();
        parts.close();
    }
}
