package io.bindfirst.it.support;

import static org.testng.Assert.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;

/**
 * A checkout of its own for the {@code bin/} scripts, as a user's clone is laid out: the scripts copied (they
 * keep the instance beside {@code bin/}), this build's jars linked in, the shipped configuration copied. For
 * tests that run {@code bin/start-ds} as a user would; {@link #close} stops a server it left running and deletes
 * the checkout, never the build.
 */
public final class ScriptCheckout implements AutoCloseable {
    private static final Duration LIMIT = Duration.ofMinutes(3);
    private static final String TOOLS = "opendj-tools";
    private static final List<String> MODULES = List.of("opendj-backend-je", TOOLS);

    private final Path root;

    public ScriptCheckout() throws IOException {
        this(false);
    }

    /**
     * @param ownToolsFolder whether {@code opendj-tools/target} is a folder of this checkout's (the tools' jar
     *        copied, their {@code lib/} linked) rather than a link to the build's, so that what the scripts
     *        write there (the tools' class-data archives) is this checkout's alone
     */
    public ScriptCheckout(boolean ownToolsFolder) throws IOException {
        root = Files.createTempDirectory("bindfirst-checkout-");
        try {
            Path bin = root.resolve("bin");
            Files.createDirectories(bin);
            try (var scripts = Files.list(TestServer.repoRoot().resolve("bin"))) {
                for (Path script : (Iterable<Path>) scripts::iterator) {
                    Files.copy(script, bin.resolve(script.getFileName()), StandardCopyOption.COPY_ATTRIBUTES);
                }
            }
            for (String module : MODULES) {
                Path built = TestServer.repoRoot().resolve(module).resolve("target");
                Path target = root.resolve(module).resolve("target");
                Files.createDirectories(root.resolve(module));
                if (ownToolsFolder && module.equals(TOOLS)) {
                    Files.createDirectories(target);
                    try (var jars = Files.list(built)) {
                        for (Path jar : (Iterable<Path>) jars.filter(p -> p.toString().endsWith(".jar"))::iterator) {
                            Files.copy(jar, target.resolve(jar.getFileName()), StandardCopyOption.COPY_ATTRIBUTES);
                        }
                    }
                    Files.createSymbolicLink(target.resolve("lib"), built.resolve("lib"));
                } else {
                    Files.createSymbolicLink(target, built);
                }
            }
            TestServer.copyConfig(root);
        } catch (IOException | RuntimeException e) {
            try {
                deleteCheckout();
            } catch (IOException cleanup) {
                e.addSuppressed(cleanup);
            }
            throw e;
        }
    }

    public Path root() {
        return root;
    }

    public Path script(String name) {
        return root.resolve("bin").resolve(name);
    }

    /** The pid bin/start-ds wrote. */
    public long serverPid() throws IOException {
        return Long.parseLong(Files.readString(root.resolve("logs/server.pid")).trim());
    }

    @Override
    public void close() throws Exception {
        try {
            if (Files.exists(script("stop-ds")) && Files.exists(root.resolve("logs/server.pid"))) {
                ChildProcess.Result stopped = ChildProcess.run(LIMIT, List.of(script("stop-ds").toString()));
                assertEquals(stopped.exitCode(), 0, stopped.said());
            }
        } finally {
            deleteCheckout();
        }
    }

    private void deleteCheckout() throws IOException {
        for (String module : MODULES) {
            Path target = root.resolve(module).resolve("target");
            // the links, never the build
            Files.deleteIfExists(Files.isSymbolicLink(target) ? target : target.resolve("lib"));
        }
        TestServer.deleteTree(root);
    }
}
