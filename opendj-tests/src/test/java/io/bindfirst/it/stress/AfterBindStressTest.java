package io.bindfirst.it.stress;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertTrue;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLongArray;

import org.testng.annotations.AfterClass;
import org.testng.annotations.BeforeClass;
import org.testng.annotations.Test;

import com.unboundid.ldap.sdk.LDAPConnection;

import io.bindfirst.it.support.TestServer;
import io.bindfirst.server.auth.DeferredAccountWrites;
import io.bindfirst.server.pwd.PasswordPolicies;
import io.bindfirst.server.pwd.PasswordPolicy;

/**
 * Hunts the races of the deferred account writes: many connections bind a few accounts for a few seconds with a
 * last-login time at second precision, so that writes for one account coalesce while others of it are being
 * written. No later time may be lost: once the writes are done, each account holds at least the second in which
 * its last bind was sent, and the writer made far fewer writes than there were binds.
 */
public class AfterBindStressTest {
    private static final int USERS = 20;
    private static final int THREADS = 8;
    private static final long RUN_MILLIS = 3_000;
    private static final DateTimeFormatter SECOND = DateTimeFormatter.ofPattern("yyyyMMddHHmmss", Locale.ROOT)
            .withZone(ZoneOffset.UTC);
    private TestServer server;

    @BeforeClass
    public void start() throws Exception {
        PasswordPolicies policies = new PasswordPolicies(PasswordPolicy.withoutLockout(PasswordPolicies.DEFAULT_DN)
                .withOnBind(new PasswordPolicy.OnBind("ds-pwp-last-login-time", SECOND, Set.of(), 0)), List.of());
        server = TestServer.start(USERS, c -> c.withPasswordPolicies(policies));
    }

    @AfterClass(alwaysRun = true)
    public void stop() {
        if (server != null) {
            server.close();
        }
    }

    @Test
    public void noLastLoginIsLostWhileWritesCoalesce() throws Exception {
        AtomicLongArray lastSent = new AtomicLongArray(USERS);
        long until = System.currentTimeMillis() + RUN_MILLIS;
        ExecutorService pool = Executors.newFixedThreadPool(THREADS);
        List<Future<Integer>> done = new ArrayList<>();
        for (int t = 0; t < THREADS; t++) {
            done.add(pool.submit(() -> {
                int binds = 0;
                try (LDAPConnection c = server.connect()) {
                    while (System.currentTimeMillis() < until) {
                        int u = ThreadLocalRandom.current().nextInt(USERS);
                        long sent = System.currentTimeMillis();
                        c.bind(TestServer.user(u), "password");
                        lastSent.accumulateAndGet(u, sent, Math::max);
                        binds++;
                    }
                }
                return binds;
            }));
        }
        int binds = 0;
        for (Future<Integer> f : done) {
            binds += f.get();
        }
        pool.shutdown();
        DeferredAccountWrites writes = server.server().context().accounts().afterBind().writes();
        long deadline = System.nanoTime() + 10_000_000_000L;
        try (LDAPConnection root = server.bindAs(TestServer.ROOT_DN, TestServer.ROOT_PASSWORD)) {
            for (int u = 0; u < USERS; u++) {
                String floor = SECOND.format(Instant.ofEpochMilli(lastSent.get(u)));
                String stored;
                do {
                    Thread.sleep(10);
                    stored = root.getEntry(TestServer.user(u), "ds-pwp-last-login-time")
                            .getAttributeValue("ds-pwp-last-login-time");
                } while ((stored == null || stored.compareTo(floor) < 0) && System.nanoTime() < deadline);
                assertTrue(stored != null && stored.compareTo(floor) >= 0,
                        TestServer.user(u) + ": stored " + stored + ", its last bind was sent at " + floor);
            }
        }
        assertEquals(writes.dropped(), 0);
        long seconds = RUN_MILLIS / 1000 + 2;
        assertTrue(binds > USERS * seconds, "a load that repeats each account within a second: " + binds);
        assertTrue(writes.written() <= USERS * seconds, writes.written() + " writes for " + binds + " binds");
    }
}
