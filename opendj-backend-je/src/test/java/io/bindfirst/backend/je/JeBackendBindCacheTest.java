package io.bindfirst.backend.je;

import static io.bindfirst.backend.je.TestSupport.PEOPLE;
import static io.bindfirst.backend.je.TestSupport.SUFFIX;
import static io.bindfirst.backend.je.TestSupport.dn;
import static io.bindfirst.backend.je.TestSupport.person;
import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertNotNull;
import static org.testng.Assert.assertNotSame;
import static org.testng.Assert.assertNull;
import static org.testng.Assert.assertSame;
import static org.testng.Assert.assertTrue;
import static org.testng.Assert.expectThrows;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import org.forgerock.opendj.ldap.Entry;
import org.forgerock.opendj.ldap.ResultCode;
import org.testng.annotations.AfterMethod;
import org.testng.annotations.BeforeMethod;
import org.testng.annotations.Test;

import io.bindfirst.server.backend.BackendConfig;
import io.bindfirst.server.backend.BackendException;

/**
 * The bind path's reads through the backend's {@link BindEntryCache}: re-binds are served from memory, and
 * no read that starts after a write returned ever sees the entry as it was before that write.
 */
public class JeBackendBindCacheTest {
    /** What the bind path would ask for; description stands in for a password that changes. */
    private static final Set<String> NAMES = Set.of("description", "2.5.4.13", "sn", "2.5.4.4");
    private static final String USER = "uid=user.1," + PEOPLE;

    private Path dir;
    private JeBackend backend;

    @BeforeMethod
    public void open() throws BackendException {
        dir = TestSupport.tempDir().resolve("db");
        backend = TestSupport.open(dir);
        TestSupport.addTree(backend);
        backend.addEntry(person(1, PEOPLE));
    }

    @AfterMethod(alwaysRun = true)
    public void close() {
        backend.close();
        TestSupport.delete(dir.getParent());
    }

    private String description(String dn) throws BackendException {
        Entry e = backend.getEntry(dn(dn), NAMES);
        return e == null ? null : e.getAttribute("description").firstValueAsString();
    }

    private void setDescription(String dn, String value) throws BackendException {
        backend.modifyEntry(dn(dn), current -> TestSupport.with(current, "description", value));
    }

    @Test
    public void aReBindIsServedFromMemory() throws BackendException {
        Entry first = backend.getEntry(dn(USER), NAMES);
        assertSame(backend.getEntry(dn("UID=User.1,ou=people," + SUFFIX), NAMES), first,
                "another spelling of the DN is the same key");
    }

    @Test
    public void aModifyIsSeenByTheNextRead() throws BackendException {
        assertEquals(description(USER), "Test user 1");
        setDescription(USER, "changed");
        assertEquals(description(USER), "changed");
    }

    @Test
    public void aFailedModifyLeavesTheEntryReadable() throws BackendException {
        assertEquals(description(USER), "Test user 1");
        BackendException e = expectThrows(BackendException.class, () -> backend.modifyEntry(dn(USER), current -> {
            throw new BackendException(ResultCode.CONSTRAINT_VIOLATION, "no");
        }));
        assertEquals(e.resultCode(), ResultCode.CONSTRAINT_VIOLATION);
        assertEquals(description(USER), "Test user 1");
    }

    @Test
    public void aDeletedEntryIsGoneAndAReAddedOneIsNew() throws BackendException {
        assertNotNull(description(USER));
        backend.deleteEntry(dn(USER), false);
        assertNull(backend.getEntry(dn(USER), NAMES));
        backend.addEntry(TestSupport.with(person(1, PEOPLE), "description", "reborn"));
        assertEquals(description(USER), "reborn");
    }

    @Test
    public void aRenamedEntryIsGoneUnderItsOldName() throws BackendException {
        assertNotNull(description(USER));
        String newDn = "uid=user.1b," + PEOPLE;
        backend.renameEntry(dn(USER), dn(newDn), e -> TestSupport.renamed(e, newDn));
        assertNull(backend.getEntry(dn(USER), NAMES));
        assertEquals(description(newDn), "Test user 1");
    }

