package io.bindfirst.tools;

import java.io.IOException;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.stream.Stream;

import org.forgerock.i18n.LocalizedIllegalArgumentException;
import org.forgerock.opendj.ldap.ByteString;
import org.forgerock.opendj.ldap.DN;
import org.forgerock.opendj.ldap.Entry;
import org.forgerock.opendj.ldap.RDN;

import io.bindfirst.server.SampleData;
import io.bindfirst.server.backend.BackendConfig;
import io.bindfirst.server.backend.BackendException;
import io.bindfirst.server.config.ConfigException;
import io.bindfirst.server.config.ConfigLoader;
import io.bindfirst.server.config.ServerConfig;
import io.bindfirst.server.pwd.PasswordAttribute;
import io.bindfirst.server.pwd.PasswordSchemes;
import io.bindfirst.server.tls.KeyMaterial;
import io.bindfirst.server.tls.TlsConfigException;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code bin/setup}: makes this checkout a server instance of its own, once: writes {@code config/config.ldif}
 * from the shipped one (base DN, root user with its password hashed, listeners, TLS files) and loads the
 * backend with the base entry (and sample users, if asked), offline.
 *
 * <p>Whether an instance is set up lives where the server looks: a backend that holds entries is never given
 * the first-start demo data (the server adds sample entries only to an empty one, and setup writes
 * {@code ds-cfg-sample-entries: 0} besides), and setup refuses a backend that holds a database or a
 * configuration it wrote before (its first line says so). A fresh clone started with {@code bin/start-ds}
 * keeps the demo setup, which then makes setup refuse that instance.
 */
