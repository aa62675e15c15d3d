package io.bindfirst.backend.je;

import static org.testng.Assert.assertEquals;

import java.io.BufferedOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import org.forgerock.opendj.ldap.ByteString;
import org.testng.annotations.AfterMethod;
import org.testng.annotations.BeforeMethod;
import org.testng.annotations.Test;

import com.sleepycat.je.DatabaseEntry;

/**
 * The merge of sorted runs ({@link PackedRecords} sorted, some written to files, one still held): every record
 * once, in the index database's order (keys as unsigned bytes, shorter first on a common prefix, then ids), which
 * is what lets a bulk load fill each index's B-tree from one end to the other.
 */
public class IndexRunMergeTest {
    private Path dir;

    @BeforeMethod
    public void dir() {
        dir = TestSupport.tempDir();
    }

    @AfterMethod(alwaysRun = true)
    public void delete() {
        TestSupport.delete(dir);
    }

    @Test
    public void givesEveryRecordOfEveryRunInTheIndexOrder() throws IOException {
        Random random = new Random(11);
        List<String> expected = new ArrayList<>();
        List<PackedRecords> runs = new ArrayList<>();
        for (int r = 0; r < 4; r++) {
            PackedRecords run = new PackedRecords();
            for (int n = 0; n < 5_000; n++) {
                byte[] key = new byte[random.nextInt(6)]; // short keys: many equal, many prefixes of others
                for (int b = 0; b < key.length; b++) {
                    key[b] = (byte) (random.nextInt(3) == 0 ? 0xe9 : 'a' + random.nextInt(3)); // high bytes too
                }
                long id = 1 + random.nextInt(1 << 20) + ((long) r << 40); // ids unique across runs
                run.add(ByteString.wrap(key), id);
                expected.add(text(key, 0, key.length, id));
            }
            run.sort();
            runs.add(run);
        }
        List<Path> files = new ArrayList<>();
        for (int r = 0; r < 3; r++) {
            Path file = dir.resolve("run-" + r);
            try (DataOutputStream out = new DataOutputStream(new BufferedOutputStream(Files.newOutputStream(file)))) {
                runs.get(r).writeTo(out);
            }
            files.add(file);
        }

        List<String> merged = new ArrayList<>();
        try (IndexRunMerge merge = new IndexRunMerge(files, runs.get(3))) {
            DatabaseEntry key = new DatabaseEntry();
            byte[] id = new byte[8];
            while (merge.next(key, id)) {
                merged.add(text(key.getData(), key.getOffset(), key.getSize(), Ids.of(new DatabaseEntry(id))));
            }
        }
        expected.sort(null); // the text form sorts as the index does
        assertEquals(merged.size(), expected.size());
        assertEquals(merged, expected);
    }

    @Test
    public void aRunFileCutShortIsAnError() throws IOException {
        PackedRecords run = new PackedRecords();
        run.add(ByteString.valueOfUtf8("a"), 1);
        run.add(ByteString.valueOfUtf8("b"), 2);
        run.sort();
        Path file = dir.resolve("run");
        try (DataOutputStream out = new DataOutputStream(Files.newOutputStream(file))) {
            run.writeTo(out);
        }
        byte[] whole = Files.readAllBytes(file);
        Files.write(file, Arrays.copyOf(whole, whole.length - 3));
        IOException e = org.testng.Assert.expectThrows(IOException.class, () -> {
            try (IndexRunMerge merge = new IndexRunMerge(List.of(file), new PackedRecords())) {
                DatabaseEntry key = new DatabaseEntry();
                byte[] id = new byte[8];
                while (merge.next(key, id)) {
                    assertEquals(new String(key.getData(), key.getOffset(), key.getSize(), StandardCharsets.UTF_8),
                            "a");
                }
            }
        });
        assertEquals(e.getMessage(), "the run file " + file + " ends early");
    }

    @Test
    public void readsKeysLongerThanItsBufferAndRecordsAcrossItsEdges() throws IOException {
        // key lengths from a few bytes to several times the reader's 64 KiB, so records and keys straddle refills
        Random random = new Random(7);
        PackedRecords run = new PackedRecords();
        List<String> expected = new ArrayList<>();
        for (int n = 0; n < 60; n++) {
            byte[] key = new byte[n % 7 == 0 ? 70_000 + random.nextInt(150_000) : 1 + random.nextInt(5_000)];
            random.nextBytes(key);
            run.add(ByteString.wrap(key), n);
            expected.add(text(key, 0, key.length, n));
        }
        run.sort();
        Path file = dir.resolve("long-keys");
        try (DataOutputStream out = new DataOutputStream(new BufferedOutputStream(Files.newOutputStream(file)))) {
            run.writeTo(out);
        }
        List<String> merged = new ArrayList<>();
        try (IndexRunMerge merge = new IndexRunMerge(List.of(file), new PackedRecords())) {
            DatabaseEntry key = new DatabaseEntry();
            byte[] id = new byte[8];
            while (merge.next(key, id)) {
                merged.add(text(key.getData(), key.getOffset(), key.getSize(), java.nio.ByteBuffer.wrap(id).getLong()));
            }
        }
        expected.sort(null);
        assertEquals(merged, expected);
    }

    /** Hex of the key (unsigned bytes, so a prefix sorts first), then of the id: sorts as the index does. */
    private static String text(byte[] key, int offset, int length, long id) {
        StringBuilder out = new StringBuilder();
        for (int i = offset; i < offset + length; i++) {
            out.append(String.format("%02x", key[i] & 0xff));
        }
        return out.append('/').append(String.format("%016x", id)).toString();
    }
}