    @Test
    public void movingOrDeletingAParentDropsTheEntriesBelowIt() throws BackendException {
        for (Entry e : TestSupport.branch("Staff", SUFFIX, 1, 2)) {
            backend.addEntry(e);
        }
        String member = "uid=Staff.0.0,ou=Team0,ou=Staff," + SUFFIX;
        assertNotNull(description(member));
        String moved = "ou=Crew," + SUFFIX;
        backend.renameEntry(dn("ou=Staff," + SUFFIX), dn(moved), e -> TestSupport.renamed(e, moved));
        assertNull(backend.getEntry(dn(member), NAMES), "the old DN of an entry below the renamed one");
        String movedMember = "uid=Staff.0.0,ou=Team0," + moved;
        assertEquals(description(movedMember), "0");
        backend.deleteEntry(dn(moved), true);
        assertNull(backend.getEntry(dn(movedMember), NAMES), "an entry below a deleted subtree");
    }

    @Test
    public void withTheCacheOffEveryReadDecodesAfresh() throws BackendException {
        backend.close();
        BackendConfig off = new BackendConfig("userRoot", "je", List.of(dn(SUFFIX)), dir, TestSupport.SERVER_INDEXES,
                0, 0);
        backend = JeBackend.open(off, TestSupport.SCHEMA);
        Entry first = backend.getEntry(dn(USER), NAMES);
        assertNotNull(first);
        assertNotSame(backend.getEntry(dn(USER), NAMES), first);
    }

    /**
     * Hunts the stale-admission race: readers keep reading (and admitting) the entry while one writer keeps
     * changing it. Every read that starts after a write returned must see that write or a later one; the
     * writer itself checks right after each write, the readers against the last write that had returned
     * when they started. Deletes and re-adds are mixed in, so "gone" must be seen as promptly as "changed".
     */
    @Test(timeOut = 120_000)
    public void noReadStartedAfterAWriteReturnedSeesTheEntryFromBeforeIt() throws Exception {
        int readers = 3;
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(4);
        AtomicLong done = new AtomicLong(-1); // the value of the last write that returned; -1 deleted
        AtomicBoolean stop = new AtomicBoolean();
        AtomicLong writes = new AtomicLong();
        ConcurrentLinkedQueue<String> errors = new ConcurrentLinkedQueue<>();
        ExecutorService pool = Executors.newFixedThreadPool(readers + 1);
        List<Future<?>> futures = new ArrayList<>();
        setDescription(USER, "0");
        done.set(0);
        try {
            for (int r = 0; r < readers; r++) {
                futures.add(pool.submit(() -> {
                    while (!stop.get()) {
                        long before = done.get();
                        String seen = description(USER);
                        long value = seen == null ? -1 : Long.parseLong(seen);
                        // A read may see a later write (or its delete) but never an earlier state.
                        if (before >= 0 && value >= 0 && value < before) {
                            errors.add("read " + value + " after write " + before + " had returned");
                        }
                    }
                    return null;
                }));
            }
            futures.add(0, pool.submit(() -> {
                long i = 0;
                try {
                while (System.nanoTime() < deadline && errors.isEmpty()) {
                    i++;
                    if (i % 10 == 1) {
                        backend.deleteEntry(dn(USER), true);
                        done.set(-1);
                        if (backend.getEntry(dn(USER), NAMES) != null) {
                            errors.add("still there after its delete returned");
                        }
                        backend.addEntry(TestSupport.with(person(1, PEOPLE), "description", Long.toString(i)));
                    } else {
                        setDescription(USER, Long.toString(i));
                    }
                    done.set(i);
                    String seen = description(USER);
                    if (!Long.toString(i).equals(seen)) {
                        errors.add("write " + i + " returned, then read " + seen);
                    }
                }
                } finally {
                    stop.set(true);
                    writes.set(i);
                }
                return null;
            }));
            for (Future<?> f : futures) {
                f.get(110, TimeUnit.SECONDS);
            }
        } finally {
            stop.set(true);
            pool.shutdownNow();
        }
        assertTrue(errors.isEmpty(), errors.size() + " stale reads, first: " + errors.peek());
        assertTrue(writes.get() > 50, "only " + writes.get() + " writes");
    }
}
