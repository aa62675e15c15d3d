package io.bindfirst.backend.je;

import static io.bindfirst.backend.je.TestSupport.PEOPLE;
import static io.bindfirst.backend.je.TestSupport.SUFFIX;
import static io.bindfirst.backend.je.TestSupport.dn;
import static io.bindfirst.backend.je.TestSupport.person;
import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertNotNull;
import static org.testng.Assert.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.forgerock.opendj.ldap.Entry;
import org.forgerock.opendj.ldap.Filter;
import org.forgerock.opendj.ldap.ResultCode;
import org.forgerock.opendj.ldap.SearchScope;
import org.testng.annotations.AfterMethod;
import org.testng.annotations.BeforeMethod;
import org.testng.annotations.Test;

import io.bindfirst.server.backend.BackendException;

public class JeBackendConcurrencyTest {
    private static final int WRITERS = 4;
    private static final int READERS = 4;
    private static final int PER_WRITER = 150;

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
    public void concurrentAddsAndReads() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(WRITERS + READERS);
        CountDownLatch start = new CountDownLatch(1);
        AtomicInteger writersLeft = new AtomicInteger(WRITERS);
        ConcurrentLinkedQueue<Throwable> errors = new ConcurrentLinkedQueue<>();
        List<Future<?>> futures = new ArrayList<>();
        try {
            for (int w = 0; w < WRITERS; w++) {
                int writer = w;
                futures.add(pool.submit(() -> {
                    try {
                        start.await();
                        for (int i = 0; i < PER_WRITER; i++) {
                            int n = writer * PER_WRITER + i;
                            backend.addEntry(person(n, PEOPLE));
                            // read our own write at once, through the DN and through an index
                            Entry read = backend.getEntry(dn("uid=user." + n + "," + PEOPLE));
                            assertNotNull(read, "user." + n);
                            List<String> found = TestSupport.search(backend, PEOPLE, SearchScope.SINGLE_LEVEL,
                                    "(mail=USER." + n + "@example.com)");
                            assertEquals(found.size(), 1, "user." + n);
                        }
                    } catch (Throwable t) {
                        errors.add(t);
                    } finally {
                        writersLeft.decrementAndGet();
                    }
                    return null;
                }));
            }
            for (int r = 0; r < READERS; r++) {
                int reader = r;
                futures.add(pool.submit(() -> {
                    try {
                        start.await();
                        int lastSeen = 0;
                        while (writersLeft.get() > 0) {
                            // half walk dn2id, half read the objectClass index; entries are only added,
                            // so what one search sees, the next one sees too
                            int[] count = {0};
                            backend.search(dn(SUFFIX), SearchScope.WHOLE_SUBTREE,
                                    Filter.valueOf(reader % 2 == 0 ? "(objectClass=*)" : "(objectClass=person)"),
                                    entry -> {
                                        assertTrue(entry.getName().isSubordinateOrEqualTo(dn(SUFFIX)));
                                        count[0]++;
                                        return true;
                                    });
                            assertTrue(count[0] >= lastSeen, count[0] + " < " + lastSeen);
                            lastSeen = count[0];
                            assertTrue(backend.entryCount() >= 3);
                            assertTrue(backend.hasSubordinates(dn(SUFFIX)));
                        }
                    } catch (Throwable t) {
                        errors.add(t);
                    }
                    return null;
                }));
            }
            start.countDown();
            for (Future<?> future : futures) {
                future.get(120, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
        assertTrue(errors.isEmpty(), "errors: " + errors);
        assertEquals(backend.entryCount(), 3 + WRITERS * PER_WRITER);
        assertEquals(TestSupport.search(backend, PEOPLE, SearchScope.SINGLE_LEVEL, "(objectClass=*)").size(),
                WRITERS * PER_WRITER);
    }

    /** The same DN from several threads at once: exactly one wins, the others see ENTRY_ALREADY_EXISTS. */
    @Test
    public void racingAddsOfOneDnLetExactlyOneWin() throws Exception {
        int threads = 6;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        CountDownLatch start = new CountDownLatch(1);
        List<Future<ResultCode>> futures = new ArrayList<>();
        try {
            for (int t = 0; t < threads; t++) {
                futures.add(pool.submit(() -> {
                    start.await();
                    try {
                        backend.addEntry(person(1, PEOPLE));
                        return ResultCode.SUCCESS;
                    } catch (BackendException e) {
                        return e.resultCode();
                    }
                }));
            }
            start.countDown();
            int wins = 0;
            for (Future<ResultCode> future : futures) {
                ResultCode code = future.get(60, TimeUnit.SECONDS);
                if (code == ResultCode.SUCCESS) {
                    wins++;
                } else {
                    assertEquals(code, ResultCode.ENTRY_ALREADY_EXISTS);
                }
            }
            assertEquals(wins, 1);
        } finally {
            pool.shutdownNow();
        }
        assertEquals(backend.entryCount(), 4);
        assertEquals(TestSupport.search(backend, SUFFIX, SearchScope.WHOLE_SUBTREE, "(uid=user.1)").size(), 1);
    }
}
