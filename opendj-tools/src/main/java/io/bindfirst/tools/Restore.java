package io.bindfirst.tools;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

import io.bindfirst.server.backend.BackendConfig;
import io.bindfirst.server.backend.BackendException;
import io.bindfirst.server.backend.BackupManifest;
import io.bindfirst.server.config.ServerConfig;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code bin/restore}: puts a backup made by bin/backup in place of a stopped server's backend. Nothing is
 * changed until every file of the backup matches its manifest; the database it replaces is moved aside, not
 * deleted; the restored one must open, or the old one is put back.
 */
@Command(name = "restore", mixinStandardHelpOptions = true, versionProvider = ToolVersion.class,
        sortOptions = false, usageHelpAutoWidth = true,
        description = {
            "Restores a backend of a stopped server from a backup directory made by backup. Every file is first "
                    + "checked against the backup's manifest (size and SHA-256): a missing or damaged file "
                    + "stops the restore before anything changes. The backend's database directory is then "
                    + "moved aside to <directory>.before-restore-<time> (kept, not deleted) and replaced by the "
                    + "backup's files, which must open.",
            "It refuses to run while the server (or another tool) has the backend open: stop the server first."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {
            "0:the backend was restored and opens",
            "1:the restore was refused or failed (the message says what is where)",
            "2:the command line is wrong"})
public final class Restore implements Callable<Integer> {
    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss", Locale.ROOT);

    @Option(names = {"-d", "--backupDirectory"}, paramLabel = "DIR", required = true,
            description = "The backup to restore: a directory made by backup.")
    Path directory;

    @Mixin
    BackendOptions target;

    @Spec
    CommandSpec spec;

    public static void main(String[] args) {
        Tools.main(new Restore(), args);
    }

    @Override
    public Integer call() {
        return Tools.run(spec, (out, err) -> {
            run(out);
            return Tools.OK;
        });
    }

    private void run(PrintWriter out) throws ToolException {
        Path backup = directory.toAbsolutePath().normalize();
        if (!Files.isDirectory(backup)) {
            throw new ToolException((Files.exists(backup) ? backup + " is not a directory" : backup + " does not exist")
                    + ": give -d the directory bin/backup wrote");
        }
        ServerConfig config = OfflineBackend.loadConfig(target.config(), target.root());
        BackendConfig bc = OfflineBackend.backendConfig(config, target.config(), target.backendId);
        BackupManifest manifest = verified(backup);
        if (!manifest.backendId().equalsIgnoreCase(bc.id())) {
            throw new ToolException(backup + " is a backup of backend " + manifest.backendId() + ", not of "
                    + bc.id() + ": give -n " + manifest.backendId() + " to restore it there");
        }
        String current = currentState(bc);

        Path db = bc.directory().toAbsolutePath().normalize();
        String stamp = ZonedDateTime.now(ZoneOffset.UTC).format(STAMP);
        Path staging = db.resolveSibling(db.getFileName() + ".restoring-" + stamp);
        Path aside = db.resolveSibling(db.getFileName() + ".before-restore-" + stamp);
        copy(manifest, backup, staging);
        try {
            if (Files.exists(db)) {
                Files.move(db, aside);
            }
            Files.move(staging, db);
        } catch (IOException e) {
            throw new ToolException("Cannot put the restored files in place of " + db + ": " + e.getMessage()
                    + "; the restored copy is in " + staging + (Files.exists(aside) ? " and the old database in "
                    + aside : ""), e);
        }
        long entries = opens(bc, db, aside, stamp);
        out.println(String.format(Locale.ROOT, "Restored backend %s from %s (made %s, %d files, %,d bytes): it "
                + "opens with %,d entries.", bc.id(), backup, manifest.created(), manifest.files().size(),
                manifest.bytes(), entries));
        out.println(Files.exists(aside) ? "The database it replaced (" + current + ") is in " + aside
                + ": delete it once the restored data is what you want." : "There was no database before.");
    }

    /** The backup's manifest, once every file matches it. */
    private static BackupManifest verified(Path backup) throws ToolException {
        BackupManifest manifest;
        try {
            manifest = BackupManifest.read(backup);
        } catch (BackendException e) {
            throw new ToolException(e.getMessage(), e);
        }
        List<String> problems = manifest.problems(backup);
        if (!problems.isEmpty()) {
            throw new ToolException("The backup in " + backup + " is damaged, nothing was changed: "
                    + String.join("; ", problems));
        }
        return manifest;
    }

    /**
     * Refuses while another process has the backend open. A database that does not open is no reason to
     * refuse: that may be why it is being restored.
     */
    private String currentState(BackendConfig bc) throws ToolException {
        try (OfflineBackend opened = OfflineBackend.open(target.config(), target.root(), bc.id(), false, 0)) {
            return String.format(Locale.ROOT, "%,d entries", opened.backend().maintenance().entryCount());
        } catch (ToolException e) {
            if (OfflineBackend.inUse(e)) {
                throw new ToolException(e.getMessage() + "; restore works on a stopped server only", e);
            }
            return "it did not open: " + e.getMessage();
        } catch (BackendException e) {
            return "it could not be read: " + e.getMessage();
        }
    }

    /** Copies the backup's files into {@code staging} and checks the copies against the manifest too. */
    private static void copy(BackupManifest manifest, Path backup, Path staging) throws ToolException {
        try {
            Files.createDirectories(staging);
            for (BackupManifest.FileSum f : manifest.files()) {
                Files.copy(backup.resolve(f.name()), staging.resolve(f.name()));
            }
        } catch (IOException e) {
            throw new ToolException("Cannot copy the backup into " + staging + ": " + Tools.why(e, staging)
                    + "; nothing else was changed", e);
        }
        List<String> problems = manifest.problems(staging);
        if (!problems.isEmpty()) {
            throw new ToolException("The copy in " + staging + " does not match the manifest, nothing else was "
                    + "changed: " + String.join("; ", problems));
        }
    }

    /** The restored backend's entry count once it opens; otherwise the old database is put back. */
    private long opens(BackendConfig bc, Path db, Path aside, String stamp) throws ToolException {
        try (OfflineBackend opened = OfflineBackend.open(target.config(), target.root(), bc.id(), false, 0)) {
            return opened.backend().maintenance().entryCount();
        } catch (ToolException | BackendException e) {
            Path failed = db.resolveSibling(db.getFileName() + ".failed-restore-" + stamp);
            try {
                Files.move(db, failed);
                if (Files.exists(aside)) {
                    Files.move(aside, db);
                }
            } catch (IOException io) {
                throw new ToolException("The restored database does not open (" + e.getMessage() + ") and the "
                        + "old one could not be put back (" + io.getMessage() + "): it is in " + aside, e);
            }
            throw new ToolException("The restored database does not open (" + e.getMessage() + "): the old one "
                    + "is back in " + db + ", the restored files are in " + failed, e);
        }
    }
}
