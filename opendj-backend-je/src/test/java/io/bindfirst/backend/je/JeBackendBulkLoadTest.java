package io.bindfirst.backend.je;

import static io.bindfirst.backend.je.TestSupport.PEOPLE;
import static io.bindfirst.backend.je.TestSupport.SUFFIX;
import static io.bindfirst.backend.je.TestSupport.dn;
import static io.bindfirst.backend.je.TestSupport.norms;
import static io.bindfirst.backend.je.TestSupport.person;
import static io.bindfirst.backend.je.TestSupport.search;
import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertFalse;
import static org.testng.Assert.assertTrue;
import static org.testng.Assert.expectThrows;

import java.io.BufferedReader;
import java.io.File;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.concurrent.TimeUnit;

import org.forgerock.opendj.ldap.Entry;
import org.forgerock.opendj.ldap.ResultCode;
import org.forgerock.opendj.ldap.SearchScope;
import org.testng.annotations.AfterMethod;
import org.testng.annotations.BeforeMethod;
import org.testng.annotations.Test;

import io.bindfirst.server.backend.BackendException;
import io.bindfirst.server.backend.ImportItem;

/**
 * The bulk load of a cleared backend (import-ldif --clearBackend): no transactions, index records written in
 * sorted runs, everything written out at close. What it leaves must be what the transactional import leaves,
 * and a load that never reached its close must not open as if it were complete.
 */
public class JeBackendBulkLoadTest {
    private Path root;
    private Path dir;

    @BeforeMethod
    public void dirs() {
        root = TestSupport.tempDir();
        dir = root.resolve("db");
    }

    @AfterMethod(alwaysRun = true)
    public void delete() {
        TestSupport.delete(root);
    }

    /** Run in a child JVM: bulk-loads people forever into a cleared backend, printing "STORED n" as it goes. */
    public static void main(String[] args) throws Exception {
        JeBackend backend = JeBackend.open(TestSupport.config(Path.of(args[0]), TestSupport.SERVER_INDEXES),
                TestSupport.SCHEMA, true);
        backend.importEntries(people(Integer.MAX_VALUE, n -> {
            if (n % 1_000 == 0) {
                System.out.println("STORED " + n);
                System.out.flush();
            }
        }));
    }

