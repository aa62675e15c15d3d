package io.bindfirst.backend.je;

import static io.bindfirst.backend.je.TestSupport.PEOPLE;
import static io.bindfirst.backend.je.TestSupport.SUFFIX;
import static io.bindfirst.backend.je.TestSupport.dn;
import static io.bindfirst.backend.je.TestSupport.norms;
import static io.bindfirst.backend.je.TestSupport.person;
import static io.bindfirst.backend.je.TestSupport.search;
import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertTrue;
import static org.testng.Assert.expectThrows;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import org.forgerock.opendj.ldap.Entry;
import org.forgerock.opendj.ldap.ResultCode;
import org.forgerock.opendj.ldap.SearchScope;
import org.testng.annotations.AfterMethod;
import org.testng.annotations.BeforeMethod;
import org.testng.annotations.DataProvider;
import org.testng.annotations.Test;

import io.bindfirst.server.backend.BackendException;
import io.bindfirst.server.backend.ImportItem;

public class JeBackendImportTest {
    private Path dir;
    private JeBackend backend;

    @BeforeMethod
    public void open() throws BackendException {
        dir = TestSupport.tempDir().resolve("db");
        backend = TestSupport.open(dir);
    }

    @AfterMethod(alwaysRun = true)
    public void close() {
        backend.close();
        TestSupport.delete(dir.getParent());
    }

    /** The suffix, ou=People and then {@code count} inetOrgPersons, generated lazily. */
    private static Iterator<Entry> sampleData(int count) {
        return new Iterator<>() {
            private int next = -2;

            @Override
            public boolean hasNext() {
                return next < count;
            }

            @Override
            public Entry next() {
                if (!hasNext()) {
                    throw new NoSuchElementException();
                }
                int i = next++;
                return i == -2 ? TestSupport.domain(SUFFIX) : i == -1 ? TestSupport.ou(PEOPLE) : person(i, PEOPLE);
            }
        };
    }

    @Test
    public void imports10000InetOrgPersons() throws BackendException {
        long start = System.nanoTime();
        long imported = backend.importEntries(sampleData(10_000));
        long millis = (System.nanoTime() - start) / 1_000_000;
        System.out.printf("Imported %d entries (6 equality indexes, %d per transaction) in %d ms%n",
                imported, JeBackend.IMPORT_BATCH, millis);
        assertEquals(imported, 10_002);
        assertEquals(backend.entryCount(), 10_002);
        assertEquals(search(backend, SUFFIX, SearchScope.WHOLE_SUBTREE, "(mail=USER.4242@EXAMPLE.COM)"),
                norms("uid=user.4242," + PEOPLE));
        assertEquals(search(backend, SUFFIX, SearchScope.WHOLE_SUBTREE, "(&(sn=number9999)(givenName=user))"),
                norms("uid=user.9999," + PEOPLE));
        int[] count = {0};
        backend.search(dn(PEOPLE), SearchScope.SINGLE_LEVEL, org.forgerock.opendj.ldap.Filter.objectClassPresent(),
                entry -> ++count[0] > 0);
        assertEquals(count[0], 10_000);

        // and it is all still there after a restart
        backend.close();
        backend = TestSupport.open(dir);
        assertEquals(backend.entryCount(), 10_002);
        assertEquals(backend.getEntry(dn("uid=user.9999," + PEOPLE)), person(9999, PEOPLE));
    }

    /**
     * Batches are prepared ahead of the one being stored: whatever the count's place against the batch size, every
     * entry is stored once, and the source is read by one thread only (it need not be safe for more).
     */
    @Test(dataProvider = "bulk")
    public void everyEntryIsStoredWhereverTheSourceEndsAgainstTheBatches(boolean bulk) throws BackendException {
        int batch = JeBackend.IMPORT_BATCH;
        for (int people : new int[] {-2, batch - 2, 2 * batch - 1, (JeBackend.FILLS_AHEAD + 2) * batch + 7}) {
            backend.close();
            TestSupport.delete(dir);
            backend = JeBackend.open(TestSupport.config(dir, TestSupport.SERVER_INDEXES), TestSupport.SCHEMA, bulk);
            Set<Thread> readers = ConcurrentHashMap.newKeySet();
            Iterator<Entry> data = sampleData(people);
            Iterator<Entry> source = new Iterator<>() {
                @Override
                public boolean hasNext() {
                    readers.add(Thread.currentThread());
                    return data.hasNext();
                }

                @Override
                public Entry next() {
                    readers.add(Thread.currentThread());
                    return data.next();
                }
            };
            long imported = backend.importEntries(source);
            assertEquals(imported, people + 2, "entries imported of " + (people + 2));
            assertEquals(backend.entryCount(), people + 2);
            assertTrue(readers.size() <= 1, "the source was read by " + readers);
            backend.close();
            backend = TestSupport.open(dir);
            assertEquals(backend.entryCount(), people + 2, "entries after reopening");
            if (people > 0) {
                assertEquals(search(backend, SUFFIX, SearchScope.WHOLE_SUBTREE, "(uid=user." + (people - 1) + ")"),
                        norms("uid=user." + (people - 1) + "," + PEOPLE));
            }
        }
    }

