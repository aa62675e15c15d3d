package io.bindfirst.backend.je;

import static io.bindfirst.backend.je.TestSupport.PEOPLE;
import static io.bindfirst.backend.je.TestSupport.person;
import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertFalse;
import static org.testng.Assert.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;

import org.forgerock.opendj.ldap.ByteString;
import org.testng.annotations.AfterMethod;
import org.testng.annotations.BeforeMethod;
import org.testng.annotations.Test;


import io.bindfirst.server.backend.BackendException;

/**
 * The bulk load's index records: held, spilled to sorted run files, merged and written once per index. Each
 * index must end up holding exactly the records added, whatever the order they came in and however many runs
 * they were spread over.
 */
public class SortedIndexRunsTest {
    private Path dir;
    private OpenIndexes open;
    private JeStorage storage;
    private Indexes indexes;

    @BeforeMethod
    public void open() throws BackendException {
        dir = TestSupport.tempDir();
        open = OpenIndexes.open(dir, true);
        storage = open.storage();
        indexes = open.indexes();
    }

    @AfterMethod(alwaysRun = true)
    public void close() {
        open.close();
        TestSupport.delete(dir);
    }

    @Test
    public void recordsSpreadOverManyRunsAreWrittenEachIndexInFullAndInOrder() throws Exception {
        SortedIndexRuns runs = new SortedIndexRuns(indexes, dir, 2_000, IndexQuery.ENTRY_LIMIT);
        IndexRecords.Added added = IndexRecords.addPeople(indexes, runs, 3_000, 7);
        List<TreeSet<String>> expected = added.expected();
        int spills = added.spills();
        // a key past the short length form, in a run file and in what is still held
        byte[] longKey = new byte[70_000];
        Arrays.fill(longKey, (byte) 'x');
        runs.add(keyForEachIndex(ByteString.wrap(longKey)), 90_001);
        runs.spill();
        spills++;
        runs.add(keyForEachIndex(ByteString.wrap(longKey)), 90_000);
        for (TreeSet<String> records : expected) {
            records.add(IndexRecords.record(longKey, Ids.entry(90_001).getData()));
            records.add(IndexRecords.record(longKey, Ids.entry(90_000).getData()));
        }
        assertTrue(spills > 10, "spread over many runs: " + spills);
        assertEquals(fileCount(), spills * indexes.names().size(), "one run file per index per spill");

        storage.write(txn -> {
            runs.writeAll(txn);
            return null;
        });

        for (int x = 0; x < expected.size(); x++) {
            assertEquals(stored(x), List.copyOf(expected.get(x)), indexes.names().get(x));
        }
        assertFalse(Files.exists(dir.resolve(SortedIndexRuns.FOLDER)), "the run files go once written");
    }

    @Test
    public void recordsThatNeverFilledARunAreWrittenWithoutFiles() throws Exception {
        SortedIndexRuns runs = new SortedIndexRuns(indexes, dir);
        List<Set<ByteString>> second = indexes.keys(person(2, PEOPLE));
        List<Set<ByteString>> first = indexes.keys(person(1, PEOPLE));
        runs.add(second, 2);
        runs.add(first, 1);
        assertFalse(runs.full());
        storage.write(txn -> {
            runs.writeAll(txn);
            return null;
        });
        assertFalse(Files.exists(dir.resolve(SortedIndexRuns.FOLDER)), "nothing spilled");
        for (int x = 0; x < first.size(); x++) {
            TreeSet<String> expected = new TreeSet<>();
            for (ByteString key : first.get(x)) {
                expected.add(IndexRecords.record(key.toByteArray(), Ids.entry(1).getData()));
            }
            for (ByteString key : second.get(x)) {
                expected.add(IndexRecords.record(key.toByteArray(), Ids.entry(2).getData()));
            }
            assertEquals(stored(x), List.copyOf(expected), indexes.names().get(x));
        }
    }

    @Test
    public void aKeyPastTheLimitIsHeldOnlyUntilItsMarkerIsCertainAndWrittenAsTheMarker() throws Exception {
        int limit = 50;
        SortedIndexRuns runs = new SortedIndexRuns(indexes, dir, 100, limit);
        ByteString hot = ByteString.valueOfUtf8("hot");
        List<TreeSet<String>> expected = new ArrayList<>();
        indexes.names().forEach(name -> expected.add(new TreeSet<>()));
        int people = 1_000;
        for (int id = 1; id <= people; id++) {
            ByteString unique = ByteString.valueOfUtf8("user." + id);
            runs.add(keysForEachIndex(Set.of(hot, unique)), id);
            for (TreeSet<String> records : expected) {
                records.add(IndexRecords.record(unique.toByteArray(), Ids.entry(id).getData()));
            }
        }
        for (TreeSet<String> records : expected) {
            records.add(IndexRecords.record(hot.toByteArray(), Ids.entry(Ids.OVER_LIMIT).getData()));
        }
        for (int x = 0; x < indexes.names().size(); x++) {
            assertEquals(runs.records(x), people + limit + 1, "the unique keys, and the hot one until one past the "
                    + "limit: " + indexes.names().get(x));
        }
        storage.write(txn -> {
            runs.writeAll(txn);
            return null;
        });
        for (int x = 0; x < expected.size(); x++) {
            assertEquals(stored(x), List.copyOf(expected.get(x)), indexes.names().get(x));
        }

        // what is added after a write is counted afresh
        for (int id = people + 1; id <= people + limit; id++) {
            runs.add(keysForEachIndex(Set.of(hot)), id);
        }
        assertEquals(runs.records(0), limit, "the hot key's records held again");
    }

    private List<Set<ByteString>> keysForEachIndex(Set<ByteString> keys) {
        List<Set<ByteString>> all = new ArrayList<>();
        indexes.names().forEach(name -> all.add(keys));
        return all;
    }

    private List<Set<ByteString>> keyForEachIndex(ByteString key) {
        List<Set<ByteString>> keys = new ArrayList<>();
        indexes.names().forEach(name -> keys.add(Set.of(key)));
        return keys;
    }

    private List<String> stored(int position) throws BackendException {
        return IndexRecords.stored(storage, indexes, position);
    }

    private long fileCount() throws Exception {
        try (Stream<Path> files = Files.list(dir.resolve(SortedIndexRuns.FOLDER))) {
            return files.count();
        }
    }
}
