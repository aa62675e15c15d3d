package io.bindfirst.tools;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;

import org.forgerock.opendj.ldap.DN;
import org.forgerock.opendj.ldap.Filter;
import org.forgerock.opendj.ldap.SearchScope;
import org.forgerock.opendj.ldif.LDIFEntryWriter;

import io.bindfirst.server.backend.Backend;
import io.bindfirst.server.backend.BackendException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code bin/export-ldif}: writes every entry of a backend to an LDIF file while the server is stopped. */
@Command(name = "export-ldif", mixinStandardHelpOptions = true, versionProvider = ToolVersion.class,
        sortOptions = false, usageHelpAutoWidth = true,
        description = {
            "Exports every entry of a backend of a stopped server to an LDIF file, parents before children, "
                    + "with the operational attributes the backend stores (entryUUID, timestamps, password "
                    + "state) and passwords as stored (hashed), so that import-ldif of the file gives the "
                    + "same data back.",
            "It refuses to run while the server (or another tool) has the backend open: stop the server first."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {
            "0:every entry was exported",
            "1:the export failed (the file is removed)",
            "2:the command line is wrong"})
public final class ExportLdif implements Callable<Integer> {
    @Option(names = {"-l", "--ldifFile"}, paramLabel = "FILE", required = true,
            description = "The LDIF file to write (replaced if it exists).")
    Path ldifFile;

    @Mixin
    BackendOptions target;

    @Spec
    CommandSpec spec;

    public static void main(String[] args) {
        Tools.main(new ExportLdif(), args);
    }

    @Override
    public Integer call() {
        return Tools.run(spec, (out, err) -> run(out));
    }

    private int run(PrintWriter out) throws ToolException {
        try (OfflineBackend opened = OfflineBackend.open(target.config(), target.root(), target.backendId,
                false, 0)) {
            Backend backend = opened.backend();
            long exported = 0;
            Progress progress;
            boolean done = false;
            try (OutputStream file = new BufferedOutputStream(Files.newOutputStream(ldifFile), 1 << 16);
                 LDIFEntryWriter writer = new LDIFEntryWriter(file)) {
                progress = new Progress(out, System.console() != null, backend.maintenance().entryCount(),
                        System::nanoTime);
                long[] count = {0};
                for (DN base : backend.baseDNs()) {
                    if (!backend.entryExists(base)) {
                        continue;
                    }
                    // A subtree walk in key order: an entry's key comes right before its subtree's.
                    backend.search(base, SearchScope.WHOLE_SUBTREE, Filter.alwaysTrue(), entry -> {
                        try {
                            writer.writeEntry(entry);
                        } catch (IOException e) {
                            throw new java.io.UncheckedIOException(e);
                        }
                        count[0]++;
                        progress.update(count[0], count[0]);
                        return true;
                    });
                }
                exported = count[0];
                done = true;
            } catch (IOException e) {
                throw new ToolException("Cannot write " + ldifFile + ": " + Tools.why(e, ldifFile), e);
            } catch (java.io.UncheckedIOException e) {
                throw new ToolException("Cannot write " + ldifFile + ": " + Tools.why(e.getCause(), ldifFile), e);
            } catch (BackendException e) {
                throw new ToolException(e.getMessage(), e);
            } finally {
                if (!done) {
                    deletePartial();
                }
            }
            progress.finish();
            out.println(String.format(Locale.ROOT, "Exported %,d entries of backend %s to %s in %.1f s "
                    + "(%,.0f entries/s)", exported, opened.backendConfig().id(), ldifFile, progress.seconds(),
                    progress.seconds() > 0 ? exported / progress.seconds() : 0));
            return Tools.OK;
        }
    }

    private void deletePartial() {
        try {
            Files.deleteIfExists(ldifFile);
        } catch (IOException ignored) {
            // the error that got us here is the one worth reporting
        }
    }
}
