package io.bindfirst.it.stress;

import java.util.List;
import java.util.Locale;

import io.bindfirst.it.support.ForkedServer;
import io.bindfirst.it.support.TestServer;

/**
 * The settings of one {@link BindLatencyBenchmarkTestCase} run: fixed for the smoke run, from
 * {@code bind.bench.*} system properties for the benchmark (see the test's javadoc for the list).
 */
public final class BenchSettings {
    static final String PREFIX = "bind.bench.";
    /** Above this many idle connections and with no host/port given, the server is forked. */
    static final int AUTO_FORK_IDLE = 2_000;
    /**
     * PBKDF2 iterations of the slow users' password. Measured here (2 cores, AMD EPYC, Java 17.0.15,
     * javax.crypto PBKDF2WithHmacSHA256 after JIT warm-up): 4.5 to 5.1 million iterations per CPU second,
     * so 9,000,000 iterations is 1.8 to 2.0 s of CPU per verification. (The server refuses stored counts
     * above {@code Pbkdf2HmacSha256Scheme.MAX_ITERATIONS}, 10,000,000.)
     */
    static final int DEFAULT_SLOW_ITERATIONS = 9_000_000;

    /** Where the server runs. */
    enum ServerMode {
        /** Started in the test's JVM ({@link TestServer}). */
        INPROCESS,
        /** Started as a child JVM ({@link ForkedServer}). */
        FORK,
        /** Already listening at {@code bind.bench.host}/{@code bind.bench.port}. */
        EXTERNAL;

        String label() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** What a slow connection does, in a loop. */
    enum SlowKind {
        /** Simple bind as a user whose password is a {PBKDF2-HMAC-SHA256} hash with many iterations. */
        PBKDF2,
        /** Unindexed subtree search over the whole suffix, bound as root. */
        SEARCH,
        /**
         * Simple bind with a wrong password as a user whose password is a {PBKDF2-HMAC-SHA256} hash: a
         * password-guessing storm, which no verified-credential cache can make cheap.
         */
        WRONG_PASSWORD,
        /** Slow connection i does PBKDF2 if i is even, SEARCH if odd. */
        MIXED;

        String label() {
            return name().toLowerCase(Locale.ROOT);
        }

        /** The kind of slow connection {@code index}. */
        SlowKind of(int index) {
            return this != MIXED ? this : index % 2 == 0 ? PBKDF2 : SEARCH;
        }
    }

    boolean bench;
    int threads;
    long warmupSeconds;
    long durationSeconds;
    int users;
    String host;
    /** 0: start a server (in this JVM or forked). */
    int port;
    String label;
    ServerMode server;
    /** JVM options of a forked server. */
    List<String> serverJvmOpts;

    /**
     * The JVM options {@code bin/start-ds} uses when {@code JAVA_OPTS} is not set ({@code bin/_server-jvm.sh}),
     * so that a forked server is measured as shipped ({@code BenchSettingsTest} checks that the two agree).
     */
    static final List<String> SHIPPED_JVM_OPTS = List.of("-Xms64m", "-Xmx192m", "-XX:GCTimeRatio=24",
            "-XX:-G1UseAdaptiveIHOP", "-XX:InitiatingHeapOccupancyPercent=75", "-XX:+IgnoreUnrecognizedVMOptions",
            "-XX:TrimNativeHeapInterval=10000", "-XX:SweeperThreshold=0.05");

    /** The C library's malloc arenas {@code bin/_server-jvm.sh} gives the server ({@code MALLOC_ARENA_MAX}). */
    public static final String SHIPPED_MALLOC_ARENA_MAX = "2";

    /** The process whose resident memory is read around the opening of the idle connections, or -1. */
    long serverPid = -1;
    int idle;
    double slowFraction;
    SlowKind slowKind;
    int slowIterations;
    String rootDN;
    String rootPassword;

    /** The number of slow connections: {@code slow / (threads + slow)} is as close to the fraction as it gets. */
    int slowConnections() {
        return slowFraction <= 0 ? 0 : (int) Math.round(threads * slowFraction / (1 - slowFraction));
    }

