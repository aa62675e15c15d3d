package io.bindfirst.it.stress;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

import org.testng.annotations.DataProvider;
import org.testng.annotations.Test;

import com.unboundid.ldap.sdk.Attribute;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.Modification;
import com.unboundid.ldap.sdk.ModificationType;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.extensions.PasswordModifyExtendedRequest;

import io.bindfirst.it.support.TestServer;
import io.bindfirst.server.config.ServerConfig;
import io.bindfirst.server.config.ServerConfig.Listener.Inline;
import io.bindfirst.server.pwd.VerifiedCredentials;

/**
 * Hunts a stale credential: re-binds with a user's password race the change of that password, while the
 * verified-credential cache holds the old one (the user's passwords are stored with PBKDF2, the server's
 * default scheme here, and each round proves the current one by a bind before the race). No bind with the old
 * password whose request left the client after the change's response arrived may succeed: the cache's key
 * holds the stored value, the backend's bind cache drops the entry before the write's response, and the bind
 * reads its entry after its request arrives. (A bind sent before that response is concurrent with the
 * change, and either outcome is right.) The change alternates between a modify of userPassword and the
 * Password Modify extended operation. Runs for a bounded time ({@code -Drace.seconds}, default 8) on the
 * real server, on both paths a re-bind takes: inline on the selector thread with the entry from the bind
 * cache, and on the workers.
 */
public class PasswordChangeRaceStressTest {
    private static final String DN = "uid=race.pw," + TestServer.PEOPLE;
    private static final int BINDERS = 4;
    /** Binds each binder sends after the change's response, in each round. */
    private static final int AFTER_CHANGE = 3;
    private static final int MIN_ROUNDS = 100;
    private static final long MAX_SECONDS = 90;

    @DataProvider
    public Object[][] paths() {
        return new Object[][] {
            {"inline, entry in the bind cache", Inline.ALWAYS},
            {"on the workers", Inline.NEVER},
        };
    }

    /** One bind with the old password: when its request was sent, and whether it succeeded. */
    private record Attempt(long sentNanos, boolean succeeded) {
    }

    @Test(timeOut = 180_000, dataProvider = "paths")
    public void noBindWithTheOldPasswordSucceedsAfterTheChangeWasAcknowledged(String path, Inline inline)
            throws Exception {
        long seconds = Long.getLong("race.seconds", 8);
        try (TestServer server = TestServer.start(1, c -> c.withPasswords(
                     new ServerConfig.Passwords("PBKDF2-HMAC-SHA256", false, 1_000, c.passwords().policies()))
                     .withListener(c.listener().withInlineOperations(inline)));
             LDAPConnection admin = server.bindAs(TestServer.ROOT_DN, TestServer.ROOT_PASSWORD);
             LDAPConnection warmer = server.connect()) {
            admin.add(DN, new Attribute("objectClass", "top", "person", "organizationalPerson", "inetOrgPerson"),
                    new Attribute("uid", "race.pw"), new Attribute("cn", "r"), new Attribute("sn", "r"),
                    new Attribute("userPassword", password(0)));
            assertTrue(admin.getEntry(DN, "userPassword").getAttributeValue("userPassword")
                    .startsWith("{PBKDF2-HMAC-SHA256}"), "the password is not stored with PBKDF2");
            VerifiedCredentials cache = server.server().context().passwordAttribute().verifiedCredentials();
            ExecutorService pool = Executors.newFixedThreadPool(BINDERS);
            LDAPConnection[] binders = new LDAPConnection[BINDERS];
            for (int b = 0; b < BINDERS; b++) {
                binders[b] = server.connect();
            }
            int rounds = 0;
            long hitsBefore = cache.hits();
            long succeededBefore = 0;
            long sentAfter = 0;
            long stale = 0;
            long t0 = System.nanoTime();
            long end = t0 + TimeUnit.SECONDS.toNanos(seconds);
            long cap = t0 + TimeUnit.SECONDS.toNanos(Math.max(seconds, MAX_SECONDS));
            try {
                while (System.nanoTime() < end || (rounds < MIN_ROUNDS && System.nanoTime() < cap)) {
                    String old = password(rounds);
                    String changed = password(rounds + 1);
                    boolean extended = rounds % 2 == 1;
                    rounds++;
                    // Proven once: in the verified-credential cache, and the entry in the bind cache.
                    warmer.bind(DN, old);
                    warmer.bind("", "");
                    long[] acknowledged = {0};
                    CyclicBarrier start = new CyclicBarrier(BINDERS + 1);
                    List<Future<List<Attempt>>> binds = new ArrayList<>();
                    for (LDAPConnection c : binders) {
                        binds.add(pool.submit(() -> rebind(c, old, start, acknowledged)));
                    }
                    start.await(30, TimeUnit.SECONDS);
                    jitter(2_000_000);
                    if (extended) {
                        assertEquals(admin.processExtendedOperation(new PasswordModifyExtendedRequest("dn:" + DN,
                                null, changed)).getResultCode(), ResultCode.SUCCESS);
                    } else {
                        admin.modify(DN, new Modification(ModificationType.REPLACE, "userPassword", changed));
                    }
                    long ack = System.nanoTime();
                    synchronized (acknowledged) {
                        acknowledged[0] = ack;
                    }
                    for (Future<List<Attempt>> f : binds) {
                        for (Attempt a : f.get(60, TimeUnit.SECONDS)) {
                            if (a.sentNanos() > ack) {
                                sentAfter++;
                                stale += a.succeeded() ? 1 : 0;
                            } else {
                                succeededBefore += a.succeeded() ? 1 : 0;
                            }
                        }
                    }
                }
            } finally {
                for (LDAPConnection c : binders) {
                    c.close();
                }
                pool.shutdownNow();
            }
            long hits = cache.hits() - hitsBefore;
            System.out.printf("password change race (%s): %d rounds in %d s, %d binds with the old password "
                    + "succeeded before the change's response, %d sent after it, %d of those succeeded (stale); "
                    + "%d verified-credential cache hits%n", path, rounds,
                    TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - t0), succeededBefore, sentAfter, stale, hits);
            assertTrue(sentAfter >= (long) MIN_ROUNDS * BINDERS, "too few binds after a change: " + sentAfter);
            assertTrue(hits >= rounds, "the re-binds did not use the verified-credential cache: " + hits + " hits");
            assertEquals(stale, 0, "binds with the old password succeeded after the change was acknowledged");
        }
    }

    private static String password(int round) {
        return "race-password-" + round;
    }

    /**
     * Binds with {@code old} on {@code c} from the barrier until {@value #AFTER_CHANGE} binds were sent after
     * the change's response ({@code acknowledged[0]}, 0 until then).
     */
    private static List<Attempt> rebind(LDAPConnection c, String old, CyclicBarrier start, long[] acknowledged)
            throws Exception {
        List<Attempt> attempts = new ArrayList<>();
        start.await(30, TimeUnit.SECONDS);
        int after = 0;
        while (after < AFTER_CHANGE) {
            long ack;
            synchronized (acknowledged) {
                ack = acknowledged[0];
            }
            long sent = System.nanoTime();
            if (ack != 0) {
                after++;
            }
            boolean ok;
            try {
                ok = c.bind(DN, old).getResultCode() == ResultCode.SUCCESS;
            } catch (LDAPException e) {
                ok = false;
            }
            attempts.add(new Attempt(sent, ok));
        }
        return attempts;
    }

    private static void jitter(long maxNanos) {
        long until = System.nanoTime() + ThreadLocalRandom.current().nextLong(0, maxNanos);
        while (System.nanoTime() < until) {
            Thread.onSpinWait();
        }
    }
}
