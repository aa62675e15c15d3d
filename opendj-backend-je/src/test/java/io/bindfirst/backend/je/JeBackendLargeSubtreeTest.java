package io.bindfirst.backend.je;

import static io.bindfirst.backend.je.TestSupport.PEOPLE;
import static io.bindfirst.backend.je.TestSupport.SUFFIX;
import static io.bindfirst.backend.je.TestSupport.dn;
import static io.bindfirst.backend.je.TestSupport.search;
import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertNull;
import static org.testng.Assert.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import org.forgerock.opendj.ldap.DN;
import org.forgerock.opendj.ldap.Entry;
import org.forgerock.opendj.ldap.SearchScope;
import org.testng.annotations.AfterMethod;
import org.testng.annotations.BeforeMethod;
import org.testng.annotations.Test;

import io.bindfirst.server.backend.BackendException;

/** A subtree of 10,000+ entries moved and deleted, each in one transaction, while a reader keeps reading. */
public class JeBackendLargeSubtreeTest {
    private static final String GROUPS = "ou=Groups," + SUFFIX;
    private static final int TEAMS = 40;
    private static final int PER_TEAM = 250;

    private Path dir;
    private JeBackend backend;

    @BeforeMethod
    public void open() throws BackendException {
        dir = TestSupport.tempDir().resolve("db");
        backend = TestSupport.open(dir);
        TestSupport.addTree(backend);
    }

    @AfterMethod(alwaysRun = true)
    public void close() {
        backend.close();
        TestSupport.delete(dir.getParent());
    }

    @Test
    public void tenThousandEntriesMoveAndAreDeletedInOneTransactionEach() throws Exception {
        List<Entry> branch = TestSupport.branch("Big", PEOPLE, TEAMS, PER_TEAM);
        backend.importEntries(branch.iterator());
        int size = branch.size();
        String newDn = "ou=Big," + GROUPS;

        ExecutorService pool = Executors.newSingleThreadExecutor();
        AtomicBoolean busy = new AtomicBoolean(true);
        AtomicLong reads = new AtomicLong();
        try {
            Future<?> reader = pool.submit(() -> {
                ThreadLocalRandom random = ThreadLocalRandom.current();
                while (busy.get()) {
                    int t = random.nextInt(TEAMS);
                    String rdn = "uid=Big." + t + "." + random.nextInt(PER_TEAM) + ",ou=Team" + t + ",ou=Big,";
                    for (String parent : new String[] {PEOPLE, GROUPS}) {
                        DN asked = dn(rdn + parent);
                        Entry entry = backend.getEntry(asked);
                        assertTrue(entry == null || entry.getName().equals(asked), asked + " gave " + entry);
                        reads.incrementAndGet();
                    }
                }
                return null;
            });
            long start = System.nanoTime();
            backend.renameEntry(dn("ou=Big," + PEOPLE), dn(newDn), current -> TestSupport.renamed(current, newDn));
            long moveMillis = (System.nanoTime() - start) / 1_000_000;
            Thread.sleep(50);
            busy.set(false);
            reader.get(60, TimeUnit.SECONDS);
            System.out.println("TIMING subtree move of " + size + " entries: " + moveMillis + " ms ("
                    + reads.get() + " concurrent getEntry calls, none failed)");
        } finally {
            pool.shutdownNow();
        }

        assertEquals(search(backend, newDn, SearchScope.WHOLE_SUBTREE, "(objectClass=*)").size(), size);
        assertEquals(search(backend, SUFFIX, SearchScope.WHOLE_SUBTREE, "(uid=Big.39.249)"),
                TestSupport.norms("uid=Big.39.249,ou=Team39," + newDn));
        assertEquals(search(backend, PEOPLE, SearchScope.WHOLE_SUBTREE, "(objectClass=*)").size(), 1);
        backend.close();
        assertEquals(StoreCheck.check(dir), 3 + size);
        backend = TestSupport.open(dir);

        long start = System.nanoTime();
        assertEquals(backend.deleteEntry(dn(newDn), true).getName(), dn(newDn));
        System.out.println("TIMING subtree delete of " + size + " entries: "
                + (System.nanoTime() - start) / 1_000_000 + " ms");
        assertEquals(backend.entryCount(), 3);
        assertNull(backend.getEntry(dn("uid=Big.1.1,ou=Team1," + newDn)));
        backend.close();
        assertEquals(StoreCheck.check(dir), 3);
        backend = TestSupport.open(dir);
    }
}
