package io.bindfirst.backend.je;

import static io.bindfirst.backend.je.TestSupport.PEOPLE;
import static io.bindfirst.backend.je.TestSupport.SUFFIX;
import static io.bindfirst.backend.je.TestSupport.dn;
import static io.bindfirst.backend.je.TestSupport.person;
import static io.bindfirst.backend.je.TestSupport.with;
import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import org.forgerock.opendj.ldap.DN;
import org.forgerock.opendj.ldap.Entry;
import org.forgerock.opendj.ldap.Filter;
import org.forgerock.opendj.ldap.ResultCode;
import org.forgerock.opendj.ldap.SearchScope;
import org.testng.annotations.AfterMethod;
import org.testng.annotations.BeforeMethod;
import org.testng.annotations.Test;

import io.bindfirst.server.backend.BackendException;
import io.bindfirst.server.backend.EntryChange;
import io.bindfirst.server.backend.EntryUpdate;

public class JeBackendWriteConcurrencyTest {
    private static final String GROUPS = "ou=Groups," + SUFFIX;
    private static final int TEAMS = 10;
    private static final int PER_TEAM = 30;

    private Path dir;
    private JeBackend backend;
    private ExecutorService pool;

    @BeforeMethod
    public void open() throws BackendException {
        dir = TestSupport.tempDir().resolve("db");
        backend = TestSupport.open(dir);
        TestSupport.addTree(backend);
        pool = Executors.newCachedThreadPool();
    }

    @AfterMethod(alwaysRun = true)
    public void close() {
        pool.shutdownNow();
        backend.close();
        TestSupport.delete(dir.getParent());
    }

    private static int counter(Entry entry) {
        return Integer.parseInt(entry.getAttribute("description").firstValueAsString());
    }

    /** Read-modify-write of a counter inside the update. */
    private static final EntryUpdate INCREMENT = current ->
            with(current, "description", String.valueOf(counter(current) + 1));

