package io.bindfirst.backend.je;

import static io.bindfirst.backend.je.TestSupport.PEOPLE;
import static io.bindfirst.backend.je.TestSupport.person;
import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertFalse;
import static org.testng.Assert.assertTrue;
import static org.testng.Assert.expectThrows;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;

import org.forgerock.opendj.ldap.ByteString;
import org.testng.annotations.AfterMethod;
import org.testng.annotations.BeforeMethod;
import org.testng.annotations.Test;

import com.sleepycat.je.Database;
import com.sleepycat.je.DatabaseEntry;
import com.sleepycat.je.OperationStatus;

import io.bindfirst.server.backend.BackendConfig;
import io.bindfirst.server.backend.BackendException;

/**
 * The end of a bulk load written side by side: every index holds exactly its records whatever thread wrote it, the
 * data survive the close and an ordinary open, and a task that fails fails the load without cutting the others short.
 */
public class BulkWriteOutTest {
    private static final int PEOPLE_COUNT = 3_000;

    private Path dir;
    private JeStorage storage;
    private Database meta;
    private Database id2entry;
    private Indexes indexes;

    @BeforeMethod
    public void open() throws BackendException {
        dir = TestSupport.tempDir();
        openStorage(true);
    }

    private void openStorage(boolean bulk) throws BackendException {
        storage = new JeStorage("userRoot", dir, 0, bulk, BackendConfig.DEFAULT_FREE_DISK_BYTES);
        meta = storage.openDatabase("meta", false);
        id2entry = storage.openDatabase(Entries.ID2ENTRY, false);
        indexes = Indexes.open(storage, meta, id2entry, new EntryCodec(TestSupport.SCHEMA),
                TestSupport.SERVER_INDEXES, TestSupport.SCHEMA);
    }

    @AfterMethod(alwaysRun = true)
    public void close() {
        storage.close();
        TestSupport.delete(dir);
    }

    @Test
    public void indexesWrittenOnSeveralThreadsHoldTheirRecordsAfterAnOrdinaryOpen() throws Exception {
        SortedIndexRuns runs = new SortedIndexRuns(indexes, dir, 2_000, IndexQuery.ENTRY_LIMIT);
        List<TreeSet<String>> expected = addPeople(runs);
        storage.write(txn -> id2entry.put(txn, Ids.entry(1), new DatabaseEntry(new byte[] {42})));

        new BulkWriteOut(storage, indexes, List.of(meta, id2entry), 4).run(runs);
        storage.writeOutBulkLoad();
        assertFalse(Files.exists(dir.resolve(SortedIndexRuns.FOLDER)), "the run files go once written");
        storage.close();

        openStorage(false); // refused if the load had not been written out in full
        for (int x = 0; x < expected.size(); x++) {
            assertEquals(IndexRecords.stored(storage, indexes, x), List.copyOf(expected.get(x)),
                    indexes.names().get(x));
        }
        DatabaseEntry data = new DatabaseEntry();
        assertEquals(storage.read(() -> id2entry.get(null, Ids.entry(1), data, null)), OperationStatus.SUCCESS);
        assertEquals(data.getData(), new byte[] {42});
    }

    @Test
    public void anIndexThatCannotBeWrittenFailsTheLoadOnceTheOthersAreWritten() throws Exception {
        SortedIndexRuns runs = new SortedIndexRuns(indexes, dir, 2_000, IndexQuery.ENTRY_LIMIT);
        List<TreeSet<String>> expected = addPeople(runs);
        int broken = indexes.names().indexOf("eq.uid");
        Files.delete(dir.resolve(SortedIndexRuns.FOLDER).resolve("run-0-index-" + broken));

        BackendException e = expectThrows(BackendException.class,
                () -> new BulkWriteOut(storage, indexes, List.of(meta, id2entry), 2).run(runs));
        assertTrue(e.getMessage().contains("cannot read its index records back"), e.getMessage());
        assertTrue(storage.damaged(), "a load with an index missing records must not open");
        for (int x = 0; x < expected.size(); x++) {
            if (x != broken) {
                assertEquals(IndexRecords.stored(storage, indexes, x), List.copyOf(expected.get(x)),
                        indexes.names().get(x));
            }
        }
    }

    /** Adds the index records of people in no order, spilling runs as they fill; what each index must then hold. */
    private List<TreeSet<String>> addPeople(SortedIndexRuns runs) throws BackendException {
        List<Integer> order = new ArrayList<>();
        for (int i = 0; i < PEOPLE_COUNT; i++) {
            order.add(i);
        }
        Collections.shuffle(order, new Random(11));
        List<TreeSet<String>> expected = new ArrayList<>();
        indexes.names().forEach(name -> expected.add(new TreeSet<>()));
        for (int i : order) {
            long id = i + 1;
            List<Set<ByteString>> keys = indexes.keys(person(i, PEOPLE));
            runs.add(keys, id);
            for (int x = 0; x < keys.size(); x++) {
                for (ByteString key : keys.get(x)) {
                    expected.get(x).add(IndexRecords.record(key.toByteArray(), Ids.entry(id).getData()));
                }
            }
            if (runs.full()) {
                runs.spill();
            }
        }
        assertTrue(Files.exists(dir.resolve(SortedIndexRuns.FOLDER)), "some records spilled");
        return expected;
    }
}