    /** The suffix, ou=People and {@code count} people, {@code seen} told how many were handed out. */
    private static Iterator<Entry> people(int count, java.util.function.IntConsumer seen) {
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
                seen.accept(i + 1);
                return i == -2 ? TestSupport.domain(SUFFIX) : i == -1 ? TestSupport.ou(PEOPLE) : person(i, PEOPLE);
            }
        };
    }

    /** An entry with a label, as an importer's item carries where the entry came from. */
    private record Labelled(String label, Entry entry) implements ImportItem {
    }

    /** The data a cleared load replaces leave the disk with it: not a log of old records for JE to scan and clean. */
    @Test
    public void aClearedImportLeavesNoneOfTheOldDataOnDisk() throws Exception {
        int old = 3 * JeBackend.IMPORT_BATCH;
        try (JeBackend before = TestSupport.open(dir)) {
            before.importEntries(people(old, n -> { }));
        }
        long oldBytes = logBytes();
        try (JeBackend bulk = JeBackend.open(TestSupport.config(dir, TestSupport.SERVER_INDEXES),
                TestSupport.SCHEMA, true)) {
            assertEquals(bulk.entryCount(), 0, "empty from the start");
            assertEquals(bulk.importEntries(people(10, n -> { })), 12);
        }
        long newBytes = logBytes();
        assertTrue(newBytes < oldBytes / 4, "the log holds " + newBytes + " bytes after a load of 12 entries over "
                + old + " (" + oldBytes + " bytes before)");
        try (JeBackend backend = TestSupport.open(dir)) {
            assertEquals(backend.entryCount(), 12);
            assertFalse(backend.entryExists(dn("uid=user." + (old - 1) + "," + PEOPLE)));
        }
    }

    /** A cleared load of a backend that is open elsewhere is refused as busy and changes nothing. */
    @Test
    public void aClearedImportOfABackendInUseIsRefusedAndRemovesNothing() throws Exception {
        try (JeBackend held = TestSupport.open(dir)) {
            TestSupport.addTree(held);
            long bytes = logBytes();
            BackendException e = expectThrows(BackendException.class, () -> JeBackend.open(
                    TestSupport.config(dir, TestSupport.SERVER_INDEXES), TestSupport.SCHEMA, true));
            assertEquals(e.resultCode(), ResultCode.BUSY, e.getMessage());
            assertTrue(e.getMessage().contains("is in use by another process"), e.getMessage());
            assertFalse(Files.exists(dir.resolve(JeStorage.LOAD_MARKER)), "not marked unfinished");
            assertTrue(logBytes() >= bytes, "no log file removed");
            assertTrue(held.entryExists(dn(PEOPLE)));
            // and the environment is still locked against other processes
            String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
            Process child = new ProcessBuilder(java, "-Xmx128m", "-cp", System.getProperty("java.class.path"),
                    TryOpen.class.getName(), dir.toString()).redirectErrorStream(true).start();
            String said = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(child.waitFor(60, TimeUnit.SECONDS));
            assertTrue(said.contains("REFUSED Busy"), "another process opening the held backend said: " + said);
        }
        try (JeBackend reopened = TestSupport.open(dir)) {
            assertTrue(reopened.entryExists(dn(PEOPLE)));
        }
    }

    /** Run in a child JVM: opens the backend in args[0] as the server would, and says what happened. */
    public static final class TryOpen {
        public static void main(String[] args) {
            try (JeBackend backend = TestSupport.open(Path.of(args[0]))) {
                System.out.println("OPENED with " + backend.entryCount() + " entries");
            } catch (BackendException e) {
                System.out.println("REFUSED " + e.resultCode() + ": " + e.getMessage());
            }
        }
    }

    /** The size of JE's log files in the backend's directory. */
    private long logBytes() throws java.io.IOException {
        try (java.util.stream.Stream<Path> files = Files.list(dir)) {
            return files.filter(f -> f.getFileName().toString().endsWith(".jdb")).mapToLong(f -> f.toFile().length())
                    .sum();
        }
    }

    @Test
    public void aClearedImportReplacesTheDataAndIsIndexedOnceClosed() throws BackendException {
        try (JeBackend before = TestSupport.open(dir)) {
            TestSupport.addTree(before);
            before.addEntry(person(900_000, PEOPLE));
        }
        int count = 3 * JeBackend.IMPORT_BATCH + 17;
        List<Labelled> items = new ArrayList<>();
        people(count, n -> { }).forEachRemaining(e -> items.add(new Labelled("ok", e)));
        items.add(5, new Labelled("duplicate", person(1, PEOPLE)));
        items.add(new Labelled("orphan", person(7, "ou=Nowhere," + SUFFIX)));
        List<String> refused = new ArrayList<>();
        try (JeBackend bulk = JeBackend.open(TestSupport.config(dir, TestSupport.SERVER_INDEXES),
                TestSupport.SCHEMA, true)) {
            assertEquals(bulk.importEntries(items.iterator(), (item, reason) -> refused.add(item.label())),
                    count + 2);
            assertFalse(Files.exists(dir.resolve(JeStorage.LOAD_MARKER)),
                    "written out once the import returns: a crash from here on loses nothing");
            bulk.addEntry(person(count + 1, PEOPLE));
            assertTrue(Files.exists(dir.resolve(JeStorage.LOAD_MARKER)), "unfinished again until the close");
        }
        assertEquals(refused, List.of("duplicate", "orphan"));
        assertFalse(Files.exists(dir.resolve(JeStorage.LOAD_MARKER)), "the marker goes once all is written");
        // Every index holds exactly the records its entries call for: none missing, none left over.
        assertEquals(StoreCheck.check(dir), count + 3);

        try (JeBackend backend = TestSupport.open(dir)) {
            assertEquals(backend.entryCount(), count + 3);
            assertFalse(backend.entryExists(dn("uid=user.900000," + PEOPLE)), "cleared first");
            String last = "uid=user." + (count - 1) + "," + PEOPLE;
            assertEquals(search(backend, SUFFIX, SearchScope.WHOLE_SUBTREE, "(uid=user." + (count - 1) + ")"),
                    norms(last));
            assertEquals(search(backend, SUFFIX, SearchScope.WHOLE_SUBTREE, "(mail=USER.4242@example.com)"),
                    norms("uid=user.4242," + PEOPLE));
            assertEquals(search(backend, SUFFIX, SearchScope.WHOLE_SUBTREE, "(cn=user 17)"),
                    norms("uid=user.17," + PEOPLE));
            assertEquals(search(backend, SUFFIX, SearchScope.WHOLE_SUBTREE, "(&(sn=number0)(givenName=user))"),
                    norms("uid=user.0," + PEOPLE));
            assertEquals(search(backend, SUFFIX, SearchScope.WHOLE_SUBTREE, "(objectClass=inetOrgPerson)").size(),
                    count + 1);
            assertEquals(search(backend, SUFFIX, SearchScope.WHOLE_SUBTREE, "(uid=user." + (count + 1) + ")"),
                    norms("uid=user." + (count + 1) + "," + PEOPLE), "the add after the write-out");
            // the databases are transactional again: ordinary writes go on
            backend.addEntry(person(count, PEOPLE));
            assertEquals(search(backend, SUFFIX, SearchScope.WHOLE_SUBTREE, "(uid=user." + count + ")"),
                    norms("uid=user." + count + "," + PEOPLE));
        }
        assertEquals(StoreCheck.check(dir), count + 4);
    }

    @Test
    public void aSourceThatFailsPartWayLeavesTheStoredEntriesIndexed() throws BackendException {
        Iterator<Entry> good = people(JeBackend.IMPORT_BATCH + 500, n -> { });
        Iterator<Entry> failing = new Iterator<>() {
            @Override
            public boolean hasNext() {
                return true;
            }

            @Override
            public Entry next() {
                if (good.hasNext()) {
                    return good.next();
                }
                throw new IllegalStateException("the LDIF file went away");
            }
        };
        try (JeBackend bulk = JeBackend.open(TestSupport.config(dir, TestSupport.SERVER_INDEXES),
                TestSupport.SCHEMA, true)) {
            expectThrows(IllegalStateException.class, () -> bulk.importEntries(failing));
        }
        assertFalse(Files.exists(dir.resolve(JeStorage.LOAD_MARKER)), "nothing half-written: it opens");
        assertEquals(StoreCheck.check(dir), JeBackend.IMPORT_BATCH, "the batch the source failed in was not stored");
    }

    @Test
    public void aRefusalStopsABulkLoadWithWhatWasStoredBeforeItKeptAndIndexed() throws BackendException {
        List<Entry> entries = new ArrayList<>();
        people(JeBackend.IMPORT_BATCH + 10, n -> { }).forEachRemaining(entries::add);
        entries.add(person(3, PEOPLE)); // a duplicate in the second batch, after 12 of its entries
        entries.add(person(99_999, PEOPLE));
        try (JeBackend bulk = JeBackend.open(TestSupport.config(dir, TestSupport.SERVER_INDEXES),
                TestSupport.SCHEMA, true)) {
            BackendException e = expectThrows(BackendException.class, () -> bulk.importEntries(entries.iterator()));
            assertEquals(e.getMessage(), "Import stopped after " + (JeBackend.IMPORT_BATCH + 12)
                    + " entries (those were kept): The entry uid=user.3,ou=People,dc=example,dc=com already exists");
        }
        assertEquals(StoreCheck.check(dir), JeBackend.IMPORT_BATCH + 12);
    }

    @Test
    public void aBulkLoadKilledBeforeItsCloseIsRefusedUntilAClearedImportFinishes() throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process child = new ProcessBuilder(java, "-Xmx256m", "-cp", System.getProperty("java.class.path"),
                JeBackendBulkLoadTest.class.getName(), dir.toString())
                .redirectError(new File(root.toFile(), "child.err"))
                .start();
        int stored = 0;
        try (BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(),
                StandardCharsets.UTF_8))) {
            String line;
            while (stored < 5_000 && (line = out.readLine()) != null) {
                if (line.startsWith("STORED ")) {
                    stored = Integer.parseInt(line.substring(7));
                }
            }
            child.destroyForcibly(); // SIGKILL, mid-load: nothing written out
            assertTrue(child.waitFor(30, TimeUnit.SECONDS));
        } finally {
            child.destroyForcibly();
        }
        assertEquals(stored, 5_000, "the child did not get going; see " + root.resolve("child.err"));

        BackendException refused = expectThrows(BackendException.class, () -> TestSupport.open(dir).close());
        assertEquals(refused.resultCode(), ResultCode.UNAVAILABLE);
        assertTrue(refused.getMessage().contains("stopped before it finished"), refused.getMessage());
        // still refused the second time: refusing changes nothing
        expectThrows(BackendException.class, () -> TestSupport.open(dir).close());

        try (JeBackend bulk = JeBackend.open(TestSupport.config(dir, TestSupport.SERVER_INDEXES),
                TestSupport.SCHEMA, true)) {
            assertEquals(bulk.importEntries(people(100, n -> { })), 102);
        }
        assertEquals(StoreCheck.check(dir), 102);
        try (JeBackend backend = TestSupport.open(dir)) {
            assertEquals(search(backend, SUFFIX, SearchScope.WHOLE_SUBTREE, "(uid=user.99)"),
                    norms("uid=user.99," + PEOPLE));
        }
    }
}
