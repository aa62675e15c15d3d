package io.bindfirst.tools;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Callable;

import org.forgerock.i18n.LocalizedIllegalArgumentException;
import org.forgerock.opendj.ldap.DN;

import io.bindfirst.server.backend.BackendConfig;
import io.bindfirst.server.backend.BackendException;
import io.bindfirst.server.config.ServerConfig;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code bin/rebuild-index}: builds the indexes of a backend again from its entries while the server is
 * stopped (OpenDJ's command and options).
 */
@Command(name = "rebuild-index", mixinStandardHelpOptions = true, versionProvider = ToolVersion.class,
        sortOptions = false, usageHelpAutoWidth = true,
        description = {
            "Rebuilds indexes of a backend of a stopped server from the entries it stores: each named "
                    + "attribute's indexes (every kind configured for it) are emptied, then every entry is indexed "
                    + "again. For an index that no longer answers searches right (a damaged database, a copy from "
                    + "elsewhere). An index added to the configuration is built by the server when it starts; this "
                    + "is not needed for it.",
            "The backend is the one holding the base DN given with -b, or the one named with -n (default userRoot). "
                    + "Only indexes configured for it (ds-cfg-equality-index, -presence-index, -substring-index, "
                    + "-ordering-index in config.ldif) can be rebuilt.",
            "It refuses to run while the server (or another tool) has the backend open: stop the server first. "
                    + "A rebuild that is interrupted is done again by the server when it next opens the backend."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {
            "0:the indexes were rebuilt",
            "1:the rebuild failed, or an index or base DN is not the backend's",
            "2:the command line is wrong"})
public final class RebuildIndex implements Callable<Integer> {
    @Option(names = {"-b", "--baseDN"}, paramLabel = "BASEDN",
            description = "A base DN of the backend whose indexes to rebuild.")
    String baseDN;

    @Mixin
    BackendOptions target;

    /** Which indexes: some by name, or all. */
    static final class Which {
        @Option(names = {"-i", "--index"}, paramLabel = "INDEX", required = true,
                description = "An attribute whose indexes to rebuild, as configured (repeat for several).")
        List<String> indexes;

        @Option(names = "--rebuildAll", required = true,
                description = "Rebuild every index configured for the backend.")
        boolean all;
    }

    @ArgGroup(exclusive = true, multiplicity = "1")
    Which which;

    @Spec
    CommandSpec spec;

    public static void main(String[] args) {
        Tools.main(new RebuildIndex(), args);
    }

    @Override
    public Integer call() {
        return Tools.run(spec, (out, err) -> run(out));
    }

    private int run(PrintWriter out) throws ToolException {
        ServerConfig config = OfflineBackend.loadConfig(target.config(), target.root());
        BackendConfig backend = backend(config);
        Set<String> names = indexes(backend);
        OfflineBackend opened;
        try {
            opened = OfflineBackend.open(target.config(), target.root(), backend.id(), false, 0);
        } catch (ToolException e) {
            if (OfflineBackend.inUse(e)) {
                throw new ToolException("the database of backend " + backend.id() + " (" + backend.directory()
                        + ") is in use by another process, the running server or another tool: stop the server "
                        + "first (bin/stop-ds), then run rebuild-index again", e);
            }
            throw e;
        }
        try (opened) {
            long total = opened.backend().maintenance().entryCount();
            Progress progress = new Progress(out, System.console() != null, total, System::nanoTime);
            long indexed = opened.backend().maintenance().rebuildIndexes(names, done -> progress.update(done, done));
            progress.finish();
            double seconds = progress.seconds();
            out.println(String.format(Locale.ROOT, "Rebuilt %s %s of backend %s over %,d entries in %.1f s "
                    + "(%,.0f entries/s)", names.size() == 1 ? "index" : "indexes", String.join(", ", names),
                    backend.id(), indexed, seconds, seconds > 0 ? indexed / seconds : 0));
            return Tools.OK;
        } catch (BackendException e) {
            throw new ToolException(e.getMessage()
                    + " (an index rebuilt in part is built again when the backend next opens)", e);
        }
    }

    /** The backend {@code -b} names by a base DN, or {@code -n}'s; both given, they must agree. */
    private BackendConfig backend(ServerConfig config) throws ToolException {
        boolean named = spec.commandLine().getParseResult().hasMatchedOption("--backendID");
        if (baseDN == null) {
            return OfflineBackend.backendConfig(config, target.config(), target.backendId);
        }
        DN base;
        try {
            base = DN.valueOf(baseDN);
        } catch (LocalizedIllegalArgumentException e) {
            throw new ToolException("The base DN '" + baseDN + "' is not a valid DN");
        }
        for (BackendConfig b : config.backends()) {
            if (b.baseDNs().contains(base)) {
                if (named && !b.id().equalsIgnoreCase(target.backendId)) {
                    throw new ToolException("The base DN " + baseDN + " is in backend " + b.id() + ", not "
                            + target.backendId);
                }
                return b;
            }
        }
        List<String> bases = new ArrayList<>();
        config.backends().forEach(b -> b.baseDNs().forEach(d -> bases.add(d + " (" + b.id() + ")")));
        throw new ToolException("No enabled backend has the base DN " + baseDN + "; the base DNs are: "
                + String.join(", ", bases));
    }

    /** The indexes to rebuild, as configured; a name not configured is refused, naming those that are. */
    private Set<String> indexes(BackendConfig backend) throws ToolException {
        Set<String> configured = new TreeSet<>(String.CASE_INSENSITIVE_ORDER);
        backend.indexes().values().forEach(configured::addAll);
        String known = configured.isEmpty() ? "none is configured"
                : "the configured ones are: " + String.join(", ", configured);
        if (which.all) {
            if (configured.isEmpty()) {
                throw new ToolException("Backend " + backend.id() + " has no index (ds-cfg-equality-index, "
                        + "-presence-index, -substring-index, -ordering-index in " + target.config() + ")");
            }
            return configured;
        }
        Set<String> out = new LinkedHashSet<>();
        for (String name : which.indexes) {
            if (!configured.contains(name)) {
                throw new ToolException("Backend " + backend.id() + " has no index of '" + name
                        + "' (ds-cfg-equality-index, -presence-index, -substring-index, -ordering-index in "
                        + target.config() + "); " + known);
            }
            out.add(name.toLowerCase(Locale.ROOT));
        }
        return out;
    }
}
