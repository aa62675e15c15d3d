package io.bindfirst.it.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;

import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPException;

import io.bindfirst.server.DirectoryServer;
import io.bindfirst.server.commit.ChangeListener;
import io.bindfirst.server.config.ConfigLoader;
import io.bindfirst.server.config.ServerConfig;

/**
 * A real server for a test: the repository's {@code config/} copied into a fresh instance folder (so the
 * JE database and logs go to a temp dir), listening on a free loopback port.
 */
public final class TestServer implements AutoCloseable {
    public static final String USER_PASSWORD = "password";
    public static final String ROOT_DN = "cn=Directory Manager";
    public static final String ROOT_PASSWORD = "password";
    public static final String PEOPLE = "ou=People,dc=example,dc=com";
    /** The sample data's service account (an ACI on ou=People lets it read the users), under ou=Services. */
    public static final String SERVICE_ACCOUNT = "uid=app,ou=Services,dc=example,dc=com";
    /**
     * The sample entries that are not users: the suffix, ou=People, ou=Services and the service account, ou=Groups
     * and its groups.
     */
    public static final int NON_USER_ENTRIES = 2 + io.bindfirst.server.SampleData.SERVICE_ENTRIES
            + io.bindfirst.server.SampleData.GROUP_ENTRIES;

    private final Path instance;
    private final UnaryOperator<ServerConfig> tweak;
    private final List<ChangeListener> listeners;
    private DirectoryServer server;

    private TestServer(Path instance, UnaryOperator<ServerConfig> tweak, List<ChangeListener> listeners) {
        this.instance = instance;
        this.tweak = tweak;
        this.listeners = listeners;
    }

    /** A server with the shipped configuration and {@code users} sample users. */
    public static TestServer start(int users) throws Exception {
        return start(users, UnaryOperator.identity());
    }

    /**
     * @param users sample users created on the first start
     * @param tweak changes to the parsed configuration, through its typed {@code with...} methods: unlike an
     *        edit of config.ldif's text, one cannot silently match nothing and leave the shipped default
     */
    public static TestServer start(int users, UnaryOperator<ServerConfig> tweak) throws Exception {
        return start(users, tweak, List.of());
    }

    /** As {@link #start(int, UnaryOperator)}, with {@code listeners} told of every committed change. */
    public static TestServer start(int users, UnaryOperator<ServerConfig> tweak, List<ChangeListener> listeners)
            throws Exception {
        Path instance = Files.createTempDirectory("bindfirst-it-");
        copyConfig(instance);
        TestServer ts = new TestServer(instance, c -> tweak.apply(
                withNormalPriorityHandshakes(withFreePorts(c)).withSampleEntries(Map.of("userRoot", users))),
                listeners);
        ts.startServer();
        return ts;
    }

    /**
     * Every listener (LDAP, LDAPS, HTTP metrics) on a port the system picks: tests run side by side, and beside
     * a server on 1389/1636/8080.
     */
    public static ServerConfig withFreePorts(ServerConfig c) {
        ServerConfig out = c.withListenPort(0).withHttpMetrics(c.httpMetrics().withPort(0));
        return c.ldapsListener() == null ? out : out.withLdapsListener(c.ldapsListener().withPort(0));
    }

    /**
     * TLS handshake threads at the other threads' priority (the shipped nice value is 19): this JVM is the
     * server and its clients at once, and the clients' threads, at nice 0, would take the handshake threads'
     * CPU, which a real server's clients, on other machines or at least in other processes, do not. The tests
     * of the shipped value set it back ({@link io.bindfirst.it.tls.TlsHandshakeOffSelectorTest}).
     */
    static ServerConfig withNormalPriorityHandshakes(ServerConfig c) {
        return c.tls() == null ? c : c.withTls(c.tls().withHandshakeNice(0));
    }

    private void startServer() throws Exception {
        ServerConfig config = ConfigLoader.load(instance.resolve("config/config.ldif"), instance);
        server = DirectoryServer.start(tweak.apply(config), listeners);
    }

    /** Stops and starts again on the same database (a new port). */
    public void restart() throws Exception {
        server.close();
        startServer();
    }

    public DirectoryServer server() {
        return server;
    }

    public int port() {
        return server.ldapAddress().getPort();
    }

    /** The LDAPS port (the shipped configuration enables LDAPS). */
    public int ldapsPort() {
        return server.ldapsAddress().getPort();
    }

    public Path instance() {
        return instance;
    }

    public LDAPConnection connect() throws LDAPException {
        return new LDAPConnection("127.0.0.1", port());
    }

    public LDAPConnection bindAs(String dn, String password) throws LDAPException {
        LDAPConnection c = connect();
        c.bind(dn, password);
        return c;
    }

    public static String user(int n) {
        return "uid=user." + n + "," + PEOPLE;
    }

    public static Path repoRoot() {
        String p = System.getProperty("bindfirst.repo.root");
        return (p != null ? Path.of(p) : Path.of("..")).toAbsolutePath().normalize();
    }

    @Override
    public void close() {
        if (server != null) {
            server.close();
        }
        deleteTree(instance);
    }

    /**
     * The repository's {@code config/} into {@code instance}, but not {@code config/tls}: a server started in
     * the checkout made that one; each test instance makes its own on its first start, as a fresh clone does.
     */
    public static void copyConfig(Path instance) throws IOException {
        copyTree(repoRoot().resolve("config"), instance.resolve("config"), repoRoot().resolve("config/tls"));
    }

    static void copyTree(Path from, Path to) throws IOException {
        copyTree(from, to, null);
    }

    /** @param except a folder under {@code from} not to copy, or {@code null} */
    static void copyTree(Path from, Path to, Path except) throws IOException {
        try (Stream<Path> s = Files.walk(from)) {
            for (Path p : (Iterable<Path>) s::iterator) {
                if (except != null && p.startsWith(except)) {
                    continue;
                }
                Path target = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(p, target, StandardCopyOption.REPLACE_EXISTING);
                }
            }
        }
    }

    public static void deleteTree(Path root) {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> s = Files.walk(root)) {
            s.sorted(Comparator.reverseOrder()).forEach(p -> {
                try {
                    Files.delete(p);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