@Command(name = "setup", mixinStandardHelpOptions = true, versionProvider = ToolVersion.class,
        sortOptions = false, usageHelpAutoWidth = true,
        description = {
            "Sets up this instance, once, without questions: writes config/config.ldif from the shipped one "
                    + "(base DN, root user and its password, stored hashed with the configured default scheme, "
                    + "listeners, TLS key) and creates the backend's database with the base entry and, with "
                    + "--sampleData N, ou=People and N users uid=user.0..N-1 (password \"password\").",
            "It refuses an instance that was set up or started before (db/ holds a database, or "
                    + "config/config.ldif was written by setup): stop the server, remove db/ and restore "
                    + "config/config.ldif (git checkout config/config.ldif), or use a fresh clone.",
            "bin/start-ds on an instance never set up creates the demo instead (root password \"password\", "
                    + "10,000 users)."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {
            "0:the instance is set up",
            "1:it could not be (an instance set up already, an unreadable file, a failed write)",
            "2:the command line is wrong"})
public final class Setup implements Callable<Integer> {
    /** The first line of a configuration setup wrote; setup refuses an instance whose configuration has it. */
    static final String MARKER = "# Written by bin/setup: this instance is set up (setup refuses to run on it again).";

    private static final String LDAP = "cn=LDAP Connection Handler,cn=Connection Handlers,cn=config";
    private static final String LDAPS = "cn=LDAPS Connection Handler,cn=Connection Handlers,cn=config";
    private static final String ROOT_USER = "cn=Directory Manager,cn=Root DNs,cn=config";
    private static final String ROOT_DNS = "cn=Root DNs,cn=config";
    private static final String KEY_MANAGER = ServerConfig.Tls.KEY_MANAGER;
    private static final String BACKEND = "userRoot";
    private static final int MIN_PASSWORD_LENGTH = 8;

    @Option(names = {"-b", "--baseDN"}, paramLabel = "DN", defaultValue = "dc=example,dc=com",
            description = "The base DN of the data (backend userRoot; default: ${DEFAULT-VALUE}).")
    String baseDn;

    @Option(names = {"-D", "--rootUserDN"}, paramLabel = "DN", defaultValue = "cn=Directory Manager",
            description = "The root user's bind DN (default: ${DEFAULT-VALUE}).")
    String rootUserDn;

    @ArgGroup(exclusive = true, multiplicity = "1")
    RootPassword rootPassword;

    static final class RootPassword {
        @Option(names = {"-w", "--rootUserPassword"}, paramLabel = "PASSWORD", required = true,
                description = "The root user's password, at least 8 characters (seen in the process list "
                        + "while setup runs: prefer -j).")
        String value;

        @Option(names = {"-j", "--rootUserPasswordFile"}, paramLabel = "FILE", required = true,
                description = "A file whose first line is the root user's password.")
        Path file;
    }

    @Option(names = "--demo",
            description = "Accept the demo password \"password\" (loopback listeners only).")
    boolean demo;

    @Option(names = {"-p", "--ldapPort"}, paramLabel = "PORT", defaultValue = "1389",
            description = "The LDAP port (default: ${DEFAULT-VALUE}).")
    int ldapPort;

    @Option(names = {"-Z", "--ldapsPort"}, paramLabel = "PORT", defaultValue = "1636",
            description = "The LDAPS port; 0 = no LDAPS (default: ${DEFAULT-VALUE}).")
    int ldapsPort;

    @Option(names = "--httpPort", paramLabel = "PORT", defaultValue = "8080",
            description = "The HTTP port of /metrics, /alive and /healthy; 0 = off (default: ${DEFAULT-VALUE}).")
    int httpPort;

    @Option(names = {"-d", "--sampleData"}, paramLabel = "N", defaultValue = "0",
            description = "Sample users to create under ou=People; 0 = the base entry only (default: "
                    + "${DEFAULT-VALUE}).")
    int sampleData;

    @Option(names = "--listenAddress", paramLabel = "ADDRESS", defaultValue = "127.0.0.1",
            description = "The address every listener binds (default: ${DEFAULT-VALUE}, loopback; 0.0.0.0 = all).")
    String listenAddress;

    @Option(names = "--certFile", paramLabel = "FILE",
            description = "The server's certificate chain, PEM (its certificate first), copied to "
                    + "config/tls/server.pem. Without it the first start creates a local CA and a certificate "
                    + "for localhost.")
    Path certFile;

    @Option(names = "--keyFile", paramLabel = "FILE",
            description = "The certificate's private key, unencrypted PEM, copied to config/tls/server-key.pem.")
    Path keyFile;

    @Option(names = "--replicationGroup", paramLabel = "NAME",
            description = "Make the user backend a node of this replication group (docs/REPLICATION.md); the "
                    + "same name on every node.")
    String replicationGroup;

    @Option(names = "--replicationNode", paramLabel = "NAME",
            description = "This node's name in the group, unique and kept for its life (with --replicationGroup).")
    String replicationNode;

    @Option(names = "--replicationAddress", paramLabel = "HOST:PORT",
            description = "Where this node listens for the others (with --replicationGroup).")
    String replicationAddress;

    @Option(names = "--replicationHelper", paramLabel = "HOST:PORT",
            description = "A node already in the group, to join it through (repeat for several). Without one, this "
                    + "node founds the group and its database (the base entry, the sample users) becomes the "
                    + "group's; with one, it starts empty and copies the group's data at its first start.")
    List<String> replicationHelpers = new java.util.ArrayList<>();

    @Option(names = "--instanceRoot", paramLabel = "DIR", defaultValue = ".",
            description = "The instance (bin/setup gives the folder bin/ is in; default: the current folder).")
    Path instanceRoot;

    @Spec
    CommandSpec spec;

    public static void main(String[] args) {
        Tools.main(new Setup(), args);
    }

    @Override
    public Integer call() {
        return Tools.run(spec, (out, err) -> run(out));
    }

    private int run(PrintWriter out) throws ToolException {
        DN base = dn("--baseDN", baseDn);
        DN rootDn = dn("--rootUserDN", rootUserDn);
        if (base.isRootDN()) {
            throw usage("--baseDN: the base DN cannot be empty");
        }
        String password = password();
        checkPorts();
        boolean loopback = loopback(listenAddress);
        if (demo && !loopback) {
            throw usage("--demo: the demo password is for loopback only; the server refuses to listen on "
                    + listenAddress + " with it");
        }
        if (sampleData < 0 || sampleData > 10_000_000) {
            throw usage("--sampleData: " + sampleData + " is not between 0 and 10,000,000");
        }
        if ((certFile == null) != (keyFile == null)) {
            throw usage("--certFile and --keyFile go together (or neither: the first start creates a local CA)");
        }
        checkReplication();

        Path root = instanceRoot.toAbsolutePath().normalize();
        Path configFile = root.resolve("config/config.ldif");
        if (!Files.isRegularFile(configFile)) {
            throw new ToolException("There is no " + configFile + ": give --instanceRoot the folder that holds "
                    + "bin/ and config/ (a clone of the repository)");
        }
        List<String> shipped = read(configFile);
        ServerConfig current = load(configFile, root);
        refuseSetUpInstance(shipped, current, root);

        PasswordSchemes schemes = schemes(current);
        if (certFile != null) {
            try {
                KeyMaterial.fromPem(certFile, keyFile);
            } catch (TlsConfigException e) {
                throw new ToolException("--certFile/--keyFile: " + e.getMessage(), e);
            }
        }
        ConfigText text = edited(new ConfigText(shipped), base, rootDn,
                schemes.encode(ByteString.valueOfUtf8(password)).toString());
        if (replicationGroup != null) {
            replicated(text, rootDn);
        }

        Path written = configFile.resolveSibling("config.ldif.setup");
        write(written, text.lines());
        BackendConfig backend;
        try {
            backend = joining() ? backendOf(current) : loadData(written, root, base, schemes, current);
            if (replicationGroup != null) {
                // The forwarding account is the root user: a replica sends clients' writes to the master as it.
                Path pin = root.resolve("config/replication-forward.pin");
                Files.writeString(pin, password + "\n");
                restrict(pin);
            }
            if (certFile != null) {
                Path tls = Files.createDirectories(root.resolve("config/tls"));
                Files.copy(certFile, tls.resolve("server.pem"), StandardCopyOption.REPLACE_EXISTING);
                Files.copy(keyFile, tls.resolve("server-key.pem"), StandardCopyOption.REPLACE_EXISTING);
            }
            Files.move(written, configFile, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new ToolException("Cannot write the instance's files: " + e.getMessage()
                    + " (remove db/ and restore config/config.ldif from git before trying again)", e);
        } finally {
            try {
                Files.deleteIfExists(written);
            } catch (IOException ignored) {
                // only left behind: the next setup overwrites it
            }
        }
        out.println("The instance in " + root + " is set up:");
        out.println("  base DN " + base + " in backend " + backend.id() + " (" + backend.directory() + "), "
                + (joining() ? "empty until the node joins its group" : sampleData == 0 ? "the base entry only"
                        : "the base entry, ou=People and " + sampleData + " users uid=user.N with the password \""
                        + SampleData.PASSWORD + "\""));
        out.println("  root user " + rootDn + " (its password stored hashed in config/config.ldif)");
        out.println("  LDAP on " + listenAddress + ":" + ldapPort
                + (ldapsPort == 0 ? ", no LDAPS" : ", LDAPS on " + listenAddress + ":" + ldapsPort)
                + (httpPort == 0 ? ", no HTTP metrics" : ", HTTP metrics on " + listenAddress + ":" + httpPort));
        if (replicationGroup != null) {
            out.println("  replication: node " + replicationNode + " of group " + replicationGroup + " on "
                    + replicationAddress + (joining() ? "; it joins through " + String.join(", ", replicationHelpers)
                    + " and copies the group's data at its first start (its database is empty)"
                    : "; it founds the group, whose data are this database"));
        }
        out.println("  TLS: " + (certFile != null ? "the given certificate (config/tls/server.pem)"
                : "a local CA made at the first start (config/tls/ca.pem is what clients trust)"));
        out.println("Start it with bin/start-ds; then bin/status -D \"" + rootDn + "\" -j <password file>.");
        return Tools.OK;
    }

    private ConfigText edited(ConfigText text, DN base, DN rootDn, String hashed) throws ToolException {
        String address = listenAddress;
        text.set(LDAP, "ds-cfg-listen-address", address).set(LDAP, "ds-cfg-listen-port", Integer.toString(ldapPort));
        if (ldapsPort == 0) {
            text.set(LDAPS, "ds-cfg-enabled", "false");
        } else {
            text.set(LDAPS, "ds-cfg-listen-address", address)
                    .set(LDAPS, "ds-cfg-listen-port", Integer.toString(ldapsPort));
        }
        String http = ServerConfig.HttpMetrics.ENTRY;
        if (httpPort == 0) {
            text.set(http, "ds-cfg-enabled", "false");
        } else {
            text.set(http, "ds-cfg-listen-address", address)
                    .set(http, "ds-cfg-listen-port", Integer.toString(httpPort));
        }
        // The root user's entry is named after its bind DN's first value, as the shipped one is; the bind DN
        // itself is the alternate bind DN, which need not be under cn=config.
        String name = rootDn.isRootDN() ? "Directory Manager"
                : rootDn.rdn().getFirstAVA().getAttributeValue().toString();
        String entry = DN.valueOf(ROOT_DNS).child(new RDN("cn", name)).toString();
        text.set(ROOT_USER, "cn", name).set(ROOT_USER, "sn", name)
                .set(ROOT_USER, "ds-cfg-alternate-bind-dn", rootDn.toString())
                .set(ROOT_USER, "userPassword", hashed)
                .rename(ROOT_USER, entry);
        String backend = "ds-cfg-backend-id=" + BACKEND + ",cn=Backends,cn=config";
        text.set(backend, "ds-cfg-base-dn", base.toString()).set(backend, "ds-cfg-sample-entries", "0");
        if (certFile != null) {
            // Files given: a missing one later is an error to see, not a reason to make a new CA.
            text.set(KEY_MANAGER, "ds-cfg-key-store-type", "PEM")
                    .set(KEY_MANAGER, "ds-cfg-certificate-chain-file", "config/tls/server.pem")
                    .set(KEY_MANAGER, "ds-cfg-private-key-file", "config/tls/server-key.pem")
                    .set(KEY_MANAGER, "ds-cfg-create-local-certificate", "false");
        }
        return text.header("# Set up on " + Instant.now().truncatedTo(ChronoUnit.SECONDS)
                        + "; the shipped file is in git.")
                .header(MARKER);
    }

    /** Whether this node joins a group that exists (a helper other than itself): it starts with no database. */
    private boolean joining() {
        return replicationGroup != null && !replicationHelpers.isEmpty()
                && !replicationHelpers.contains(replicationAddress);
    }

    private void checkReplication() {
        if (replicationGroup == null) {
            if (replicationNode != null || replicationAddress != null || !replicationHelpers.isEmpty()) {
                throw usage("--replicationNode, --replicationAddress and --replicationHelper go with "
                        + "--replicationGroup");
            }
            return;
        }
        if (replicationNode == null || replicationAddress == null) {
            throw usage("--replicationGroup needs --replicationNode and --replicationAddress (HOST:PORT)");
        }
        if (sampleData > 0 && !replicationHelpers.isEmpty() && !replicationHelpers.contains(replicationAddress)) {
            throw usage("--sampleData: a node that joins a group copies the group's data; give it to the node that "
                    + "founds the group (no --replicationHelper)");
        }
        for (String[] name : new String[][] {{"--replicationGroup", replicationGroup},
            {"--replicationNode", replicationNode}}) {
            if (!name[1].matches("[A-Za-z0-9_.-]{1,64}")) {
                throw usage(name[0] + ": '" + name[1] + "' is not a name: use up to 64 letters, digits, '.', '_' "
                        + "or '-'");
            }
        }
        List<String> addresses = new java.util.ArrayList<>(replicationHelpers);
        addresses.add(replicationAddress);
        for (String a : addresses) {
            if (!a.matches("[^:\\s]+:\\d{1,5}") && !a.matches("\\[[0-9A-Fa-f:.]+\\]:\\d{1,5}")
                    || Integer.parseInt(a.substring(a.lastIndexOf(':') + 1)) > 65535) {
                throw usage("'" + a + "' is not HOST:PORT (for example 10.0.0.1:8989)");
            }
        }
    }

    /** The replication settings on the user backend's entry (docs/REPLICATION.md says what each does). */
    private void replicated(ConfigText text, DN rootDn) throws ToolException {
        String backend = "ds-cfg-backend-id=" + BACKEND + ",cn=Backends,cn=config";
        List<String> helpers = replicationHelpers.isEmpty() ? List.of(replicationAddress) : replicationHelpers;
        text.set(backend, "ds-cfg-replication-group-name", replicationGroup)
                .set(backend, "ds-cfg-replication-node-name", replicationNode)
                .set(backend, "ds-cfg-replication-address", replicationAddress)
                .set(backend, "ds-cfg-replication-helper-address", helpers.toArray(new String[0]))
                .set(backend, "ds-cfg-replication-forward-bind-dn", rootDn.toString())
                .set(backend, "ds-cfg-replication-forward-bind-password-file", "config/replication-forward.pin");
    }

    private static BackendConfig backendOf(ServerConfig current) {
        return current.backends().stream().filter(b -> b.id().equals(BACKEND)).findFirst().orElseThrow();
    }

    /** Readable by the server's user only, where the file system says who owns what. */
    private static void restrict(Path file) throws IOException {
        try {
            Files.setPosixFilePermissions(file, java.nio.file.attribute.PosixFilePermissions.fromString("rw-------"));
        } catch (UnsupportedOperationException e) {
            // not a POSIX file system: its own rules apply
        }
    }

    /** Creates the backend's database with the base entry (and the sample users), as the server would open it. */
    private BackendConfig loadData(Path config, Path root, DN base, PasswordSchemes schemes, ServerConfig current)
            throws ToolException {
        try (OfflineBackend opened = OfflineBackend.open(config, root, BACKEND, false, 0)) {
            Iterator<Entry> all = new SampleData(base, sampleData, opened.schema(),
                    schemes.scheme("SSHA").orElseThrow(), new PasswordAttribute(opened.schema(), schemes));
            Iterator<Entry> entries = sampleData > 0 ? all : List.of(all.next()).iterator();
            opened.backend().maintenance().importEntries(entries);
            return opened.backendConfig();
        } catch (BackendException | RuntimeException e) {
            current.backends().stream().filter(b -> b.id().equals(BACKEND)).findFirst()
                    .ifPresent(b -> removeDatabase(b.directory()));
            throw new ToolException("Cannot create the database: " + e.getMessage(), e);
        }
    }

    private void refuseSetUpInstance(List<String> config, ServerConfig current, Path root) throws ToolException {
        String fix = ": stop the server (bin/stop-ds), remove db/ and restore config/config.ldif "
                + "(git checkout config/config.ldif), or set up a fresh clone";
        if (!config.isEmpty() && config.get(0).equals(MARKER)) {
            throw new ToolException("This instance was set up already (config/config.ldif was written by setup)"
                    + fix);
        }
        for (BackendConfig b : current.backends()) {
            if (holdsFiles(b.directory())) {
                throw new ToolException("This instance has a database already (" + b.directory()
                        + ", made by a first bin/start-ds or an import)" + fix);
            }
        }
        if (!current.backends().stream().anyMatch(b -> b.id().equals(BACKEND))) {
            throw new ToolException("The configuration has no backend " + BACKEND + "; setup needs the shipped "
                    + "config/config.ldif (restore it from git)");
        }
    }

    private static boolean holdsFiles(Path dir) throws ToolException {
        if (!Files.isDirectory(dir)) {
            return false;
        }
        try (Stream<Path> s = Files.walk(dir)) {
            return s.anyMatch(Files::isRegularFile);
        } catch (IOException e) {
            throw new ToolException("Cannot read " + dir + ": " + e.getMessage(), e);
        }
    }

    /** Leaves the database folder as it was found: empty (setup refuses any other). */
    private static void removeDatabase(Path db) {
        if (!Files.isDirectory(db)) {
            return;
        }
        try (Stream<Path> s = Files.walk(db)) {
            s.sorted(Comparator.reverseOrder()).filter(p -> !p.equals(db)).forEach(p -> p.toFile().delete());
        } catch (IOException ignored) {
            // the message that follows says to remove db/
        }
    }

    private String password() throws ToolException {
        String p;
        if (rootPassword.value != null) {
            p = rootPassword.value;
        } else {
            try (Stream<String> lines = Files.lines(rootPassword.file, StandardCharsets.UTF_8)) {
                p = lines.findFirst().orElse("");
            } catch (IOException e) {
                throw new ToolException("Cannot read the password file " + rootPassword.file + ": "
                        + Tools.why(e, rootPassword.file), e);
            }
        }
        if (p.equals(SampleData.PASSWORD) && !demo) {
            throw usage("the root password is the demo value \"" + SampleData.PASSWORD + "\": choose another, or "
                    + "give --demo for a loopback-only demonstration instance");
        }
        if (p.length() < MIN_PASSWORD_LENGTH) {
            throw usage("the root password has " + p.length() + " characters; it needs at least "
                    + MIN_PASSWORD_LENGTH);
        }
        return p;
    }

    private void checkPorts() {
        port("--ldapPort", ldapPort, false);
        port("--ldapsPort", ldapsPort, true);
        port("--httpPort", httpPort, true);
        if (ldapPort == ldapsPort || ldapPort == httpPort || (ldapsPort != 0 && ldapsPort == httpPort)) {
            throw usage("--ldapPort, --ldapsPort and --httpPort must differ");
        }
    }

    private void port(String option, int value, boolean zeroTurnsOff) {
        if (value < (zeroTurnsOff ? 0 : 1) || value > 65535) {
            throw usage(option + ": " + value + " is not a port number (1 to 65535"
                    + (zeroTurnsOff ? ", or 0 for none" : "") + ")");
        }
    }

    private boolean loopback(String address) {
        try {
            return InetAddress.getByName(address).isLoopbackAddress();
        } catch (UnknownHostException | SecurityException e) {
            throw usage("--listenAddress: " + address + " is not an address of this machine (" + e.getMessage() + ")");
        }
    }

    private DN dn(String option, String value) {
        try {
            return DN.valueOf(value);
        } catch (LocalizedIllegalArgumentException e) {
            throw usage(option + ": '" + value + "' is not a DN: " + e.getMessage());
        }
    }

    private ParameterException usage(String message) {
        return new ParameterException(spec.commandLine(), message);
    }

    private static List<String> read(Path file) throws ToolException {
        try {
            return Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new ToolException("Cannot read " + file + ": " + Tools.why(e, file), e);
        }
    }

    private static void write(Path file, List<String> lines) throws ToolException {
        try {
            Files.write(file, lines, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new ToolException("Cannot write " + file + ": " + Tools.why(e, file), e);
        }
    }

    private static ServerConfig load(Path file, Path root) throws ToolException {
        try {
            return ConfigLoader.load(file, root);
        } catch (ConfigException e) {
            throw new ToolException("The configuration " + file + " cannot be read: " + e.getMessage()
                    + " (restore it from git)", e);
        }
    }

    private static PasswordSchemes schemes(ServerConfig config) throws ToolException {
        try {
            return new PasswordSchemes(config.passwords().defaultScheme(), config.passwords().allowClearText(),
                    config.passwords().costs());
        } catch (IllegalArgumentException e) {
            throw new ToolException("cn=Password Storage Schemes,cn=config: ds-cfg-default-password-storage-scheme: "
                    + e.getMessage(), e);
        }
    }
}
