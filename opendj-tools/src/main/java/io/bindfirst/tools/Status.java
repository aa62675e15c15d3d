package io.bindfirst.tools;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.OptionalLong;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.forgerock.opendj.ldap.Connection;
import org.forgerock.opendj.ldap.LDAPConnectionFactory;
import org.forgerock.opendj.ldap.LdapException;
import org.forgerock.opendj.ldap.ResultCode;
import org.forgerock.opendj.ldap.responses.SearchResultEntry;

import io.bindfirst.server.backend.BackendConfig;
import io.bindfirst.server.config.ConfigException;
import io.bindfirst.server.config.ConfigLoader;
import io.bindfirst.server.config.ServerConfig;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code bin/status}: whether the instance's server runs, where it listens, and, asked as a root user, what
 * {@code cn=monitor} says. Without credentials it shows what needs none (the process, the ports, the root DSE).
 */
@Command(name = "status", mixinStandardHelpOptions = true, versionProvider = ToolVersion.class,
        sortOptions = false, usageHelpAutoWidth = true,
        description = {
            "Shows whether the server of this instance runs (logs/server.pid names a live server process and its "
                    + "LDAP port answers), its listeners from config/config.ldif (LDAP, LDAPS, HTTP metrics; with "
                    + "the ports the running server was given, as by bin/start-ds --port N) and which of them "
                    + "answer, and its backends with their size on disk.",
            "With a root user's password (-w or -j) it also reads cn=monitor: version, uptime, connections, "
                    + "operations. Without one it shows what the root DSE gives anyone."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {
            "0:the server runs",
            "1:an error: the configuration cannot be read, the bind failed, or the server is in between "
                    + "(its process runs but its LDAP port does not answer, or the port answers without a server "
                    + "process of this instance)",
            "2:the command line is wrong",
            "3:the server is stopped"})
public final class Status implements Callable<Integer> {
    static final int STOPPED = 3;

    @Option(names = {"-D", "--bindDN"}, paramLabel = "DN", defaultValue = "cn=Directory Manager",
            description = "The root user to read cn=monitor as (default: ${DEFAULT-VALUE}).")
    String bindDn;

    @ArgGroup(exclusive = true)
    Password password;

    static final class Password {
        @Option(names = {"-w", "--bindPassword"}, paramLabel = "PASSWORD", required = true,
                description = "Its password (seen by other users of this machine in the process list: prefer -j).")
        String value;

        @Option(names = {"-j", "--bindPasswordFile"}, paramLabel = "FILE", required = true,
                description = "A file whose first line is its password.")
        Path file;
    }

    @Option(names = "--configFile", paramLabel = "FILE",
            description = "The server's configuration (default: config/config.ldif under the instance root).")
    Path configFile;

    @Option(names = "--instanceRoot", paramLabel = "DIR", defaultValue = ".",
            description = "The instance: where logs/server.pid and the configuration's relative paths are "
                    + "(bin/status gives the folder bin/ is in; default: the current folder).")
    Path instanceRoot;

    @Spec
    CommandSpec spec;

    public static void main(String[] args) {
        Tools.main(new Status(), args);
    }

    @Override
    public Integer call() {
        return Tools.run(spec, this::run);
    }

    private int run(PrintWriter out, PrintWriter err) throws ToolException {
        Path root = instanceRoot.toAbsolutePath().normalize();
        OptionalLong pid = ServerProcess.runningPid(root);
        Path file = configFile != null ? configFile.toAbsolutePath() : root.resolve("config/config.ldif");
        String started = pid.isPresent() ? ServerProcess.argument(pid.getAsLong(), "--config") : null;
        if (configFile == null && started != null) { // the configuration the server runs with
            file = ServerProcess.workingFolder(pid.getAsLong(), root).resolve(started);
        }
        if (!Files.isRegularFile(file)) {
            throw new ToolException("The configuration file " + file + " does not exist: give --instanceRoot "
                    + "(the folder that holds bin/ and config/) or --configFile");
        }
        ServerConfig config;
        try {
            config = ConfigLoader.load(file, root);
        } catch (ConfigException e) {
            throw new ToolException("The configuration cannot be read: " + e.getMessage(), e);
        }
        if (pid.isPresent()) {
            config = listeningOn(startedWith(config, pid.getAsLong()), root, pid.getAsLong());
        }
        String secret = password == null ? null : secret();

        ServerConfig.Listener ldap = config.listener();
        boolean ldapAnswers = ServerProcess.answers(ldap.address(), ldap.port());
        out.println("Instance:    " + root);
        if (pid.isPresent() && ldapAnswers) {
            out.println("Server:      running (pid " + pid.getAsLong() + ")");
        } else if (pid.isPresent()) {
            out.println("Server:      its process runs (pid " + pid.getAsLong() + ") but its LDAP port does not "
                    + "answer: starting, stopping or stuck (see logs/server.out and logs/errors)");
        } else if (ldapAnswers) {
            out.println("Server:      no server process of this instance (logs/server.pid), but something answers "
                    + "on its LDAP port " + ldap.address() + ":" + ldap.port()
                    + ": another server or program holds it");
        } else {
            out.println("Server:      stopped (start it with bin/start-ds)");
        }
        boolean running = pid.isPresent() && ldapAnswers;
        boolean probe = pid.isPresent() || ldapAnswers;

        out.println("Listeners:");
        out.println(listener("LDAP", "ldap://", ldap.address(), ldap.port(), probe ? ldapAnswers : null));
        ServerConfig.Listener ldaps = config.ldapsListener();
        out.println(ldaps == null ? "  LDAPS       disabled"
                : listener("LDAPS", "ldaps://", ldaps.address(), ldaps.port(),
                        probe ? ServerProcess.answers(ldaps.address(), ldaps.port()) : null));
        ServerConfig.HttpMetrics http = config.httpMetrics();
        out.println(!http.enabled() ? "  HTTP        disabled"
                : listener("HTTP", "http://", http.address(), http.port(),
                        probe ? ServerProcess.answers(http.address(), http.port()) : null) + " (/metrics)");

        int code = running ? Tools.OK : probe ? Tools.FAILED : STOPPED;
        if (running) {
            code = online(out, err, ldap, secret);
        }
        out.println("Backends:");
        for (BackendConfig b : config.backends()) {
            out.println("  " + b.id() + " (" + b.type() + "): " + b.baseDNs().stream().map(Object::toString)
                    .collect(Collectors.joining(", ")) + "; " + b.directory() + ", " + onDisk(b.directory()));
            if (b.replicated()) {
                out.println("    replicated: node " + b.replication().nodeName() + " of group "
                        + b.replication().groupName() + ", replication address " + b.replication().address());
            }
        }
        if (running) {
            out.println("  Entry counts: not published by this server (cn=monitor has no backend entries); "
                    + "bin/export-ldif counts them on the stopped server");
        }
        return code;
    }

    /** The configuration with the ports the server was started with ({@code bin/start-ds --port N} ...). */
    private static ServerConfig startedWith(ServerConfig config, long pid) {
        ServerConfig c = config;
        Integer port = port(ServerProcess.argument(pid, "--port"));
        if (port != null) {
            c = c.withListenPort(port);
        }
        Integer ldaps = port(ServerProcess.argument(pid, "--ldaps-port"));
        if (ldaps != null && c.ldapsListener() != null) {
            c = c.withLdapsListener(c.ldapsListener().withPort(ldaps));
        }
        Integer http = port(ServerProcess.argument(pid, "--metrics-port"));
        if (http != null && c.httpMetrics().enabled()) {
            c = c.withHttpMetrics(c.httpMetrics().withPort(http));
        }
        return c;
    }

    /**
     * The configuration with the ports the running server wrote it listens on (logs/server.ports, with its pid):
     * the only place a port it was given as 0, and the system chose, can be read. Unchanged without the file (a
     * server still starting, or one older than the file).
     */
    private static ServerConfig listeningOn(ServerConfig config, Path root, long pid) {
        java.util.Map<String, Integer> ports = new java.util.HashMap<>();
        try {
            for (String line : Files.readAllLines(root.resolve(io.bindfirst.server.Launcher.PORTS_FILE))) {
                int eq = line.indexOf('=');
                Integer value = eq < 0 ? null : port(line.substring(eq + 1).trim());
                if (value != null) {
                    ports.put(line.substring(0, eq).trim(), value);
                }
            }
        } catch (java.io.IOException e) {
            return config;
        }
        Integer ofPid = ports.get("pid");
        if (ofPid == null || ofPid.longValue() != pid) {
            return config; // left by another process
        }
        ServerConfig c = config;
        if (ports.containsKey("ldap")) {
            c = c.withListenPort(ports.get("ldap"));
        }
        if (ports.containsKey("ldaps") && c.ldapsListener() != null) {
            c = c.withLdapsListener(c.ldapsListener().withPort(ports.get("ldaps")));
        }
        if (ports.containsKey("http") && c.httpMetrics().enabled()) {
            c = c.withHttpMetrics(c.httpMetrics().withPort(ports.get("http")));
        }
        return c;
    }

    private static Integer port(String value) {
        try {
            return value == null ? null : Integer.valueOf(value);
        } catch (NumberFormatException e) {
            return null;
        }
    }

    /** What the running server says over LDAP: the root DSE to anyone, cn=monitor to a root user. */
    private int online(PrintWriter out, PrintWriter err, ServerConfig.Listener ldap, String secret) {
        try (LDAPConnectionFactory factory = new LDAPConnectionFactory(ServerProcess.connectAddress(ldap.address()),
                ldap.port()); Connection c = factory.getConnection()) {
            SearchResultEntry dse = c.readEntry("", "vendorVersion", "namingContexts");
            out.println("Version:     " + dse.parseAttribute("vendorVersion").asString());
            out.println("Naming contexts: " + dse.parseAttribute("namingContexts").asSetOfString().stream()
                    .sorted().collect(Collectors.joining(", ")));
            if (secret == null) {
                out.println("Monitor:     give a root user's password (-w or -j; -D " + bindDn + " by default) "
                        + "to read cn=monitor");
                return Tools.OK;
            }
            try {
                c.bind(bindDn, secret.toCharArray());
            } catch (LdapException e) {
                if (e.getResult().getResultCode().equals(ResultCode.INVALID_CREDENTIALS)) {
                    err.println("status: the bind as " + bindDn + " failed: wrong DN or password (give a root "
                            + "user with -D and its password with -w or -j)");
                } else {
                    err.println("status: the bind as " + bindDn + " failed: " + describe(e));
                }
                return Tools.FAILED;
            }
            SearchResultEntry m = c.readEntry("cn=monitor", "*", "+");
            out.println("Started:     " + m.parseAttribute("startTime").asString() + " (up "
                    + uptime(m.parseAttribute("upTime").asLong()) + ")");
            out.println("Connections: " + m.parseAttribute("currentConnections").asString() + " open, "
                    + m.parseAttribute("maxConnections").asString() + " at most at once, "
                    + m.parseAttribute("totalConnections").asString() + " since the start");
            out.println("Operations:  " + m.parseAttribute("ds-mon-operations-completed").asString()
                    + " completed since the start: " + List.of("binds", "searches", "compares", "adds", "deletes",
                            "modifies", "modify-dns").stream()
                    .map(t -> t + " " + m.parseAttribute("ds-mon-" + t + "-completed").asString())
                    .collect(Collectors.joining(", "))
                    + ", extended " + m.parseAttribute("ds-mon-extended-completed").asString());
            replication(out, c);
            return Tools.OK;
        } catch (LdapException e) {
            err.println("status: the server's LDAP port answers but reading from it failed: " + describe(e));
            return Tools.FAILED;
        }
    }

    private String secret() throws ToolException {
        if (password.value != null) {
            return password.value;
        }
        try (Stream<String> lines = Files.lines(password.file, StandardCharsets.UTF_8)) {
            return lines.findFirst().orElseThrow(() -> new ToolException("The password file " + password.file
                    + " is empty: its first line must be the password"));
        } catch (IOException e) {
            throw new ToolException("Cannot read the password file " + password.file + ": "
                    + Tools.why(e, password.file), e);
        }
    }

    /** The node's role, from {@code cn=Replication,cn=monitor}; nothing when the server has no such entry. */
    private static void replication(PrintWriter out, Connection c) throws LdapException {
        SearchResultEntry r;
        try {
            r = c.readEntry("cn=Replication,cn=monitor", "*");
        } catch (LdapException e) {
            if (e.getResult().getResultCode().equals(ResultCode.NO_SUCH_OBJECT)) {
                return; // not replicated (or several replicated backends, each under its group's name)
            }
            throw e;
        }
        String role = r.parseAttribute("ds-mon-replication-role").asString();
        String master = r.parseAttribute("ds-mon-replication-master").asString();
        String address = r.parseAttribute("ds-mon-replication-master-address").asString();
        Long lag = r.parseAttribute("ds-mon-replication-lag-ms").asLong();
        out.println("Replication: " + role + (role.equals("master") || master == null ? ""
                : " of " + master + (address == null ? "" : " (" + address + ")"))
                + (role.equals("replica") && lag != null ? ", " + lag + " ms behind" : "")
                + (role.equals("unknown") ? " (no master in reach: reads go on, writes are refused)" : ""));
    }

    private static String describe(LdapException e) {
        String m = e.getResult().getDiagnosticMessage();
        return e.getResult().getResultCode() + (m == null || m.isEmpty() ? "" : ": " + m);
    }

    private static String listener(String name, String scheme, String address, int port, Boolean answers) {
        return String.format(Locale.ROOT, "  %-11s %s%s:%d%s", name, scheme, address, port,
                answers == null ? "" : answers ? " (answers)" : " (does not answer)");
    }

    private static String uptime(long seconds) {
        return String.format(Locale.ROOT, "%dd %02dh %02dm %02ds", seconds / 86_400, seconds / 3600 % 24,
                seconds / 60 % 60, seconds % 60);
    }

    /** The bytes of the files under {@code dir}; "empty" when there are none, as on a fresh clone. */
    static String onDisk(Path dir) {
        if (!Files.isDirectory(dir)) {
            return "no database yet";
        }
        List<Long> sizes = new ArrayList<>();
        try (Stream<Path> s = Files.walk(dir)) {
            s.filter(Files::isRegularFile).forEach(p -> {
                try {
                    sizes.add(Files.size(p));
                } catch (IOException e) {
                    // a JE log file cleaned away while walking: it no longer counts
                }
            });
        } catch (IOException e) {
            return "size unknown (" + e.getMessage() + ")";
        }
        long bytes = sizes.stream().mapToLong(Long::longValue).sum();
        return sizes.isEmpty() ? "no database yet"
                : bytes < 1024 * 1024 ? String.format(Locale.ROOT, "%.1f KiB on disk", bytes / 1024.0)
                : String.format(Locale.ROOT, "%.1f MiB on disk", bytes / (1024.0 * 1024.0));
    }
}
