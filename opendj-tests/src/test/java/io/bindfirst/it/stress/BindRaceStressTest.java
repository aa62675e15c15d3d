package io.bindfirst.it.stress;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertTrue;
import static org.testng.Assert.expectThrows;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

import org.forgerock.opendj.ldap.DN;
import org.testng.annotations.DataProvider;
import org.testng.annotations.Test;

import com.unboundid.ldap.sdk.Attribute;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.ResultCode;

import io.bindfirst.it.bind.AuthenticatedUsersTest;
import io.bindfirst.it.ops.SlowOperationIsolationTest;
import io.bindfirst.it.support.TestServer;
import io.bindfirst.server.auth.BoundConnection;
import io.bindfirst.server.backend.Backend;
import io.bindfirst.server.config.ServerConfig.Listener.Inline;
import io.bindfirst.server.pwd.PasswordPolicies;
import io.bindfirst.server.pwd.PasswordPolicy;
import io.bindfirst.server.testsupport.Poll;

/**
 * Hunts the race that WriteEpoch closes: a bind running at the same moment as the delete or rename of its own
 * entry, or as the wrong password that locks its account (a lockout count of 1 here), must never leave the
 * connection authenticated as a DN that no longer exists or may no longer authenticate. Runs for a bounded
 * time ({@code -Drace.seconds}, default 8) on the real server, thousands of interleavings, and counts
 * stale authentications seen by the client (WhoAmI) and by the server (the registry).
 */
public class BindRaceStressTest {
    private static final Duration SETTLE = Duration.ofSeconds(1);
    /** Connections binding as the entry at the moment it is deleted or renamed: more chances per write. */
    private static final int BINDERS = 4;
    private static final int MIN_INTERLEAVINGS = 1_000;
    private static final long MAX_SECONDS = 90;
    /**
     * The race window is from the bind's read of its entry to its registration, i.e. the password check.
     * A PBKDF2 hash (about 8 ms here) makes that window wide enough for a write to land in it often, as it
     * would on a server storing slow hashes; the writer's start is spread over the same span.
     */
    private static final int PBKDF2_ITERATIONS = 20_000;
    private static final int LONG_PASSWORD_CHARS = 1 << 17;

    /**
     * Two paths a bind can take, each raced by its own run: a slow hash, which always runs on a worker after
     * reading the entry from storage; and the default one-hash scheme with its entry in the bind cache
     * (warmed by one bind before the race) and the server running such binds inline on the selector threads.
     * There a short password is hashed in microseconds, too short a window for a write to land in; a long one
     * ({@value #LONG_PASSWORD_CHARS} characters) keeps the scheme one hash but takes about a millisecond to hash.
     */
    @DataProvider
    public Object[][] paths() {
        return new Object[][] {
            {"slow hash, on the workers", true, Inline.WHEN_WORKERS_IDLE, 12_000_000L},
            {"cached one-hash binds, inline", false, Inline.ALWAYS, 1_000_000L},
        };
    }

