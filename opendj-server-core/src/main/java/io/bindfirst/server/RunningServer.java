package io.bindfirst.server;

import java.net.InetSocketAddress;
import java.nio.file.Path;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.bindfirst.server.config.ServerConfig;

/**
 * The server this process runs, started again in place when a replicated backend's storage must be opened again
 * (JE's rollback, when a master that was cut off from its group rejoins it): the old server is closed (its clients
 * get a notice of disconnection) and a new one starts on the same configuration and ports, so every cache, rule,
 * group and the registry of authenticated connections are rebuilt from what the storage holds now. Nothing else
 * in the process keeps state across that.
 */
final class RunningServer {
    private static final Logger LOG = LoggerFactory.getLogger(RunningServer.class);

    private final Path portsFile;
    /** Guarded by this. */
    private DirectoryServer current;
    /** Guarded by this: set by {@link #close}, after which no restart starts. */
    private boolean stopping;

    RunningServer(DirectoryServer first, Path portsFile) {
        this.current = first;
        this.portsFile = portsFile;
        first.whenRestartRequired(this::restart);
    }

    /** The server running now. */
    synchronized DirectoryServer current() {
        return current;
    }

    /** Stops the server for good (the process is ending). */
    synchronized void close() {
        stopping = true;
        current.close();
    }

    private void restart(String reason) {
        if (!restarted(reason)) {
            // Outside the lock: exiting runs the shutdown hook, which closes this (and takes the lock).
            System.exit(1);
        }
    }

    /** Starts the server again; false if it could not start (logged). */
    private synchronized boolean restarted(String reason) {
        if (stopping) {
            return true;
        }
        DirectoryServer old = current;
        ServerConfig again = onTheSamePorts(old);
        LOG.warn("The server starts again in this process, because a backend's storage must be opened again ({}): "
                + "its clients are disconnected and may connect again at once", reason);
        long started = System.nanoTime();
        old.close();
        DirectoryServer fresh;
        try {
            fresh = DirectoryServer.start(again);
        } catch (ServerStartException e) {
            LOG.error("The server could not start again ({}); the process stops, for a service manager to start it",
                    e.getMessage(), e);
            return false;
        }
        current = fresh;
        fresh.whenRestartRequired(this::restart);
        Launcher.writePorts(portsFile, fresh.ldapAddress(), fresh.ldapsAddress(), fresh.httpMetricsAddress());
        LOG.info("The server is listening again on port {} after {} ms; the storage rolled back what its group never "
                + "had", fresh.ldapAddress().getPort(), (System.nanoTime() - started) / 1_000_000);
        return true;
    }

    /** {@code server}'s configuration with the ports it listens on now (a port 0 was chosen by the system). */
    private static ServerConfig onTheSamePorts(DirectoryServer server) {
        ServerConfig config = server.context().config().withListenPort(server.ldapAddress().getPort());
        InetSocketAddress ldaps = server.ldapsAddress();
        if (ldaps != null) {
            config = config.withLdapsListener(config.ldapsListener().withPort(ldaps.getPort()));
        }
        InetSocketAddress http = server.httpMetricsAddress();
        if (http != null) {
            config = config.withHttpMetrics(config.httpMetrics().withPort(http.getPort()));
        }
        return config;
    }
}
