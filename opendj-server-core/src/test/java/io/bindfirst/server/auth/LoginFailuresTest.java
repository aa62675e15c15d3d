package io.bindfirst.server.auth;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertFalse;
import static org.testng.Assert.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.forgerock.opendj.ldap.DN;
import org.testng.annotations.Test;

public class LoginFailuresTest {
    private static final DN ALICE = DN.valueOf("uid=alice,ou=People,dc=example,dc=com");
    private static final DN BOB = DN.valueOf("uid=bob,ou=People,dc=example,dc=com");

    @Test
    public void theCountthFailureLocksOnceAndCountingStartsAgain() {
        LoginFailures f = new LoginFailures();
        assertFalse(f.failed(ALICE, 3, 0, 1));
        assertFalse(f.failed(ALICE, 3, 0, 2));
        assertFalse(f.failed(BOB, 3, 0, 2), "accounts are counted apart");
        assertTrue(f.failed(ALICE, 3, 0, 3));
        assertEquals(f.count(ALICE, 0, 4), 0, "the lock takes over: the record is dropped");
        assertFalse(f.failed(ALICE, 3, 0, 5));
        assertEquals(f.count(BOB, 0, 5), 1);
    }

    @Test
    public void aCountOfOneLocksAtTheFirstFailure() {
        assertTrue(new LoginFailures().failed(ALICE, 1, 0, 1));
    }

    @Test
    public void failuresOlderThanTheExpiryDoNotCount() {
        LoginFailures f = new LoginFailures();
        assertFalse(f.failed(ALICE, 3, 1_000, 0));
        assertFalse(f.failed(ALICE, 3, 1_000, 500));
        assertEquals(f.count(ALICE, 1_000, 999), 2);
        assertEquals(f.count(ALICE, 1_000, 1_000), 1, "the first failure expired");
        assertFalse(f.failed(ALICE, 3, 1_000, 1_200), "two that count: 500 and 1200");
        assertTrue(f.failed(ALICE, 3, 1_000, 1_300));
    }

    @Test
    public void forgettingClearsAnAccountOrASubtree() {
        LoginFailures f = new LoginFailures();
        f.failed(ALICE, 3, 0, 1);
        f.failed(BOB, 3, 0, 1);
        f.forget(ALICE);
        assertEquals(f.count(ALICE, 0, 2), 0);
        assertEquals(f.accounts(), 1);
        f.failed(ALICE, 3, 0, 1);
        f.forgetAtOrBelow(DN.valueOf("ou=People,dc=example,dc=com"));
        assertEquals(f.accounts(), 0);
    }

    /**
     * Threads failing one account at once: every count-th failure locks, no more and no fewer (a lost update
     * would lock late or twice; a check-then-act would let two threads both see the count reached).
     */
    @Test
    public void concurrentFailuresReachTheCountExactlyOncePerCount() throws Exception {
        int threads = 8;
        int perThread = 20_000;
        int count = 5;
        for (int round = 0; round < 5; round++) {
            LoginFailures f = new LoginFailures();
            AtomicInteger locks = new AtomicInteger();
            CountDownLatch go = new CountDownLatch(1);
            ExecutorService pool = Executors.newFixedThreadPool(threads);
            try {
                List<Future<?>> done = new ArrayList<>();
                for (int t = 0; t < threads; t++) {
                    done.add(pool.submit(() -> {
                        go.await();
                        for (int i = 0; i < perThread; i++) {
                            if (f.failed(ALICE, count, 0, i)) {
                                locks.incrementAndGet();
                            }
                            if (i % 1000 == 0) {
                                f.forget(BOB); // another account's success must not disturb this one
                            }
                        }
                        return null;
                    }));
                }
                go.countDown();
                for (Future<?> d : done) {
                    d.get(60, TimeUnit.SECONDS);
                }
            } finally {
                pool.shutdownNow();
            }
            int total = threads * perThread;
            assertEquals(locks.get(), total / count);
            assertEquals(f.count(ALICE, 0, 0), total % count);
        }
    }
}
