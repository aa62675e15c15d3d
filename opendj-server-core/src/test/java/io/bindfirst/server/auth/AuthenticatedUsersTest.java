package io.bindfirst.server.auth;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertTrue;
import static org.testng.Assert.expectThrows;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import org.forgerock.opendj.ldap.DN;
import org.testng.annotations.DataProvider;
import org.testng.annotations.Test;

public class AuthenticatedUsersTest {
    private static final DN PEOPLE = DN.valueOf("ou=People,dc=example,dc=com");

    /** A connection as the registry sees one: a number, and a name for the messages. */
    private record Conn(long id, String name) {
        @Override
        public String toString() {
            return name;
        }
    }

    /** The open connections, numbered and forgotten on close as {@code ClientConnections} does. */
    private static final class Connections {
        private final ConcurrentHashMap<Long, Conn> open = new ConcurrentHashMap<>();
        private final AtomicLong next = new AtomicLong();

        Conn open(String name) {
            Conn c = new Conn(next.getAndIncrement(), name);
            open.put(c.id(), c);
            return c;
        }

        Conn open() {
            return open("conn");
        }

        void close(Conn c) {
            open.remove(c.id());
        }

        AuthenticatedUsers<Conn> registry() {
            return new AuthenticatedUsers<>(Conn::id, open::get);
        }
    }

    private static DN user(int n) {
        return PEOPLE.child("uid", "user." + n);
    }

    @Test
    public void putRemoveAndSnapshots() {
        Connections open = new Connections();
        AuthenticatedUsers<Conn> users = open.registry();
        Conn c1 = open.open("c1"), c2 = open.open("c2"), c3 = open.open("c3");
        users.put(user(1), c1);
        users.put(user(1), c2);
        users.put(user(2), c3);
        assertEquals(users.size(), 2);
        List<Conn> snapshot = users.connectionsOf(user(1));
        users.remove(user(1), c1);
        assertEquals(snapshot.size(), 2, "a snapshot must not change under the caller");
        assertEquals(users.connectionsOf(user(1)), List.of(c2));
        users.remove(user(1), c2);
        users.remove(user(1), c2);
        assertTrue(users.connectionsOf(user(1)).isEmpty());
        assertEquals(users.size(), 1, "a DN with no connections left is dropped");
        users.remove(user(2), c3);
        assertTrue(users.isEmpty());
    }

    @Test
    public void aClosedConnectionLeavesTheSnapshotsButStaysRegisteredUntilRemoved() {
        Connections open = new Connections();
        AuthenticatedUsers<Conn> users = open.registry();
        Conn closing = open.open("closing"), staying = open.open("staying");
        users.put(user(1), closing);
        users.put(user(1), staying);
        open.close(closing);
        assertEquals(users.connectionsOf(user(1)), List.of(staying), "a closed connection needs no disconnecting");
        assertEquals(users.connectionsAtOrBelow(PEOPLE), List.of(Map.entry(user(1), staying)));
        assertEquals(users.registrations(user(1)), 2, "closing is not deregistering");
        users.remove(user(1), closing);
        assertEquals(users.registrations(user(1)), 1);
        open.close(staying);
        users.removeIf(c -> false);
        assertTrue(users.isEmpty(), "removeIf drops the registrations of closed connections");
    }

    @Test
    public void aNegativeConnectionNumberIsRefused() {
        AuthenticatedUsers<Conn> users = new Connections().registry();
        expectThrows(IllegalArgumentException.class, () -> users.put(user(1), new Conn(-1, "bad")));
        assertTrue(users.isEmpty());
    }

    @Test
    public void connectionsAtOrBelowASubtree() {
        Connections open = new Connections();
        AuthenticatedUsers<Conn> users = open.registry();
        Conn b = open.open("b");
        users.put(user(1), open.open("a"));
        users.put(user(2), b);
        users.put(DN.valueOf("cn=Directory Manager,cn=Root DNs,cn=config"), open.open("root"));
        users.put(DN.valueOf("uid=x,ou=Peoplex,dc=example,dc=com"), open.open("sibling"));
        List<Map.Entry<DN, Conn>> below = users.connectionsAtOrBelow(PEOPLE);
        assertEquals(below.size(), 2);
        assertEquals(users.connectionsAtOrBelow(user(2)), List.of(Map.entry(user(2), b)));
    }

    @Test
    public void removeIfDropsEmptiedKeys() {
        Connections open = new Connections();
        AuthenticatedUsers<Conn> users = open.registry();
        Conn kept = open.open("kept");
        users.put(user(1), open.open("gone-1"));
        users.put(user(2), open.open("gone-2"));
        users.put(user(2), kept);
        users.removeIf(c -> c.name().startsWith("gone"));
        assertEquals(users.size(), 1);
        assertEquals(users.connectionsOf(user(2)), List.of(kept));
        assertEquals(users.registrations(user(2)), 1);
    }

