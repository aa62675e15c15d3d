package io.bindfirst.bench;

import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

import org.HdrHistogram.ConcurrentHistogram;
import org.HdrHistogram.Histogram;

import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPConnectionOptions;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.Modification;
import com.unboundid.ldap.sdk.ModificationType;
import com.unboundid.ldap.sdk.SearchResult;
import com.unboundid.ldap.sdk.SearchScope;

/**
 * A long mixed load for soak runs: N connections held open for the whole run, each paced to its share of a
 * total operation rate. Most connections re-bind as random sample users ({@code uid=user.K}, "password") and
 * search for another one by {@code uid}; one in {@code 1/writerShare} binds once as the root user and
 * alternates a search with a modify of a random user's {@code description} (the sample users may only change
 * their own password). Every operation must succeed and every search must find its one entry: anything
 * else counts as an error.
 *
 * <p>Latencies (send to response, not counting time spent behind schedule) go into one histogram per
 * operation type for the first and for the last {@code window} of the run, so that a soak can compare them.
 * Used by {@code benchmarks/soak.sh} (through {@link #main}) and by the integration tests (through
 * {@link #run}).
 *
 * <pre>java -cp benchmarks/target/benchmarks.jar io.bindfirst.bench.MixedLoad --help</pre>
 */
public final class MixedLoad {
    private static final String USAGE = """
            usage: MixedLoad --port P [options]
              --host H            server address (127.0.0.1)
              --port P            LDAP port (plain)
              --connections N     connections held open for the whole run (200)
              --rate R            operations per second over all connections (1000)
              --seconds S         length of the run (3600)
              --window S          the first and the last S seconds whose p99s are compared (600, at most S/2)
              --users N           sample users uid=user.[0..N-1],ou=People,dc=example,dc=com (10000)
              --writer-share F    share of connections bound as cn=Directory Manager doing modifies (0.1)
              --password P        the users' and the root user's password (password)
            Prints PROGRESS lines every minute and one line at the end:
            RESULT connections=... seconds=... ops=... binds=... searches=... modifies=... errors=...
            window_s=... p99_first_ms=... p99_last_ms=... p99_ratio=... (and the same per type)
            Exit: 0 no error; 1 an error happened (the first ones are printed); 2 usage.""";
    private static final String PEOPLE = "ou=People,dc=example,dc=com";
    private static final String ROOT_DN = "cn=Directory Manager";
    private static final int KEPT_ERRORS = 5;

    /** The operation types, in the order of the summary. */
    public enum Op { BIND, SEARCH, MODIFY }

    /** What to run: see {@link #USAGE} for each field's meaning. */
    public record Settings(String host, int port, int connections, double rate, Duration length, Duration window,
            int users, double writerShare, String password) {
        public Settings {
            if (connections < 1 || rate <= 0 || users < 1 || writerShare < 0 || writerShare > 1) {
                throw new IllegalArgumentException("connections, rate and users must be positive, "
                        + "writer share between 0 and 1");
            }
            if (window.compareTo(length.dividedBy(2)) > 0) {
                throw new IllegalArgumentException("the window (" + window.toSeconds()
                        + " s) is longer than half the run (" + length.toSeconds() + " s)");
            }
        }
    }

    /** What a run did; latencies in milliseconds, NaN when a window saw no operation of the type. */
    public record Result(Map<Op, Long> counts, long errors, List<String> firstErrors, Map<Op, Double> p99First,
            Map<Op, Double> p99Last, double allP99First, double allP99Last) {
        public long operations() {
            return counts.values().stream().mapToLong(Long::longValue).sum();
        }

        /** The summary line of {@link #USAGE}. */
        public String line(Settings s) {
            StringBuilder b = new StringBuilder(String.format("RESULT connections=%d seconds=%d ops=%d"
                    + " ops_per_s=%.1f binds=%d searches=%d modifies=%d errors=%d window_s=%d"
                    + " p99_first_ms=%.3f p99_last_ms=%.3f p99_ratio=%.2f", s.connections(), s.length().toSeconds(),
                    operations(), operations() / (double) s.length().toSeconds(), counts.get(Op.BIND),
                    counts.get(Op.SEARCH), counts.get(Op.MODIFY), errors, s.window().toSeconds(), allP99First,
                    allP99Last, allP99Last / allP99First));
            for (Op op : Op.values()) {
                String name = op.name().toLowerCase();
                b.append(String.format(" %s_p99_first_ms=%.3f %s_p99_last_ms=%.3f", name, p99First.get(op), name,
                        p99Last.get(op)));
            }
            return b.toString();
        }
    }

