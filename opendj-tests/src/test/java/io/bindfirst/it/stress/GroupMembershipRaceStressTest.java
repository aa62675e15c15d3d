package io.bindfirst.it.stress;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;

import org.forgerock.opendj.ldap.DN;
import org.forgerock.opendj.ldap.schema.Schema;
import org.testng.annotations.AfterClass;
import org.testng.annotations.BeforeClass;
import org.testng.annotations.Test;

import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.Modification;
import com.unboundid.ldap.sdk.ModificationType;
import com.unboundid.ldap.sdk.SearchResultEntry;

import io.bindfirst.it.support.TestServer;
import io.bindfirst.server.group.Groups;

/**
 * Hunts a stale membership: writers add and remove a user from a group over LDAP, one writer per group, while
 * readers ask {@link Groups#isMember} (of that group, and of an outer group that nests it) and read isMemberOf
 * over LDAP. A reader that asked after a write's acknowledgement, with no later write of that group begun before
 * its answer came, must see what that write made: the index is made true before the result is sent. Answers
 * taken while a write is in flight may be either state and are only counted. Runs for a bounded time
 * ({@code -Drace.seconds}, default 5).
 */
public class GroupMembershipRaceStressTest {
    private static final int GROUPS = 3;
    private static final int SERVICE_READERS = 3;
    private static final String OU = "ou=Race Groups,dc=example,dc=com";

    private TestServer server;

    /** One group's writer: how many writes it began and how many were acknowledged; write k adds when k is odd. */
    private static final class Lane {
        final String user;
        final String inner;
        final String outer;
        final AtomicLong begun = new AtomicLong();
        final AtomicLong acknowledged = new AtomicLong();

        Lane(int i) {
            user = TestServer.user(i);
            inner = "cn=Inner " + i + "," + OU;
            outer = "cn=Outer " + i + "," + OU;
        }
    }

    @BeforeClass
    public void start() throws Exception {
        server = TestServer.start(GROUPS + 5);
    }

    @AfterClass(alwaysRun = true)
    public void stop() {
        if (server != null) {
            server.close();
        }
    }

    @Test
    public void noReaderSeesAMembershipOlderThanAnAcknowledgedWrite() throws Exception {
        long seconds = Long.getLong("race.seconds", 5);
        List<Lane> lanes = new ArrayList<>();
        try (LDAPConnection root = server.bindAs(TestServer.ROOT_DN, TestServer.ROOT_PASSWORD)) {
            root.add("dn: " + OU, "objectClass: top", "objectClass: organizationalUnit", "ou: Race Groups");
            for (int i = 0; i < GROUPS; i++) {
                Lane l = new Lane(i);
                // Each inner group keeps another member, so removing the racing user leaves it valid.
                root.add("dn: " + l.inner, "objectClass: top", "objectClass: groupOfNames", "cn: Inner " + i,
                        "member: " + TestServer.user(GROUPS + 1));
                root.add("dn: " + l.outer, "objectClass: top", "objectClass: groupOfNames", "cn: Outer " + i,
                        "member: " + l.inner);
                lanes.add(l);
            }
        }
        Groups groups = server.server().context().groups();
        Schema schema = server.server().context().schema();
        AtomicBoolean stop = new AtomicBoolean();
        ConcurrentLinkedQueue<String> stale = new ConcurrentLinkedQueue<>();
        LongAdder settled = new LongAdder();
        LongAdder inFlight = new LongAdder();
        ExecutorService pool = Executors.newFixedThreadPool(GROUPS + SERVICE_READERS + 1);
        List<Future<?>> tasks = new ArrayList<>();
        for (Lane l : lanes) {
            tasks.add(pool.submit(() -> {
                try (LDAPConnection c = server.bindAs(TestServer.ROOT_DN, TestServer.ROOT_PASSWORD)) {
                    for (long k = 1; !stop.get(); k++) {
                        l.begun.set(k);
                        c.modify(l.inner, new Modification(k % 2 == 1 ? ModificationType.ADD : ModificationType.DELETE,
                                "member", l.user));
                        l.acknowledged.set(k);
                        // A pause after the acknowledgement: answers right after it are the ones a late index
                        // update would get wrong, and without one the next write would begin at once.
                        LockSupport.parkNanos(ThreadLocalRandom.current().nextLong(100_000, 1_000_000));
                    }
                }
                return null;
            }));
        }
        for (int r = 0; r < SERVICE_READERS; r++) {
            tasks.add(pool.submit(() -> {
                long asked = 0;
                while (!stop.get()) {
                    for (Lane l : lanes) {
                        DN user = DN.valueOf(l.user, schema);
                        // Alternately the group written and the outer one that nests it.
                        DN target = DN.valueOf(asked++ % 2 == 0 ? l.inner : l.outer, schema);
                        long acked = l.acknowledged.get();
                        boolean member = groups.isMember(user, target);
                        check(l, acked, member, "isMember(" + target + ")", stale, settled, inFlight);
                    }
                }
                return null;
            }));
        }
        tasks.add(pool.submit(() -> {
            try (LDAPConnection c = server.bindAs(TestServer.ROOT_DN, TestServer.ROOT_PASSWORD)) {
                while (!stop.get()) {
                    for (Lane l : lanes) {
                        long acked = l.acknowledged.get();
                        SearchResultEntry e = c.getEntry(l.user, "isMemberOf");
                        boolean member = false;
                        for (String v : e.getAttributeValues("isMemberOf") == null ? new String[0]
                                : e.getAttributeValues("isMemberOf")) {
                            member |= DN.valueOf(v).equals(DN.valueOf(l.outer));
                        }
                        check(l, acked, member, "isMemberOf over LDAP", stale, settled, inFlight);
                    }
                }
            }
            return null;
        }));
        TimeUnit.SECONDS.sleep(seconds);
        stop.set(true);
        pool.shutdown();
        for (Future<?> f : tasks) {
            f.get(60, TimeUnit.SECONDS);
        }
        long writes = lanes.stream().mapToLong(l -> l.acknowledged.get()).sum();
        System.out.printf("Group membership race: %d writes, %d settled answers checked, %d during a write%n",
                writes, settled.sum(), inFlight.sum());
        assertEquals(List.copyOf(stale), List.of(), "stale answers after an acknowledged write");
        assertTrue(writes >= 20 * GROUPS, "too few writes to race: " + writes);
        assertTrue(settled.sum() >= 100, "too few settled answers: " + settled.sum());
    }

    /** With no write begun after {@code acked} (checked after the answer), the answer must be that write's. */
    private static void check(Lane l, long acked, boolean member, String how, ConcurrentLinkedQueue<String> stale,
                              LongAdder settled, LongAdder inFlight) {
        if (l.begun.get() != acked) {
            inFlight.increment();
            return;
        }
        settled.increment();
        boolean expected = acked % 2 == 1;
        if (member != expected && stale.size() < 20) {
            stale.add(how + " of " + l.user + " after write " + acked + ": " + member);
        }
    }
}
