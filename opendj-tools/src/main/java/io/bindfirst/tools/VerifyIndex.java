package io.bindfirst.tools;

import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

import io.bindfirst.server.backend.Backend;
import io.bindfirst.server.backend.BackendException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * {@code bin/verify-index}: checks a stopped server's backend against itself ({@link Backend#verify}) and lists
 * what disagrees; changes nothing.
 */
@Command(name = "verify-index", mixinStandardHelpOptions = true, versionProvider = ToolVersion.class,
        sortOptions = false, usageHelpAutoWidth = true,
        description = {
            "Checks a backend of a stopped server: every entry is reachable by its DN and from its parent, the "
                    + "DN index and the entries name each other once, and each index holds exactly the "
                    + "values the entries hold. Lists each problem found; changes nothing.",
            "It refuses to run while the server (or another tool) has the backend open: stop the server first."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {
            "0:the backend agrees with itself",
            "1:the check could not be made (the backend is in use, missing, or cannot check itself)",
            "2:the command line is wrong",
            "3:problems were found (listed on the standard output)"})
public final class VerifyIndex implements Callable<Integer> {
    /** The exit code when the check ran and found problems. */
    static final int PROBLEMS = 3;

    @Mixin
    BackendOptions target;

    @Spec
    CommandSpec spec;

    public static void main(String[] args) {
        Tools.main(new VerifyIndex(), args);
    }

    @Override
    public Integer call() {
        return Tools.run(spec, (out, err) -> run(out));
    }

    private int run(PrintWriter out) throws ToolException {
        try (OfflineBackend opened = OfflineBackend.open(target.config(), target.root(), target.backendId, false,
                0)) {
            Backend backend = opened.backend();
            long started = System.nanoTime();
            List<String> problems = backend.maintenance().verify();
            double seconds = (System.nanoTime() - started) / 1e9;
            String id = opened.backendConfig().id();
            if (problems.isEmpty()) {
                out.println(String.format(Locale.ROOT, "Backend %s: %,d entries, no problems found (%.1f s)", id,
                        backend.maintenance().entryCount(), seconds));
                return Tools.OK;
            }
            problems.forEach(out::println);
            out.println(String.format(Locale.ROOT, "Backend %s: %,d entries, problems found (%.1f s); "
                    + "export-ldif and import-ldif rebuild the backend from its entries", id,
                    backend.maintenance().entryCount(), seconds));
            return PROBLEMS;
        } catch (BackendException e) {
            throw new ToolException(e.getMessage(), e);
        }
    }
}