    /**
     * Eight threads increment one counter. Were the entry read without a write lock, two updates would
     * start from the same value and one increment would be lost; each committed value must be unique.
     */
    @Test
    public void concurrentModifiesOfOneEntryLoseNothing() throws Exception {
        int threads = 8;
        int perThread = 25;
        DN target = dn("uid=user.1," + PEOPLE);
        backend.addEntry(with(person(1, PEOPLE), "description", "0"));
        Set<Integer> committed = ConcurrentHashMap.newKeySet();
        AtomicInteger calls = new AtomicInteger();
        List<Callable<Void>> tasks = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            tasks.add(() -> {
                for (int i = 0; i < perThread; i++) {
                    EntryChange change = backend.modifyEntry(target, current -> {
                        calls.incrementAndGet();
                        return INCREMENT.apply(current);
                    });
                    assertEquals(counter(change.after()), counter(change.before()) + 1);
                    assertTrue(committed.add(counter(change.after())), "value committed twice: " + change.after());
                }
                return null;
            });
        }
        runAll(tasks, 120);
        System.out.println("CONCURRENCY " + threads * perThread + " modifies took " + calls.get() + " update calls");
        assertEquals(counter(backend.getEntry(target)), threads * perThread);
        assertEquals(committed.size(), threads * perThread);
        assertTrue(calls.get() >= threads * perThread);
        backend.close();
        StoreCheck.check(dir);
        backend = TestSupport.open(dir);
    }

    /**
     * A branch moves back and forth between two parents while readers look it up under both names and
     * search it, and a modifier increments counters in it. A reader must never get an entry whose DN is not
     * the one it asked for or outside the search scope, and never an error; no increment may be lost to a
     * concurrent move rewriting the entry.
     */
    @Test
    public void readersAndModifiesDuringSubtreeMoves() throws Exception {
        List<Entry> branch = TestSupport.branch("Branch", PEOPLE, TEAMS, PER_TEAM);
        backend.importEntries(branch.iterator());
        String[] parents = {PEOPLE, GROUPS};
        AtomicBoolean moving = new AtomicBoolean(true);
        AtomicLong hits = new AtomicLong();
        AtomicLong[] hitsUnder = {new AtomicLong(), new AtomicLong()};
        AtomicInteger increments = new AtomicInteger();
        ConcurrentLinkedQueue<String> problems = new ConcurrentLinkedQueue<>();
        List<Callable<Void>> tasks = new ArrayList<>();
        tasks.add(() -> {
            try {
                for (int move = 0; move < 8; move++) {
                    Thread.sleep(40);
                    String newDn = "ou=Branch," + parents[(move + 1) % 2];
                    backend.renameEntry(dn("ou=Branch," + parents[move % 2]), dn(newDn),
                            current -> TestSupport.renamed(current, newDn));
                }
            } finally {
                moving.set(false);
            }
            return null;
        });
        for (int r = 0; r < 3; r++) {
            tasks.add(() -> {
                ThreadLocalRandom random = ThreadLocalRandom.current();
                while (moving.get()) {
                    int t = random.nextInt(TEAMS);
                    String uid = "Branch." + t + "." + random.nextInt(PER_TEAM);
                    for (int p = 0; p < 2; p++) {
                        DN team = dn("ou=Team" + t + ",ou=Branch," + parents[p]);
                        DN asked = team.child("uid", uid);
                        Entry entry = backend.getEntry(asked);
                        if (entry != null) {
                            hits.incrementAndGet();
                            hitsUnder[p].incrementAndGet();
                            if (!entry.getName().equals(asked)) {
                                problems.add("getEntry(" + asked + ") returned " + entry.getName());
                            }
                        }
                        checkSearch(team, SearchScope.SINGLE_LEVEL, "(objectClass=*)", problems);
                        checkSearch(team, SearchScope.SUBORDINATES, "(uid=" + uid + ")", problems);
                    }
                    List<DN> found = new ArrayList<>();
                    backend.search(dn(SUFFIX), SearchScope.WHOLE_SUBTREE, Filter.valueOf("(uid=" + uid + ")"),
                            e -> found.add(e.getName()));
                    for (DN name : found) {
                        if (!name.rdn().toString().equalsIgnoreCase("uid=" + uid)) {
                            problems.add("(uid=" + uid + ") found " + name);
                        }
                    }
                }
                return null;
            });
        }
        tasks.add(() -> {
            ThreadLocalRandom random = ThreadLocalRandom.current();
            while (moving.get()) {
                int t = random.nextInt(TEAMS);
                String rdn = "uid=Branch." + t + "." + random.nextInt(PER_TEAM) + ",ou=Team" + t + ",ou=Branch,";
                for (String parent : parents) {
                    try {
                        backend.modifyEntry(dn(rdn + parent), INCREMENT);
                        increments.incrementAndGet();
                        break;
                    } catch (BackendException e) {
                        if (e.resultCode() != ResultCode.NO_SUCH_OBJECT) {
                            throw e;
                        }
                    }
                }
            }
            return null;
        });
        runAll(tasks, 180);
        assertTrue(problems.isEmpty(), problems.size() + " problems, e.g. " + problems.stream().limit(5).toList());
        System.out.println("CONCURRENCY during 8 moves of " + branch.size() + " entries: " + hits.get()
                + " getEntry hits (" + hitsUnder[0] + " under People, " + hitsUnder[1] + " under Groups), "
                + increments.get() + " increments");
        assertTrue(hitsUnder[0].get() > 0 && hitsUnder[1].get() > 0, "readers saw both places");

        int total = 0;
        for (Entry entry : branch.subList(1, branch.size())) {
            Entry stored = backend.getEntry(entry.getName()); // after 8 moves the branch is back under People
            assertEquals(stored.getName(), entry.getName());
            if (stored.getAttribute("uid") != null) {
                total += counter(stored);
            }
        }
        assertEquals(total, increments.get(), "no increment lost to a move");
        backend.close();
        assertEquals(StoreCheck.check(dir), 3 + branch.size());
        backend = TestSupport.open(dir);
    }

    /**
     * getEntry reads dn2id, then id2entry. A rename committed between the two reads leaves the id holding the
     * entry under its new DN: a reader asking for the old DN must then get nothing, not the renamed entry.
     * Many small renames and tight reader loops make that interleaving happen.
     */
    @Test
    public void getEntryNeverReturnsAnotherDnDuringRenames() throws Exception {
        String[] names = {"uid=left," + PEOPLE, "uid=right," + PEOPLE};
        backend.addEntry(TestSupport.renamed(person(1, PEOPLE), names[0]));
        AtomicBoolean moving = new AtomicBoolean(true);
        AtomicLong reads = new AtomicLong();
        ConcurrentLinkedQueue<String> problems = new ConcurrentLinkedQueue<>();
        List<Callable<Void>> tasks = new ArrayList<>();
        tasks.add(() -> {
            try {
                for (int move = 0; move < 300; move++) {
                    String newDn = names[(move + 1) % 2];
                    backend.renameEntry(dn(names[move % 2]), dn(newDn), current -> TestSupport.renamed(current, newDn));
                }
            } finally {
                moving.set(false);
            }
            return null;
        });
        for (int r = 0; r < 3; r++) {
            tasks.add(() -> {
                while (moving.get()) {
                    for (String name : names) {
                        Entry entry = backend.getEntry(dn(name));
                        reads.incrementAndGet();
                        if (entry != null && !entry.getName().equals(dn(name))) {
                            problems.add("getEntry(" + name + ") returned " + entry.getName());
                        }
                    }
                }
                return null;
            });
        }
        runAll(tasks, 120);
        System.out.println("CONCURRENCY " + reads.get() + " getEntry calls during 300 renames");
        assertTrue(problems.isEmpty(), problems.size() + " problems, e.g. " + problems.stream().limit(5).toList());
        assertEquals(backend.getEntry(dn(names[0])).getName(), dn(names[0]));
    }

    /** Search under a base that may have moved away: NO_SUCH_OBJECT is fine, an entry out of scope is not. */
    private void checkSearch(DN base, SearchScope scope, String filter, ConcurrentLinkedQueue<String> problems)
            throws BackendException {
        try {
            backend.search(base, scope, Filter.valueOf(filter), entry -> {
                if (!entry.getName().isInScopeOf(base, scope)) {
                    problems.add(scope + " search under " + base + " returned " + entry.getName());
                }
                return true;
            });
        } catch (BackendException e) {
            if (e.resultCode() != ResultCode.NO_SUCH_OBJECT) {
                throw e;
            }
        }
    }

    /**
     * Adds race a subtree delete under the subtree being deleted. Each add either commits before the
     * delete reaches its parent (and is deleted with the rest) or fails with NO_SUCH_OBJECT: no orphan.
     */
    @Test
    public void subtreeDeleteRacingAddsLeavesNoOrphans() throws Exception {
        List<Entry> branch = TestSupport.branch("Branch", PEOPLE, TEAMS, PER_TEAM);
        for (int round = 0; round < 3; round++) {
            backend.importEntries(branch.iterator());
            AtomicBoolean deleting = new AtomicBoolean(true);
            AtomicInteger next = new AtomicInteger();
            AtomicInteger added = new AtomicInteger();
            List<Callable<Void>> tasks = new ArrayList<>();
            tasks.add(() -> {
                try {
                    Thread.sleep(30);
                    backend.deleteEntry(dn("ou=Branch," + PEOPLE), true);
                } finally {
                    deleting.set(false);
                }
                return null;
            });
            for (int a = 0; a < 3; a++) {
                tasks.add(() -> {
                    boolean afterDelete = false;
                    while (!afterDelete) {
                        afterDelete = !deleting.get();
                        int n = next.incrementAndGet();
                        String team = "ou=Team" + (n % TEAMS) + ",ou=Branch," + PEOPLE;
                        try {
                            backend.addEntry(person(n, team));
                            added.incrementAndGet();
                            if (afterDelete) {
                                throw new AssertionError("added " + n + " under " + team + " after the delete");
                            }
                        } catch (BackendException e) {
                            if (e.resultCode() != ResultCode.NO_SUCH_OBJECT) {
                                throw e;
                            }
                        }
                    }
                    return null;
                });
            }
            runAll(tasks, 120);
            assertTrue(added.get() > 0, "some adds ran before the delete");
            assertEquals(backend.entryCount(), 3);
            backend.close();
            assertEquals(StoreCheck.check(dir), 3);
            backend = TestSupport.open(dir);
        }
    }

    private void runAll(List<Callable<Void>> tasks, int timeoutSeconds) throws Exception {
        CountDownLatch start = new CountDownLatch(1);
        List<Future<Void>> futures = new ArrayList<>();
        for (Callable<Void> task : tasks) {
            futures.add(pool.submit(() -> {
                start.await();
                return task.call();
            }));
        }
        start.countDown();
        for (Future<Void> future : futures) {
            future.get(timeoutSeconds, TimeUnit.SECONDS);
        }
    }
}
