package io.bindfirst.server;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;

import io.bindfirst.server.config.ConfigException;
import io.bindfirst.server.config.ConfigLoader;
import io.bindfirst.server.config.ServerConfig;
import io.bindfirst.server.log.ErrorLog;

/**
 * {@code main}: reads the configuration, starts the server, writes {@code logs/server.pid}, prints where
 * it listens, and runs until stopped (SIGTERM from {@code bin/stop-ds} closes the database cleanly).
 *
 * <pre>
 * Launcher [--instanceRoot DIR] [--config FILE] [--port N] [--ldaps-port N] [--metrics-port N]
 *          [--benchmark-bind-ceiling]
 * </pre>
 */
public final class Launcher {
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(Launcher.class);
    /**
     * The ports the running server listens on, with its pid, for {@code bin/status}: a port given as 0 is chosen
     * by the system and is nowhere else to be read. Written once listening, deleted at the stop.
     */
    public static final String PORTS_FILE = "logs/server.ports";

    private Launcher() {
    }

    /** Writes {@link #PORTS_FILE}: {@code pid=}, {@code ldap=}, and {@code ldaps=} and {@code http=} when listening. */
    static void writePorts(Path file, InetSocketAddress ldap, InetSocketAddress ldaps,
                                   InetSocketAddress http) {
        StringBuilder b = new StringBuilder("pid=" + ProcessHandle.current().pid() + "\nldap=" + ldap.getPort() + "\n");
        if (ldaps != null) {
            b.append("ldaps=").append(ldaps.getPort()).append('\n');
        }
        if (http != null) {
            b.append("http=").append(http.getPort()).append('\n');
        }
        try {
            Files.writeString(file, b, StandardCharsets.US_ASCII);
        } catch (IOException e) {
            System.err.println("Warning: cannot write " + file + " (bin/status reads the ports from it): "
                    + e.getMessage());
        }
    }

