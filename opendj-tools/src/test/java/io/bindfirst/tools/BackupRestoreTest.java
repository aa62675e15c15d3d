package io.bindfirst.tools;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertFalse;
import static org.testng.Assert.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import org.testng.annotations.AfterMethod;
import org.testng.annotations.BeforeMethod;
import org.testng.annotations.Test;

import io.bindfirst.server.backend.BackupManifest;

/**
 * backup (offline: nothing listens on the port given) and restore on real JE backends in temp instances: the
 * round trip, and every refusal with the file it names and nothing changed.
 */
public class BackupRestoreTest {
    /** A port nothing listens on, so that backup works offline. */
    private static final String NO_SERVER = "1";
    private Instance instance;
    private Path backup;

    @BeforeMethod
    public void create() throws IOException {
        instance = Instance.create();
        backup = instance.file("backup");
        List<String> lines = ImportLdifTest.people();
        for (int i = 0; i < 50; i++) {
            lines.addAll(ImportLdifTest.person("user." + i, "pw-" + i));
        }
        Path ldif = instance.write("people.ldif", lines.toArray(String[]::new));
        ToolRun imported = ToolRun.importLdif(instance.args("-l", ldif.toString()));
        assertEquals(imported.exitCode(), 0, imported.said());
    }

    @AfterMethod(alwaysRun = true)
    public void delete() {
        instance.close();
    }

    private ToolRun backUp() {
        return ToolRun.backup(instance.args("-d", backup.toString(), "-p", NO_SERVER));
    }

    private String export(String name) throws IOException {
        Path out = instance.file(name);
        ToolRun r = ToolRun.exportLdif(instance.args("-l", out.toString()));
        assertEquals(r.exitCode(), 0, r.said());
        return Files.readString(out);
    }

    private List<Path> besideTheDatabase() throws IOException {
        try (Stream<Path> s = Files.list(instance.file("db"))) {
            return s.filter(p -> !p.getFileName().toString().equals("userRoot")).toList();
        }
    }

    private Path firstLogFile() throws IOException {
        try (Stream<Path> s = Files.list(backup)) {
            return s.filter(p -> p.toString().endsWith(".jdb")).sorted().findFirst().orElseThrow();
        }
    }

    @Test
    public void aRestoreGivesBackTheBackedUpData() throws Exception {
        String original = export("original.ldif");
        ToolRun b = backUp();
        assertEquals(b.exitCode(), 0, b.said());
        assertTrue(b.out().startsWith("Backed up backend userRoot to " + backup + ": "), b.said());
        assertTrue(b.out().contains("(offline)"), b.said());
        BackupManifest m = BackupManifest.read(backup);
        assertEquals(m.backendId(), "userRoot");
        assertEquals(m.problems(backup), List.of());

        Path other = instance.write("other.ldif", ImportLdifTest.people().toArray(String[]::new));
        assertEquals(ToolRun.importLdif(instance.args("-l", other.toString(), "--clearBackend")).exitCode(), 0);
        String changed = export("changed.ldif");
        assertFalse(changed.equals(original));

        ToolRun r = ToolRun.restore(instance.args("-d", backup.toString()));
        assertEquals(r.exitCode(), 0, r.said());
        assertTrue(r.out().contains("it opens with 52 entries"), r.said());
        List<Path> aside = besideTheDatabase();
        assertEquals(aside.size(), 1, aside.toString());
        assertTrue(aside.get(0).getFileName().toString().startsWith("userRoot.before-restore-"), aside.toString());
        assertTrue(r.out().contains("The database it replaced (2 entries) is in " + aside.get(0)), r.said());
        assertEquals(export("restored.ldif"), original);
    }

    @Test
    public void aDamagedOrMissingFileIsRefusedAndNothingChanges() throws Exception {
        assertEquals(backUp().exitCode(), 0);
        Path file = firstLogFile();
        byte[] bytes = Files.readAllBytes(file);
        bytes[bytes.length - 1] ^= 0x40;
        Files.write(file, bytes);
        ToolRun damaged = ToolRun.restore(instance.args("-d", backup.toString()));
        assertEquals(damaged.exitCode(), 1, damaged.said());
        assertEquals(damaged.err().strip(), "restore: The backup in " + backup + " is damaged, nothing was changed: "
                + file.getFileName() + " does not have the SHA-256 the manifest gives (changed or damaged)");
        assertEquals(besideTheDatabase(), List.of());

        Files.delete(file);
        ToolRun missing = ToolRun.restore(instance.args("-d", backup.toString()));
        assertEquals(missing.exitCode(), 1, missing.said());
        assertTrue(missing.err().contains(file.getFileName() + " is missing"), missing.said());
        assertEquals(besideTheDatabase(), List.of());

        Files.delete(backup.resolve(BackupManifest.NAME));
        ToolRun none = ToolRun.restore(instance.args("-d", backup.toString()));
        assertEquals(none.exitCode(), 1, none.said());
        assertTrue(none.err().contains(backup + " holds no backup: it has no " + BackupManifest.NAME), none.said());
        assertEquals(besideTheDatabase(), List.of());
    }

    @Test
    public void aBackupNeedsAnEmptyDirectory() throws Exception {
        Files.createDirectories(backup);
        Files.writeString(backup.resolve("notes.txt"), "keep me");
        ToolRun b = backUp();
        assertEquals(b.exitCode(), 1, b.said());
        assertEquals(b.err().strip(), "backup: The backup directory " + backup + " is not empty: give a new or "
                + "empty directory (an older backup is never overwritten)");
        assertEquals(Files.readString(backup.resolve("notes.txt")), "keep me");
        try (Stream<Path> s = Files.list(backup)) {
            assertEquals(s.count(), 1L, "nothing added");
        }
    }

    @Test
    public void usageErrorsAndHelp() {
        assertEquals(ToolRun.backup(instance.args()).exitCode(), 2, "no -d");
        assertEquals(ToolRun.restore(instance.args()).exitCode(), 2, "no -d");
        ToolRun both = ToolRun.backup(instance.args("-d", backup.toString(), "-w", "a", "-j", "b"));
        assertEquals(both.exitCode(), 2, both.said());
        ToolRun help = ToolRun.restore("--help");
        assertEquals(help.exitCode(), 0, help.said());
        assertTrue(help.out().contains("before-restore"), help.out());
    }
}