    @DataProvider
    public static Object[][] bulk() {
        return new Object[][] {{false}, {true}};
    }

    @Test
    public void aFailingBatchStopsTheImportAndEarlierBatchesStay() throws BackendException {
        List<Entry> entries = new ArrayList<>();
        sampleData(JeBackend.IMPORT_BATCH + 10).forEachRemaining(entries::add);
        entries.add(person(3, PEOPLE)); // a duplicate in the second batch
        entries.add(person(99_999, PEOPLE));
        BackendException e = expectThrows(BackendException.class, () -> backend.importEntries(entries.iterator()));
        assertEquals(e.resultCode(), ResultCode.ENTRY_ALREADY_EXISTS);
        assertEquals(e.getMessage(), "Import stopped after " + JeBackend.IMPORT_BATCH
                + " entries (those were kept): The entry uid=user.3,ou=People,dc=example,dc=com already exists");
        assertEquals(backend.entryCount(), JeBackend.IMPORT_BATCH);
        assertTrue(backend.entryExists(dn("uid=user." + (JeBackend.IMPORT_BATCH - 3) + "," + PEOPLE)));
        assertEquals(backend.entryExists(dn("uid=user." + (JeBackend.IMPORT_BATCH - 2) + "," + PEOPLE)), false);
    }

    @Test
    public void importChecksParents() throws BackendException {
        List<Entry> entries = List.of(TestSupport.domain(SUFFIX), person(1, PEOPLE));
        BackendException e = expectThrows(BackendException.class, () -> backend.importEntries(entries.iterator()));
        assertEquals(e.resultCode(), ResultCode.NO_SUCH_OBJECT);
        assertTrue(e.getMessage().endsWith("its parent entry ou=People,dc=example,dc=com does not exist"),
                e.getMessage());
        assertEquals(backend.entryCount(), 0, "the whole batch was rolled back");

        // a parent imported earlier in the same batch is found
        assertEquals(backend.importEntries(sampleData(3)), 5);
        assertEquals(backend.importEntries(List.of(person(3, PEOPLE)).iterator()), 1);
        assertEquals(backend.entryCount(), 6);
    }

    /** An entry with a label, as an importer's item carries where the entry came from. */
    private record Labelled(String label, Entry entry) implements ImportItem {
    }

    @Test
    public void refusedEntriesAreReportedOnceAndTheRestOfTheirBatchIsStored() throws BackendException {
        List<Labelled> items = new ArrayList<>();
        sampleData(JeBackend.IMPORT_BATCH + 10).forEachRemaining(e -> items.add(new Labelled("ok", e)));
        items.add(3, new Labelled("duplicate", person(0, PEOPLE))); // in the first batch, after its original
        items.add(new Labelled("orphan", person(1, "ou=Nowhere," + SUFFIX)));
        items.add(new Labelled("outside", TestSupport.ou("ou=Elsewhere,dc=other")));
        items.add(new Labelled("last", person(99_999, PEOPLE)));
        List<String> refused = new ArrayList<>();
        long imported = backend.importEntries(items.iterator(),
                (item, reason) -> refused.add(item.label() + ": " + reason.resultCode() + ": " + reason.getMessage()));

        assertEquals(refused, List.of(
                "duplicate: Entry Already Exists: The entry uid=user.0,ou=People,dc=example,dc=com already exists",
                "outside: No Such Entry: The entry ou=Elsewhere,dc=other cannot be added because it is not under "
                        + "a base DN of backend userRoot",
                "orphan: No Such Entry: The entry uid=user.1,ou=Nowhere,dc=example,dc=com cannot be added because "
                        + "its parent entry ou=Nowhere,dc=example,dc=com does not exist"));
        assertEquals(imported, JeBackend.IMPORT_BATCH + 13);
        assertEquals(backend.entryCount(), JeBackend.IMPORT_BATCH + 13);
        assertTrue(backend.entryExists(dn("uid=user.99999," + PEOPLE)));
        assertEquals(search(backend, SUFFIX, SearchScope.WHOLE_SUBTREE, "(uid=user.0)"),
                norms("uid=user.0," + PEOPLE), "the duplicate left no second index record");
    }
}
