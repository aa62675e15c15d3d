package io.bindfirst.it.support;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import org.testng.SkipException;

import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPException;

/**
 * An OpenLDAP slapd of the test's own, as benchmarks/peers/setup-slapd.sh makes one: back-mdb for
 * {@code dc=example,dc=com}, loaded with slapadd, listening on a free loopback port, run in the foreground
 * ({@code -d 0}) so that closing it stops exactly the process this class started.
 */
public final class PrivateSlapd implements AutoCloseable {
    static final Path SLAPD = Path.of("/usr/sbin/slapd");
    static final Path SLAPADD = Path.of("/usr/sbin/slapadd");
    static final String SUFFIX = "dc=example,dc=com";
    /** Under the suffix, so slapd takes its rootpw from the configuration. */
    static final String ROOT_DN = "cn=Manager,dc=example,dc=com";
    static final String ROOT_PASSWORD = "password";

    private final Path dir;
    private final Process process;
    private final int port;

    private PrivateSlapd(Path dir, Process process, int port) {
        this.dir = dir;
        this.process = process;
        this.port = port;
    }

    /** Skips the test class when slapd is missing, unless {@code -Dldap.tools.required=true} (CI). */
    public static void require() {
        if (!Files.isExecutable(SLAPD) || !Files.isExecutable(SLAPADD)) {
            if (Boolean.getBoolean("ldap.tools.required")) {
                throw new AssertionError("slapd is required but not installed (.ci/run installs it)");
            }
            throw new SkipException("slapd is not installed");
        }
    }

    /**
     * Loads {@code ldif} (the suffix entry first) with slapadd and starts slapd.
     *
     * @param extraSchema slapd.conf schema lines for types the stock schema files lack
     */
    public static PrivateSlapd start(String ldif, String extraSchema) throws IOException, InterruptedException {
        Path dir = Files.createTempDirectory("bindfirst-slapd-");
        Files.createDirectories(dir.resolve("data"));
        Path conf = dir.resolve("slapd.conf");
        Files.writeString(conf, String.join("\n",
                "include /etc/ldap/schema/core.schema",
                "include /etc/ldap/schema/cosine.schema",
                "include /etc/ldap/schema/nis.schema",
                "include /etc/ldap/schema/inetorgperson.schema",
                extraSchema,
                "pidfile " + dir.resolve("slapd.pid"),
                "argsfile " + dir.resolve("slapd.args"),
                "modulepath /usr/lib/ldap",
                "moduleload back_mdb",
                "loglevel none",
                "database mdb",
                "suffix \"" + SUFFIX + "\"",
                "rootdn \"" + ROOT_DN + "\"",
                "rootpw " + ROOT_PASSWORD,
                "directory " + dir.resolve("data"),
                "maxsize 268435456",
                "index objectClass eq",
                "access to * by * read",
                ""), StandardCharsets.UTF_8);
        Path ldifFile = dir.resolve("data.ldif");
        Files.writeString(ldifFile, ldif, StandardCharsets.UTF_8);
        run(SLAPADD.toString(), "-f", conf.toString(), "-b", SUFFIX, "-l", ldifFile.toString());
        for (int attempt = 0; ; attempt++) {
            int port = freePort();
            Process p = new ProcessBuilder(SLAPD.toString(), "-d", "0", "-f", conf.toString(),
                    "-h", "ldap://127.0.0.1:" + port + "/")
                    .redirectErrorStream(true).redirectOutput(dir.resolve("slapd.out").toFile()).start();
            PrivateSlapd slapd = new PrivateSlapd(dir, p, port);
            if (slapd.awaitListening()) {
                return slapd;
            }
            slapd.stopProcess();
            if (attempt == 2) {
                String out = Files.readString(dir.resolve("slapd.out"));
                deleteTree(dir);
                throw new AssertionError("slapd did not start: " + out);
            }
        }
    }

    public int port() {
        return port;
    }

    public LDAPConnection bindAsRoot() throws LDAPException {
        LDAPConnection c = new LDAPConnection("127.0.0.1", port);
        c.bind(ROOT_DN, ROOT_PASSWORD);
        return c;
    }

    /** Waits up to 10 s for the port to answer; {@code false} if slapd exited (the port was taken meanwhile). */
    private boolean awaitListening() throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (System.nanoTime() < deadline && process.isAlive()) {
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress("127.0.0.1", port), 200);
                return true;
            } catch (IOException notYet) {
                Thread.sleep(50);
            }
        }
        return false;
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    private static void run(String... command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
            p.destroyForcibly();
            throw new AssertionError(String.join(" ", command) + " failed: " + out);
        }
    }

    private void stopProcess() throws InterruptedException {
        process.destroy(); // SIGTERM: slapd closes its database cleanly
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
    }

    @Override
    public void close() throws InterruptedException {
        stopProcess();
        deleteTree(dir);
    }

    private static void deleteTree(Path dir) {
        try (var s = Files.walk(dir)) {
            s.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            // a temp folder left behind harms nothing
        }
    }
}
