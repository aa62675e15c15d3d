package io.bindfirst.tools;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;

import io.bindfirst.server.backend.BackendException;
import io.bindfirst.server.config.ServerConfig;
import io.bindfirst.server.pwd.PasswordSchemes;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code bin/import-ldif}: loads an LDIF file into a backend while the server is stopped (OpenDJ's options). */
@Command(name = "import-ldif", mixinStandardHelpOptions = true, versionProvider = ToolVersion.class,
        sortOptions = false, usageHelpAutoWidth = true,
        description = {
            "Imports the entries of an LDIF file into a backend of a stopped server, parents before children, "
                    + "checking each against the server's schema and building the backend's indexes. Clear-text "
                    + "userPassword values are hashed with the configured default scheme; {SCHEME} values are "
                    + "kept. Entries already in the backend stay (an entry whose DN is taken is rejected) "
                    + "unless --clearBackend is given.",
            "A record that is malformed or breaks the schema, or whose parent is missing, is rejected with its "
                    + "line number and the reason; the rest is imported.",
            "It refuses to run while the server (or another tool) has the backend open: stop the server first."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {
            "0:every record was imported",
            "1:some records were rejected (the rest was imported), or the import failed",
            "2:the command line is wrong"})
public final class ImportLdif implements Callable<Integer> {
    @Option(names = {"-l", "--ldifFile"}, paramLabel = "FILE", required = true,
            description = "The LDIF file to import (a pipe too: -l /dev/stdin).")
    Path ldifFile;

    @Mixin
    BackendOptions target;

    @Option(names = {"-R", "--rejectFile"}, paramLabel = "FILE",
            description = "Write rejected records here, each under a comment with its line and the reason.")
    Path rejectFile;

    @Option(names = {"-O", "--overwrite"},
            description = "Replace the reject file rather than append to it.")
    boolean overwrite;

    @Option(names = "--clearBackend",
            description = "Remove every entry of the backend (all its base DNs) before importing. The import is "
                    + "then a bulk load, several times faster, written out at the end: stopped before the end, it "
                    + "leaves a backend that the server and the tools refuse until an import with --clearBackend "
                    + "runs to the end.")
    boolean clearBackend;

    @Spec
    CommandSpec spec;

    public static void main(String[] args) {
        Tools.main(new ImportLdif(), args);
    }

    @Override
    public Integer call() {
        return Tools.run(spec, this::run);
    }

    private int run(PrintWriter out, PrintWriter err) throws ToolException {
        if (Files.isDirectory(ldifFile) || !Files.isReadable(ldifFile)) {
            throw new ToolException("The LDIF file " + ldifFile + " does not exist or cannot be read");
        }
        long size = 0; // a pipe's (-l /dev/stdin) is unknown: progress then shows no percentage
        try {
            if (Files.isRegularFile(ldifFile)) {
                size = Files.size(ldifFile);
            }
        } catch (IOException e) {
            throw new ToolException("Cannot read " + ldifFile + ": " + Tools.why(e, ldifFile), e);
        }
        try (OfflineBackend opened = OfflineBackend.open(target.config(), target.root(), target.backendId,
                clearBackend, importCacheBytes())) {
            ImportChecks checks = new ImportChecks(opened.schema(), schemes(opened.config()));
            try (InputStream in = Files.newInputStream(ldifFile);
                 LdifRecords records = new LdifRecords(in);
                 Rejections rejections = Rejections.open(rejectFile, overwrite, err)) {
                Progress progress = new Progress(out, System.console() != null, size, System::nanoTime);
                LdifImport.Outcome o = new LdifImport(opened.backend(), checks, rejections, progress)
                        .run(records, checkThreads());
                out.println(String.format(Locale.ROOT, "Imported %,d entries into backend %s and rejected %,d in "
                        + "%.1f s (%,.0f entries/s)", o.imported(), opened.backendConfig().id(), o.rejected(),
                        o.seconds(), o.rate()));
                if (o.rejected() > 0 && rejectFile != null) {
                    out.println("The rejected records are in " + rejectFile);
                }
                return o.rejected() > 0 ? Tools.FAILED : Tools.OK;
            } catch (IOException e) {
                throw new ToolException("Cannot read " + ldifFile + " or write the reject file: " + e.getMessage()
                        + " (the entries imported until then stay)", e);
            } catch (BackendException e) {
                throw new ToolException(e.getMessage(), e);
            }
        }
    }

    /**
     * The storage's cache for the import, not the server's setting: an import touches every index page, and
     * pages that stay in the cache are not read back from the log. Half the tool's heap, at most 1 GiB:
     * 1,000,000 users took 49 s with 1 GiB, 66 s with the shipped 64 MiB and 69 s with 2.9 GiB (more heap
     * for the collector to manage; one run each, on 2 cores shared with other builds). The tool's JVM exits
     * after the import.
     */
    private static long importCacheBytes() {
        return Math.min(Runtime.getRuntime().maxMemory() / 2, 1L << 30);
    }

    /** One thread stores; the others, at least one, parse and check. */
    private static int checkThreads() {
        return Math.max(1, Runtime.getRuntime().availableProcessors() - 1);
    }

    private static PasswordSchemes schemes(ServerConfig config) throws ToolException {
        try {
            return new PasswordSchemes(config.passwords().defaultScheme(), config.passwords().allowClearText());
        } catch (IllegalArgumentException e) {
            throw new ToolException("cn=Password Storage Schemes,cn=config: ds-cfg-default-password-storage-scheme: "
                    + e.getMessage(), e);
        }
    }
}