    private final Settings settings;
    private final Map<Op, AtomicLong> counts = new EnumMap<>(Op.class);
    private final Map<Op, Histogram> first = new EnumMap<>(Op.class);
    private final Map<Op, Histogram> last = new EnumMap<>(Op.class);
    private final AtomicLong errors = new AtomicLong();
    private final Queue<String> firstErrors = new ConcurrentLinkedQueue<>();
    private long startNanos;

    private MixedLoad(Settings settings) {
        this.settings = settings;
        for (Op op : Op.values()) {
            counts.put(op, new AtomicLong());
            // Microseconds, up to a minute: a response later than that has long been an error (timeout 30 s).
            first.put(op, new ConcurrentHistogram(TimeUnit.MINUTES.toMicros(1), 3));
            last.put(op, new ConcurrentHistogram(TimeUnit.MINUTES.toMicros(1), 3));
        }
    }

    /** Runs the load for {@code settings.length()} and returns once every connection is closed. */
    public static Result run(Settings settings) throws InterruptedException {
        return new MixedLoad(settings).execute(false);
    }

    private Result execute(boolean progress) throws InterruptedException {
        startNanos = System.nanoTime();
        long endNanos = startNanos + settings.length().toNanos();
        List<Thread> workers = new ArrayList<>();
        int every = settings.writerShare() == 0 ? Integer.MAX_VALUE : (int) Math.round(1 / settings.writerShare());
        for (int i = 0; i < settings.connections(); i++) {
            boolean writer = i % every == 0;
            Thread t = new Thread(() -> work(writer, endNanos), "mixed-load-" + i);
            t.setDaemon(true);
            workers.add(t);
            t.start();
        }
        long nextReport = startNanos + TimeUnit.MINUTES.toNanos(1);
        for (Thread t : workers) {
            while (t.isAlive()) {
                // Bounded: each worker leaves at endNanos, plus at most one response timeout and its close.
                t.join(1000);
                if (progress && System.nanoTime() >= nextReport) {
                    nextReport += TimeUnit.MINUTES.toNanos(1);
                    long ops = counts.values().stream().mapToLong(AtomicLong::get).sum();
                    System.out.printf("PROGRESS t=%ds ops=%d errors=%d%n",
                            TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - startNanos), ops, errors.get());
                }
            }
        }
        Map<Op, Long> done = new EnumMap<>(Op.class);
        Map<Op, Double> p99First = new EnumMap<>(Op.class);
        Map<Op, Double> p99Last = new EnumMap<>(Op.class);
        Histogram allFirst = new Histogram(TimeUnit.MINUTES.toMicros(1), 3);
        Histogram allLast = new Histogram(TimeUnit.MINUTES.toMicros(1), 3);
        for (Op op : Op.values()) {
            done.put(op, counts.get(op).get());
            p99First.put(op, p99(first.get(op)));
            p99Last.put(op, p99(last.get(op)));
            allFirst.add(first.get(op));
            allLast.add(last.get(op));
        }
        return new Result(done, errors.get(), List.copyOf(firstErrors), p99First, p99Last, p99(allFirst),
                p99(allLast));
    }

    private static double p99(Histogram h) {
        return h.getTotalCount() == 0 ? Double.NaN : h.getValueAtPercentile(99) / 1000.0;
    }

    /** One connection's loop until {@code endNanos}: paced, reconnecting after a failure (counted). */
    private void work(boolean writer, long endNanos) {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        long interval = (long) (settings.connections() * 1e9 / settings.rate());
        long due = System.nanoTime() + random.nextLong(interval); // spread the connections over one interval
        LDAPConnection c = null;
        int n = 0;
        while (due < endNanos) {
            LockSupport.parkNanos(due - System.nanoTime());
            long now = System.nanoTime();
            // Behind schedule (a slow response, a pause): start again from now rather than send a burst.
            due = now - due > interval ? now + interval : due + interval;
            try {
                if (c == null) {
                    c = connect(writer);
                }
                Op op = writer ? (n % 2 == 0 ? Op.MODIFY : Op.SEARCH) : (n % 2 == 0 ? Op.BIND : Op.SEARCH);
                n++;
                long t0 = System.nanoTime();
                perform(c, op, random);
                record(op, t0, System.nanoTime());
            } catch (LDAPException | RuntimeException e) {
                error(e);
                if (c != null && !c.isConnected()) {
                    c.close();
                    c = null;
                }
            }
        }
        if (c != null) {
            c.close(); // sends an unbind
        }
    }

    private LDAPConnection connect(boolean writer) throws LDAPException {
        LDAPConnectionOptions options = new LDAPConnectionOptions();
        options.setConnectTimeoutMillis(10_000);
        options.setResponseTimeoutMillis(30_000);
        options.setUseSynchronousMode(true); // no reader thread per connection: the worker reads its responses
        LDAPConnection c = new LDAPConnection(options, settings.host(), settings.port());
        if (writer) {
            try {
                c.bind(ROOT_DN, settings.password());
            } catch (LDAPException e) {
                c.close();
                throw e;
            }
        }
        return c;
    }

    private void perform(LDAPConnection c, Op op, ThreadLocalRandom random) throws LDAPException {
        String uid = "user." + random.nextInt(settings.users());
        switch (op) {
            case BIND -> c.bind("uid=" + uid + "," + PEOPLE, settings.password());
            case SEARCH -> {
                SearchResult r = c.search(PEOPLE, SearchScope.SUB, "(uid=" + uid + ")", "cn", "description");
                if (r.getEntryCount() != 1) {
                    throw new IllegalStateException("(uid=" + uid + ") found " + r.getEntryCount() + " entries");
                }
            }
            case MODIFY -> c.modify("uid=" + uid + "," + PEOPLE, new Modification(ModificationType.REPLACE,
                    "description", "soak " + Thread.currentThread().getName() + " " + System.nanoTime()));
            default -> throw new IllegalStateException(op.name());
        }
    }

    private void record(Op op, long t0, long t1) {
        counts.get(op).incrementAndGet();
        long micros = Math.min(TimeUnit.NANOSECONDS.toMicros(t1 - t0), TimeUnit.MINUTES.toMicros(1));
        long window = settings.window().toNanos();
        if (t0 - startNanos < window) {
            first.get(op).recordValue(micros);
        }
        if (startNanos + settings.length().toNanos() - t0 <= window) {
            last.get(op).recordValue(micros);
        }
    }

    private void error(Exception e) {
        errors.incrementAndGet();
        if (firstErrors.size() < KEPT_ERRORS) {
            firstErrors.add(e.getClass().getSimpleName() + ": " + e.getMessage());
        }
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> o = Options.parse("MixedLoad", USAGE, args, List.of("host", "port", "connections", "rate",
                "seconds", "window", "users", "writer-share", "password"), "port");
        if (o == null) {
            return;
        }
        Settings s;
        try {
            s = new Settings(o.getOrDefault("host", "127.0.0.1"), Integer.parseInt(o.get("port")),
                    Integer.parseInt(o.getOrDefault("connections", "200")),
                    Double.parseDouble(o.getOrDefault("rate", "1000")),
                    Duration.ofSeconds(Long.parseLong(o.getOrDefault("seconds", "3600"))),
                    Duration.ofSeconds(Long.parseLong(o.getOrDefault("window", "600"))),
                    Integer.parseInt(o.getOrDefault("users", "10000")),
                    Double.parseDouble(o.getOrDefault("writer-share", "0.1")), o.getOrDefault("password", "password"));
        } catch (IllegalArgumentException e) { // NumberFormatException included
            Options.fail("MixedLoad", USAGE, e.getMessage());
            return;
        }
        Result r = new MixedLoad(s).execute(true);
        System.out.println(r.line(s));
        r.firstErrors().forEach(e -> System.err.println("error: " + e));
        System.exit(r.errors() == 0 ? 0 : 1);
    }
}