    @Test(timeOut = 180_000, dataProvider = "paths")
    public void bindsRacingDeletesAndRenamesNeverStayStale(String path, boolean slowHash, Inline inline,
                                                           long writerJitterNanos) throws Exception {
        long seconds = Long.getLong("race.seconds", 15);
        String clear = slowHash ? "race-pw" : "race-pw".repeat(LONG_PASSWORD_CHARS / 7);
        String stored = slowHash ? SlowOperationIsolationTest.pbkdf2(clear, PBKDF2_ITERATIONS) : clear;
        PasswordPolicies lockAtOnce = new PasswordPolicies(
                new PasswordPolicy(PasswordPolicies.DEFAULT_DN, 1, Duration.ZERO, Duration.ZERO), List.of());
        try (TestServer server = TestServer.start(1,
                     c -> c.withListener(c.listener().withInlineOperations(inline)).withPasswordPolicies(lockAtOnce));
             LDAPConnection admin = server.bindAs(TestServer.ROOT_DN, TestServer.ROOT_PASSWORD);
             LDAPConnection writer = server.bindAs(TestServer.ROOT_DN, TestServer.ROOT_PASSWORD);
             LDAPConnection locker = server.connect();
             LDAPConnection warmer = server.connect()) {
            ExecutorService pool = Executors.newFixedThreadPool(BINDERS + 1);
            LDAPConnection[] binders = new LDAPConnection[BINDERS];
            for (int b = 0; b < BINDERS; b++) {
                binders[b] = server.connect();
            }
            int iterations = 0;
            int interleavings = 0;
            int boundBeforeWrite = 0;
            int stale = 0;
            long t0 = System.nanoTime();
            long end = t0 + TimeUnit.SECONDS.toNanos(seconds);
            // On a busy machine the time bound alone may give too few races: go on to MIN_INTERLEAVINGS,
            // but never past the hard cap.
            long cap = t0 + TimeUnit.SECONDS.toNanos(Math.max(seconds, MAX_SECONDS));
            try {
                while (System.nanoTime() < end || (interleavings < MIN_INTERLEAVINGS && System.nanoTime() < cap)) {
                    int k = iterations++;
                    boolean rename = k % 3 == 1;
                    boolean lock = k % 3 == 2;
                    String dn = "uid=race." + k + "," + TestServer.PEOPLE;
                    String renamed = "uid=race." + k + "r," + TestServer.PEOPLE;
                    admin.add(dn, new Attribute("objectClass", "top", "person", "organizationalPerson",
                            "inetOrgPerson"), new Attribute("uid", "race." + k), new Attribute("cn", "r"),
                            new Attribute("sn", "r"), new Attribute("userPassword", stored));
                    if (!slowHash) {
                        // Now its bind attributes are in the bind cache; anonymous again, so that the write
                        // does not end the warmer's connection.
                        warmer.bind(dn, clear);
                        warmer.bind("", "");
                    }
                    CyclicBarrier start = new CyclicBarrier(BINDERS + 1);
                    List<Future<Boolean>> binds = new ArrayList<>();
                    for (int b = 0; b < BINDERS; b++) {
                        if (!binders[b].isConnected()) {
                            binders[b].close();
                            binders[b] = server.connect();
                        }
                        LDAPConnection c = binders[b];
                        binds.add(pool.submit(() -> {
                            start.await();
                            jitter(300_000);
                            try {
                                c.bind(dn, clear);
                                return true;
                            } catch (LDAPException | NullPointerException e) {
                                return false; // refused, or closed under the client (see isStale)
                            }
                        }));
                    }
                    Future<?> write = pool.submit(() -> {
                        start.await();
                        jitter(writerJitterNanos);
                        if (lock) {
                            LDAPException e = expectThrows(LDAPException.class, () -> locker.bind(dn, "wrong"));
                            assertEquals(e.getResultCode(), ResultCode.INVALID_CREDENTIALS);
                        } else if (rename) {
                            writer.modifyDN(dn, "uid=race." + k + "r", true);
                        } else {
                            writer.delete(dn);
                        }
                        return null;
                    });
                    write.get(30, TimeUnit.SECONDS);
                    for (int b = 0; b < BINDERS; b++) {
                        interleavings++;
                        if (binds.get(b).get(30, TimeUnit.SECONDS)) {
                            boundBeforeWrite++;
                        }
                        if (isStale(binders[b], "dn:" + dn)) {
                            stale++;
                        }
                    }
                    if (rename) {
                        admin.delete(renamed);
                    } else if (lock) {
                        admin.delete(dn);
                    }
                }
            } finally {
                for (LDAPConnection c : binders) {
                    c.close();
                }
                pool.shutdownNow();
            }
            // The registry is true when each write is answered, but a bind the closed clients left running on
            // the server may still be registering (and then re-reading its entry): let those settle.
            Poll.within(SETTLE, () -> staleRegistrations(server) == 0);
            int registryStale = staleRegistrations(server);
            long elapsed = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - t0);
            System.out.printf("bind race (%s): %d interleavings (%d writes) in %d s, %d binds succeeded before their "
                    + "write or lock, %d stale (client), %d stale (registry)%n", path, interleavings, iterations,
                    elapsed, boundBeforeWrite, stale, registryStale);
            assertTrue(interleavings >= 200, "too few interleavings to mean anything: " + interleavings);
            if (inline == Inline.ALWAYS) {
                assertTrue(server.server().operationsStartedInline() >= interleavings / 2,
                        "binds did not start inline: " + server.server().operationsStartedInline());
            }
            assertEquals(stale, 0, "connections stayed authenticated as a deleted, renamed or locked entry");
            assertEquals(registryStale, 0, "the registry holds connections for entries that do not exist");
        }
    }

    private static void jitter(long maxNanos) {
        long until = System.nanoTime() + ThreadLocalRandom.current().nextLong(0, maxNanos);
        while (System.nanoTime() < until) {
            Thread.onSpinWait();
        }
    }

    /** Whether the connection still answers WhoAmI with the gone DN after the settle bound. */
    private static boolean isStale(LDAPConnection c, String goneAuthzId) throws Exception {
        return !Poll.within(SETTLE, () -> {
            try {
                if (!c.isConnected()) {
                    return true;
                }
                return !goneAuthzId.equals(AuthenticatedUsersTest.whoAmI(c));
            } catch (LDAPException e) {
                return e.getResultCode() == ResultCode.SERVER_DOWN;
            } catch (NullPointerException e) {
                // The UnboundID SDK (7.0.5) fails this way when the server closes the connection while the
                // request is being sent, and in isConnected() once its socket is gone: the connection is closed,
                // which is what the server was to do.
                return true;
            }
        });
    }

    private static int staleRegistrations(TestServer server) throws Exception {
        Backend backend = server.server().context().backends().userBackends().get(0);
        int stale = 0;
        DN suffix = DN.valueOf("dc=example,dc=com");
        for (Map.Entry<DN, BoundConnection> e
                : server.server().context().authenticatedUsers().connectionsAtOrBelow(suffix)) {
            if (!backend.entryExists(e.getKey()) && !e.getValue().isClosed()) {
                stale++;
            }
        }
        return stale;
    }
}
