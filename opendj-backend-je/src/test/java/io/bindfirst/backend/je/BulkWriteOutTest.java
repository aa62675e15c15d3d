package io.bindfirst.backend.je;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertFalse;
import static org.testng.Assert.assertTrue;
import static org.testng.Assert.expectThrows;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.TreeSet;

import org.testng.annotations.AfterMethod;
import org.testng.annotations.BeforeMethod;
import org.testng.annotations.Test;

import com.sleepycat.je.Database;
import com.sleepycat.je.DatabaseEntry;
import com.sleepycat.je.OperationStatus;

import io.bindfirst.server.backend.BackendException;

/**
 * The end of a bulk load written side by side: every index holds exactly its records whatever thread wrote it, the
 * data survive the close and an ordinary open, and a task that fails fails the load without cutting the others short.
 */
public class BulkWriteOutTest {
    private static final int PEOPLE_COUNT = 3_000;

    private Path dir;
    private OpenIndexes open;
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
        open = OpenIndexes.open(dir, bulk);
        storage = open.storage();
        meta = open.meta();
        id2entry = open.id2entry();
        indexes = open.indexes();
    }

    @AfterMethod(alwaysRun = true)
    public void close() {
        open.close();
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
        open.close();

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

    /** Adds the records of people, some spilled; what each index must then hold. */
    private List<TreeSet<String>> addPeople(SortedIndexRuns runs) throws BackendException {
        IndexRecords.Added added = IndexRecords.addPeople(indexes, runs, PEOPLE_COUNT, 11);
        assertTrue(added.spills() > 0, "some records spilled");
        return added.expected();
    }
}
