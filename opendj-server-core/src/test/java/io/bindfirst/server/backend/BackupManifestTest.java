package io.bindfirst.server.backend;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertTrue;
import static org.testng.Assert.expectThrows;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

import org.testng.annotations.AfterMethod;
import org.testng.annotations.BeforeMethod;
import org.testng.annotations.Test;

/** The manifest written after a backup's files, read back, and every difference it finds named by file. */
public class BackupManifestTest {
    private Path dir;

    @BeforeMethod
    public void create() throws IOException {
        dir = Files.createTempDirectory("bindfirst-manifest-");
    }

    @AfterMethod(alwaysRun = true)
    public void delete() throws IOException {
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }

    private BackupManifest twoFiles() throws Exception {
        Files.writeString(dir.resolve("00000000.jdb"), "first");
        Files.writeString(dir.resolve("00000001.jdb"), "second file");
        return BackupManifest.write(dir, "userRoot", List.of("00000000.jdb", "00000001.jdb"));
    }

    @Test
    public void whatIsWrittenIsReadBackAndMatches() throws Exception {
        BackupManifest written = twoFiles();
        BackupManifest read = BackupManifest.read(dir);
        assertEquals(read, written);
        assertEquals(read.files().get(0), new BackupManifest.FileSum("00000000.jdb", 5,
                "a7937b64b8caa58f03721bb6bacf5c78cb235febe0e70b1b84cd99541461a08e"), "SHA-256 of \"first\"");
        assertEquals(read.bytes(), 16);
        assertEquals(read.problems(dir), List.of());
    }

    @Test
    public void eachDifferenceNamesItsFile() throws Exception {
        BackupManifest m = twoFiles();
        Files.writeString(dir.resolve("00000000.jdb"), "firsT");
        Files.delete(dir.resolve("00000001.jdb"));
        Files.writeString(dir.resolve("00000002.jdb"), "extra");
        assertEquals(m.problems(dir), List.of(
                "00000000.jdb does not have the SHA-256 the manifest gives (changed or damaged)",
                "00000001.jdb is missing", "00000002.jdb is not in the manifest"));
        Files.writeString(dir.resolve("00000000.jdb"), "longer than it was");
        assertTrue(m.problems(dir).get(0).startsWith("00000000.jdb is 18 bytes, the manifest says 5"));
    }

    @Test
    public void aManifestNamingAFileOutsideItsDirectoryIsRefused() throws Exception {
        Files.writeString(dir.resolve(BackupManifest.NAME), "backend-id: userRoot\ncreated: 2026-11-24T07:00:00Z\n"
                + "file: ../../etc/passwd 1 00\n");
        BackendException e = expectThrows(BackendException.class, () -> BackupManifest.read(dir));
        assertTrue(e.getMessage().contains("is not a backup manifest"), e.getMessage());
    }

    @Test
    public void aTargetMustBeAbsoluteAndEmpty() throws Exception {
        BackupManifest.prepareTarget(dir.resolve("new/deeper"));
        assertTrue(Files.isDirectory(dir.resolve("new/deeper")));
        Files.writeString(dir.resolve("x"), "");
        BackendException e = expectThrows(BackendException.class, () -> BackupManifest.prepareTarget(dir));
        assertTrue(e.getMessage().contains("is not empty"), e.getMessage());
        expectThrows(BackendException.class, () -> BackupManifest.prepareTarget(Path.of("relative")));
        expectThrows(BackendException.class, () -> BackupManifest.read(dir.resolve("new")));
    }
}
