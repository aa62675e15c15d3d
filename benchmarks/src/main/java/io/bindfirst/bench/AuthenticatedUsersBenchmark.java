package io.bindfirst.bench;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import org.forgerock.opendj.ldap.DN;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import io.bindfirst.server.auth.AuthenticatedUsers;

/**
 * Throughput of the registry operations on the bind path, for {@link AuthenticatedUsers} (a
 * ConcurrentHashMap of per-DN groups, no registry-wide lock: {@code design=chm}) against one read-write
 * lock around a HashMap ({@code design=rwlock}, {@link RwLockAuthenticatedUsers}).
 *
 * <ul>
 * <li>{@link #bind}: what a re-bind does to the registry: {@code remove(oldDN)} when the bind resets the
 * connection to anonymous, then {@code put(newDN)} when it succeeds.</li>
 * <li>{@link #rekey}: what a modify DN of a bound entry does: {@code put(newDN)} then {@code remove(oldDN)}.</li>
 * </ul>
 *
 * <p>Shapes ({@code shape}): {@code distinct}, each thread's connections bind as DNs of their own, so
 * threads never touch the same key (authrate against random users); {@code serviceAccount}, every
 * connection of every thread binds as one DN (a pool of an application), so every put and remove hits the
 * same key and its set holds {@value #CONNECTIONS_PER_THREAD} x threads connections; its re-key moves
 * connections back and forth between the account's old and new name; {@code crowd}, every connection
 * re-binds as a random one of the {@value #BACKGROUND_USERS} background users, each of which already has
 * an idle connection registered (a server holding an idle crowd: each bind lands on a cold key that
 * holds one connection); its re-key works as in {@code distinct}.
 *
 * <p>Thread count is a run option: {@code -t N}, or {@link RegistryThreads} for 1, 2, 4, 8 and 32 in one
 * command. On a 2-core machine, counts above 2 measure contention under preemption (a lock holder
 * descheduled), which is what a server with more busy workers than cores sees.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class AuthenticatedUsersBenchmark {

    /** Connections per benchmark thread; a connection is a {@link Numbered} (the registry is generic). */
    static final int CONNECTIONS_PER_THREAD = 128;
    /** Other bound users, registered once, so that the map has a server's size (10,000 users shipped). */
    static final int BACKGROUND_USERS = 10_000;

    static final String SUFFIX = ",ou=People,dc=example,dc=com";

    /** A connection: a number, as the registry keeps it, and nothing else. */
    static final class Numbered {
        private static final AtomicLong NEXT = new AtomicLong();
        final long id = NEXT.getAndIncrement();
    }

    /** The two designs behind one call site; only one is instantiated per fork, so the call stays monomorphic. */
    abstract static class Registry {
        /** The open connections by number, which {@link AuthenticatedUsers} resolves its snapshots through. */
        final ConcurrentHashMap<Long, Numbered> open = new ConcurrentHashMap<>();

        Numbered open() {
            Numbered c = new Numbered();
            open.put(c.id, c);
            return c;
        }

        abstract void put(DN dn, Object connection);

        abstract void remove(DN dn, Object connection);

        abstract boolean isRegistered(DN dn, Object connection);
    }

    static final class Chm extends Registry {
        final AuthenticatedUsers<Object> users = new AuthenticatedUsers<>(c -> ((Numbered) c).id, open::get);

        @Override void put(DN dn, Object c) { users.put(dn, c); }
        @Override void remove(DN dn, Object c) { users.remove(dn, c); }
        @Override boolean isRegistered(DN dn, Object c) { return users.connectionsOf(dn).contains(c); }
    }

    static final class RwLock extends Registry {
        final RwLockAuthenticatedUsers<Object> users = new RwLockAuthenticatedUsers<>();

        @Override void put(DN dn, Object c) { users.put(dn, c); }
        @Override void remove(DN dn, Object c) { users.remove(dn, c); }
        @Override boolean isRegistered(DN dn, Object c) { return users.connectionsOf(dn).contains(c); }
    }

    /** The one registry all threads share. */
    @State(Scope.Benchmark)
    public static class Shared {
        @Param({"chm", "rwlock"})
        public String design;

        @Param({"distinct", "serviceAccount", "crowd"})
        public String shape;

        /** crowd shape: the background users' DNs, parsed again (a bind's DN is never the key's instance). */
        final DN[] crowd = new DN[BACKGROUND_USERS];

        Registry registry;
        final AtomicInteger threadIds = new AtomicInteger();
        final DN serviceAccount = DN.valueOf("uid=app-pool" + SUFFIX);
        final DN serviceAccountRenamed = DN.valueOf("uid=app-pool-renamed" + SUFFIX);

        @Setup(Level.Trial)
        public void setUp() {
            switch (design) {
            case "chm": registry = new Chm(); break;
            case "rwlock": registry = new RwLock(); break;
            default: throw new IllegalArgumentException("design " + design);
            }
            for (int i = 0; i < BACKGROUND_USERS; i++) {
                registry.put(DN.valueOf("uid=user." + i + SUFFIX), registry.open());
                crowd[i] = DN.valueOf("uid=user." + i + SUFFIX);
            }
        }

        boolean serviceAccount() {
            switch (shape) {
            case "distinct": case "crowd": return false;
            case "serviceAccount": return true;
            default: throw new IllegalArgumentException("shape " + shape);
            }
        }
    }

    /** One benchmark thread's connections, all registered before the first measured operation. */
    @State(Scope.Thread)
    public static class Connections {
        final Object[] connections = new Object[CONNECTIONS_PER_THREAD];
        /** Where connection j is registered now. */
        final DN[] current = new DN[CONNECTIONS_PER_THREAD];
        /** Where its next re-key (and, in the distinct shape, its next bind) takes it. */
        final DN[] other = new DN[CONNECTIONS_PER_THREAD];
        /** serviceAccount shape: a bind re-binds as the same DN. */
        boolean bindAsSameDN;
        /** crowd shape: a bind re-binds as a random background user; else null. */
        DN[] crowd;
        int next;
        Registry registry;

        @Setup(Level.Trial)
        public void setUp(Shared shared) {
            registry = shared.registry;
            bindAsSameDN = shared.serviceAccount();
            crowd = "crowd".equals(shared.shape) ? shared.crowd : null;
            int t = shared.threadIds.getAndIncrement();
            for (int j = 0; j < CONNECTIONS_PER_THREAD; j++) {
                connections[j] = registry.open();
                if (bindAsSameDN) {
                    current[j] = shared.serviceAccount;
                    other[j] = shared.serviceAccountRenamed;
                } else {
                    // Names no other thread and no background user has: no key is shared.
                    current[j] = DN.valueOf("uid=t" + t + ".c" + j + ".a" + SUFFIX);
                    other[j] = DN.valueOf("uid=t" + t + ".c" + j + ".b" + SUFFIX);
                }
                registry.put(current[j], connections[j]);
            }
        }

        /** Guards the baseline's correctness as much as the design's: every connection is where we think. */
        @TearDown(Level.Trial)
        public void check() {
            for (int j = 0; j < CONNECTIONS_PER_THREAD; j++) {
                if (!registry.isRegistered(current[j], connections[j])) {
                    throw new IllegalStateException("connection " + j + " lost its registration under " + current[j]);
                }
            }
        }

        int nextIndex() {
            int j = next;
            next = (j + 1) & (CONNECTIONS_PER_THREAD - 1); // CONNECTIONS_PER_THREAD is a power of two
            return j;
        }
    }

    /** remove(old) then put(new): {@code BindOperation.prepare()} then {@code ClientConnection.authenticated}. */
    @Benchmark
    public DN bind(Connections c) {
        int j = c.nextIndex();
        Object connection = c.connections[j];
        DN from = c.current[j];
        DN to = c.bindAsSameDN ? from
                : c.crowd != null ? c.crowd[ThreadLocalRandom.current().nextInt(c.crowd.length)] : c.other[j];
        c.registry.remove(from, connection);
        c.registry.put(to, connection);
        if (to != from) {
            if (c.crowd == null) {
                c.other[j] = from;
            }
            c.current[j] = to;
        }
        return to;
    }

    /** put(new) then remove(old): {@code AuthenticatedUsersPlugin} after a modify DN of a bound entry. */
    @Benchmark
    public DN rekey(Connections c) {
        int j = c.nextIndex();
        Object connection = c.connections[j];
        DN from = c.current[j];
        DN to = c.other[j];
        c.registry.put(to, connection);
        c.registry.remove(from, connection);
        c.other[j] = from;
        c.current[j] = to;
        return to;
    }
}