    @Test
    public void aDnWithManyConnectionsKeepsEveryOne() {
        Connections open = new Connections();
        AuthenticatedUsers<Conn> users = open.registry();
        int n = 11;
        List<Conn> conns = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            conns.add(open.open("c" + i));
        }
        for (int i = 0; i < n; i++) {
            users.put(user(1), conns.get(i));
            users.put(user(1), conns.get(i)); // a second put of the same connection changes nothing
            List<Conn> now = users.connectionsOf(user(1));
            assertEquals(now.size(), i + 1, "after put " + i);
            assertEquals(new HashSet<>(now), new HashSet<>(conns.subList(0, i + 1)), "after put " + i);
        }
        List<Conn> before = users.connectionsOf(user(1));
        for (int i = 0; i < n; i++) {
            users.remove(user(1), conns.get(i));
            users.remove(user(1), conns.get(i));
            List<Conn> left = users.connectionsOf(user(1));
            assertEquals(new HashSet<>(left), new HashSet<>(conns.subList(i + 1, n)),
                    "after remove " + i);
            assertEquals(left.size(), n - i - 1);
        }
        assertEquals(before.size(), n, "a snapshot must not change under the caller");
        assertTrue(users.isEmpty(), "the key goes with its last connection");
        Conn a = open.open("a"), b = open.open("b"), c = open.open("c");
        users.put(user(2), a);
        users.put(user(2), b);
        users.put(user(2), c);
        users.remove(user(2), b);
        assertEquals(new HashSet<>(users.connectionsOf(user(2))), Set.of(a, c));
        users.remove(user(2), a);
        assertEquals(users.connectionsOf(user(2)), List.of(c));
        users.remove(user(2), open.open("stranger")); // not registered: nothing changes
        assertEquals(users.connectionsOf(user(2)), List.of(c));
    }

    /**
     * Hunts the narrowest form of that race: a few threads, one connection each, all binding and leaving
     * one DN, so that its set is emptied and dropped from the map all the time while others join it. A
     * put that joined a set on its way out of the map would be lost at once, which the owner sees right
     * after its put returns: nobody else removes its connection.
     */
    @Test(timeOut = 60_000)
    public void aPutRacingTheLastRemoveOfItsDnIsNeverLost() throws Exception {
        Connections open = new Connections();
        AuthenticatedUsers<Conn> users = open.registry();
        DN dn = user(0);
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(2);
        onThreads(4, t -> {
            Conn c = open.open("thread-" + t);
            while (System.nanoTime() < until) {
                users.put(dn, c);
                if (!users.connectionsOf(dn).contains(c)) {
                    throw new AssertionError("a put was lost to a racing removal of its DN's last connection");
                }
                users.remove(dn, c);
            }
        });
        assertTrue(users.isEmpty(), "registry not empty after every connection left: " + users.size());
    }

    /** DN pools: few (many connections share a key), some (a handful each), many (mostly one each). */
    @DataProvider
    public Object[][] dnPools() {
        return new Object[][] {{4}, {40}, {400}};
    }

    /**
     * Hunts the race between the put of one connection and the removal of the last other connection of
     * the same DN: if a put could land in a set that a concurrent remove had just dropped from the map,
     * that connection would be lost from the registry (never disconnected on delete). Each thread owns
     * its connections and re-binds them among the pool's DNs, so ownership tells what the map must hold.
     */
    @Test(timeOut = 60_000, dataProvider = "dnPools")
    public void manyThreadsBindRebindReKeyAndCloseLeaveItExact(int dns) throws Exception {
        Connections open = new Connections();
        AuthenticatedUsers<Conn> users = open.registry();
        int threads = 8;
        int connectionsPerThread = 50;
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(2);
        List<Map<Conn, DN>> finalStates = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            finalStates.add(new java.util.HashMap<>());
        }
        onThreads(threads, t -> {
            Map<Conn, DN> mine = finalStates.get(t);
            List<Conn> conns = new ArrayList<>();
            for (int i = 0; i < connectionsPerThread; i++) {
                conns.add(open.open("t" + t + "-" + i));
            }
            ThreadLocalRandom rnd = ThreadLocalRandom.current();
            while (System.nanoTime() < until) {
                Conn c = conns.get(rnd.nextInt(conns.size()));
                DN current = mine.get(c);
                // 400 connections, 3 in 4 registered: with 4 DNs many share one (the
                // service-account shape); with 400 most keys come and go with one connection.
                DN next = user(rnd.nextInt(dns));
                if (current != null && !current.equals(next) && rnd.nextBoolean()) {
                    // Re-key as the rename plugin does: the new DN first, then drop the old one.
                    users.put(next, c);
                    users.remove(current, c);
                    mine.put(c, next);
                    continue;
                }
                if (current != null) {
                    // Re-bind or close: drop the old registration first.
                    users.remove(current, c);
                    mine.remove(c);
                }
                if (rnd.nextInt(4) != 0) {
                    users.put(next, c);
                    mine.put(c, next);
                }
            }
        });
        int expected = 0;
        for (Map<Conn, DN> mine : finalStates) {
            for (Map.Entry<Conn, DN> e : mine.entrySet()) {
                assertTrue(users.connectionsOf(e.getValue()).contains(e.getKey()), "a registration was lost");
                expected++;
            }
        }
        int actual = 0;
        for (int n = 0; n < dns; n++) {
            actual += users.registrations(user(n));
        }
        assertEquals(actual, expected, "stale registrations remain");
        // Every connection closes: the registry must end empty.
        for (Map<Conn, DN> mine : finalStates) {
            for (Map.Entry<Conn, DN> e : mine.entrySet()) {
                users.remove(e.getValue(), e.getKey());
            }
        }
        assertTrue(users.isEmpty(), "registry not empty after every connection closed: " + users.size());
    }

    /** A body run by each of {@code threads} threads, given its index; may throw. */
    private interface ThreadBody {
        void run(int thread) throws Exception;
    }

    /** Starts {@code threads} threads together on {@code body}, waits for them, rethrows the first failure. */
    private static void onThreads(int threads, ThreadBody body) throws Exception {
        CountDownLatch start = new CountDownLatch(1);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        List<Thread> workers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int index = t;
            Thread w = new Thread(() -> {
                try {
                    start.await();
                    body.run(index);
                } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                }
            });
            workers.add(w);
            w.start();
        }
        start.countDown();
        for (Thread w : workers) {
            w.join();
        }
        if (failure.get() != null) {
            throw new AssertionError(failure.get());
        }
    }
}