    public static void main(String[] args) {
        Path root = Path.of(".");
        Path configFile = null;
        Integer port = null;
        Integer ldapsPort = null;
        Integer metricsPort = null;
        boolean ceiling = false;
        try {
            for (int i = 0; i < args.length; i++) {
                switch (args[i]) {
                    case "--instanceRoot": root = Path.of(value(args, i++)); break;
                    case "--config": configFile = Path.of(value(args, i++)); break;
                    case "--benchmark-bind-ceiling": ceiling = true; break;
                    case "--port": port = portNumber(args[i], value(args, i++)); break;
                    case "--ldaps-port": ldapsPort = portNumber(args[i], value(args, i++)); break;
                    case "--metrics-port": metricsPort = portNumber(args[i], value(args, i++)); break;
                    default: usage("unknown option " + args[i]);
                }
            }
        } catch (java.nio.file.InvalidPathException e) {
            usage("not a path: " + e.getMessage());
        }
        root = root.toAbsolutePath().normalize();
        if (configFile == null) {
            configFile = root.resolve("config/config.ldif");
        }
        DirectoryServer server;
        try {
            ServerConfig config = ConfigLoader.load(configFile, root);
            if (port != null) {
                config = config.withListenPort(port);
            }
            if (ldapsPort != null) {
                if (config.ldapsListener() == null) {
                    usage("--ldaps-port: LDAPS is disabled in the configuration "
                            + "(cn=LDAPS Connection Handler,cn=Connection Handlers,cn=config)");
                }
                config = config.withLdapsListener(config.ldapsListener().withPort(ldapsPort));
            }
            if (metricsPort != null) {
                if (!config.httpMetrics().enabled()) {
                    usage("--metrics-port: the HTTP metrics listener is disabled in the configuration ("
                            + ServerConfig.HttpMetrics.ENTRY + ")");
                }
                config = config.withHttpMetrics(config.httpMetrics().withPort(metricsPort));
            }
            if (ceiling) {
                config = config.withBindCeiling(true);
            }
            Optional<ErrorLog.Settings> errors = Optional.ofNullable(config.errorLog());
            if (errors.isPresent()) {
                try {
                    ErrorLog.install(errors.get()); // for the life of this process: closed with it
                } catch (IOException e) {
                    throw new ServerStartException("Cannot open the server log " + errors.get().file() + ": "
                            + e.getMessage(), e);
                }
            }
            server = DirectoryServer.start(config);
        } catch (ConfigException | ServerStartException e) {
            System.err.println("The server could not start: " + e.getMessage());
            System.exit(1);
            return;
        }
        CountDownLatch stopped = new CountDownLatch(1);
        Path pidFile = root.resolve("logs/server.pid");
        Path portsFile = root.resolve(PORTS_FILE);
        RunningServer running = new RunningServer(server, portsFile);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            LOG.info("The server is stopping");
            running.close();
            LOG.info("The server has stopped");
            try {
                Files.deleteIfExists(portsFile);
                Files.deleteIfExists(pidFile);
            } catch (IOException ignored) {
                // nothing left to do on the way out
            }
            stopped.countDown();
        }, "shutdown"));
        reloadTlsOnHangUp(running);
        try {
            Files.createDirectories(pidFile.getParent());
            Files.writeString(pidFile, ProcessHandle.current().pid() + "\n", StandardCharsets.US_ASCII);
        } catch (IOException e) {
            System.err.println("Warning: cannot write " + pidFile + ": " + e.getMessage());
        }
        if (server.sampleEntriesCreated() > 0) {
            // Creating the sample users grows the heap (G1 expands while that burst's pauses take over 4% of the
            // time) to 165-175 MiB for ~45 MiB that stay live, and keeps it: the demo then held ~290 MiB resident
            // under 400 connections of binds where a restart of the same instance holds ~190. One collection
            // here, before clients come, hands it back (to ~70 MiB committed).
            new HeapGiveBack(20, 40).collect();
        }
        // Before the line bin/start-ds waits for, so that it is there when the script shows the output.
        InetSocketAddress h = server.httpMetricsAddress();
        if (h != null) {
            System.out.println("Metrics on http://" + h.getAddress().getHostAddress() + ":" + h.getPort()
                    + "/metrics (and /alive, /healthy)");
        }
        InetSocketAddress a = server.ldapAddress();
        String url = "ldap://" + a.getAddress().getHostAddress() + ":" + a.getPort();
        InetSocketAddress s = server.ldapsAddress();
        String listening = "The server is listening on " + url
                + (s == null ? "" : " and ldaps://" + s.getAddress().getHostAddress() + ":" + s.getPort());
        writePorts(portsFile, a, s, h);
        LOG.info("{}{}", listening, h == null ? "" : "; metrics on port " + h.getPort());
        System.out.println(listening);
        // The first backend's base DN: bin/setup may have chosen another than the demo's dc=example,dc=com.
        String base = server.context().config().backends().isEmpty() ? "dc=example,dc=com"
                : server.context().config().backends().get(0).baseDNs().get(0).toString();
        System.out.println("Try: ldapwhoami -x -H " + url + " -D uid=user.1,ou=People," + base + " -w password");
        System.out.flush();
        try {
            stopped.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The value after the option at {@code i}, or a usage error naming the option. */
    private static String value(String[] args, int i) {
        if (i + 1 >= args.length) {
            usage(args[i] + " needs a value");
        }
        return args[i + 1];
    }

    private static int portNumber(String option, String value) {
        int p;
        try {
            p = Integer.parseInt(value);
        } catch (NumberFormatException e) {
            usage(option + ": '" + value + "' is not a port number (0 to 65535)");
            return -1;
        }
        if (p < 0 || p > 65535) {
            usage(option + ": " + p + " is not a port number (0 to 65535)");
        }
        return p;
    }

    private static void usage(String problem) {
        System.err.println("The server could not start: " + problem);
        System.err.println("usage: Launcher [--instanceRoot DIR] [--config FILE] [--port N] [--ldaps-port N] "
                + "[--metrics-port N] [--benchmark-bind-ceiling]");
        System.exit(2);
    }

    /**
     * SIGHUP (bin/reload-tls) reads the TLS files again at once, as daemons reload on a hang-up. Through the JDK's
     * sun.misc.Signal, the one way to handle a signal in Java; where it is not available, the periodic check
     * ({@code ds-cfg-reload-check-interval}) still reloads changed files.
     */
    private static void reloadTlsOnHangUp(RunningServer server) {
        if (hangUpIgnored()) {
            // The JVM leaves a signal ignored at its start ignored, and accepts a handler for it without a word.
            System.err.println("Warning: this process was started with SIGHUP ignored (by nohup, or a parent that "
                    + "ignores it), so bin/reload-tls cannot reach it; start it with bin/start-ds, or through "
                    + "'env --default-signal=HUP'. Changed TLS files are still read within "
                    + "ds-cfg-reload-check-interval.");
            return;
        }
        try {
            sun.misc.Signal.handle(new sun.misc.Signal("HUP"), signal -> server.current().reloadTls());
        } catch (IllegalArgumentException e) {
            System.err.println("Warning: SIGHUP cannot be handled here (" + e.getMessage() + "); bin/reload-tls "
                    + "will stop the server instead. Changed TLS files are still read within "
                    + "ds-cfg-reload-check-interval.");
        }
    }

    /** Whether SIGHUP (signal 1) is in this process's ignored set, as Linux shows it in /proc/self/status. */
    private static boolean hangUpIgnored() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("SigIgn:")) {
                    return (Long.parseUnsignedLong(line.substring(7).trim(), 16) & 1L) != 0;
                }
            }
        } catch (IOException | RuntimeException e) {
            // Not Linux, or no /proc: nothing to tell.
        }
        return false;
    }
}