    static BenchSettings fromSystemProperties() {
        BenchSettings s = new BenchSettings();
        s.rootDN = TestServer.ROOT_DN;
        s.rootPassword = TestServer.ROOT_PASSWORD;
        s.serverJvmOpts = SHIPPED_JVM_OPTS;
        if (!Boolean.parseBoolean(prop("bind.bench"))) {
            // The smoke run: every code path, small. 0.34 gives round(4 * 0.34 / 0.66) = 2 slow connections,
            // so MIXED runs one PBKDF2 and one search connection; 20,000 iterations keep a bind at a few ms.
            s.threads = 4;
            s.warmupSeconds = 1;
            s.durationSeconds = 3;
            s.users = 1_000;
            s.label = "smoke";
            s.server = ServerMode.INPROCESS;
            s.idle = 50;
            s.slowFraction = 0.34;
            s.slowKind = SlowKind.MIXED;
            s.slowIterations = 20_000;
            return s;
        }
        s.bench = true;
        s.host = prop(PREFIX + "host");
        s.port = (int) number("port", s.host != null ? 389 : 0, 0, 65_535);
        if (s.port != 0 && s.host == null) {
            s.host = "127.0.0.1";
        }
        String label = prop(PREFIX + "label");
        s.label = label != null ? label : "bindfirst";
        s.threads = (int) number("threads", 16, 1, 10_000);
        s.warmupSeconds = number("warmupSeconds", 10, 0, 86_400);
        s.durationSeconds = number("durationSeconds", 30, 1, 86_400);
        s.users = (int) number("users", s.port == 0 ? 10_000 : 5_000, 1, Integer.MAX_VALUE);
        s.idle = (int) number("idle", 0, 0, 1_000_000);
        String fraction = prop(PREFIX + "slowFraction");
        try {
            s.slowFraction = fraction == null ? 0 : Double.parseDouble(fraction);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(PREFIX + "slowFraction is not a number: " + fraction, e);
        }
        if (!(s.slowFraction >= 0 && s.slowFraction < 1)) {
            throw new IllegalArgumentException(PREFIX + "slowFraction must be in [0, 1): " + fraction);
        }
        s.slowKind = choice("slowKind", SlowKind.class, SlowKind.MIXED);
        s.slowIterations = (int) number("slowIterations", DEFAULT_SLOW_ITERATIONS, 1, 10_000_000);
        s.rootDN = orDefault(prop(PREFIX + "rootDN"), TestServer.ROOT_DN);
        s.rootPassword = orDefault(prop(PREFIX + "rootPassword"), TestServer.ROOT_PASSWORD);
        String opts = prop(PREFIX + "serverJvmOpts");
        if (opts != null) {
            s.serverJvmOpts = List.of(opts.split("\\s+"));
        }
        ServerMode asked = choice("server", ServerMode.class, null);
        if (s.port != 0) {
            if (asked != null && asked != ServerMode.EXTERNAL) {
                throw new IllegalArgumentException(PREFIX + "server=" + asked.label() + " conflicts with "
                        + PREFIX + "port=" + s.port + " (a server already listening)");
            }
            s.server = ServerMode.EXTERNAL;
            s.serverPid = number("serverPid", -1, 1, Long.MAX_VALUE);
        } else if (asked == ServerMode.EXTERNAL) {
            throw new IllegalArgumentException(PREFIX + "server=external needs " + PREFIX + "port");
        } else {
            s.server = asked != null ? asked : s.idle > AUTO_FORK_IDLE ? ServerMode.FORK : ServerMode.INPROCESS;
        }
        return s;
    }

    /**
     * A property's value, or {@code null} when it is unset, blank or an unresolved {@code ${...}} that
     * Maven passes through when a systemPropertyVariables entry names a property nobody set.
     */
    static String prop(String name) {
        String v = System.getProperty(name);
        if (v == null || v.isBlank() || v.startsWith("${")) {
            return null;
        }
        return v.trim();
    }

    private static String orDefault(String v, String dflt) {
        return v != null ? v : dflt;
    }

    private static <E extends Enum<E>> E choice(String name, Class<E> type, E dflt) {
        String v = prop(PREFIX + name);
        if (v == null) {
            return dflt;
        }
        try {
            return Enum.valueOf(type, v.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(PREFIX + name + " must be one of "
                    + List.of(type.getEnumConstants()).toString().toLowerCase(Locale.ROOT) + ": " + v, e);
        }
    }

    private static long number(String name, long dflt, long min, long max) {
        String v = prop(PREFIX + name);
        if (v == null) {
            return dflt;
        }
        long n;
        try {
            n = Long.parseLong(v.replace("_", ""));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(PREFIX + name + " is not a whole number: " + v, e);
        }
        if (n < min || n > max) {
            throw new IllegalArgumentException(PREFIX + name + " must be in " + min + ".." + max + ": " + v);
        }
        return n;
    }
}
