package io.bindfirst.it;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertFalse;
import static org.testng.Assert.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.testng.annotations.Test;

/**
 * The tools' class-data archives (bin/_class-archive.sh), through bin/status as a user runs it: the first run
 * writes one as it exits, the next checks it, puts it in place and starts from it; a partial archive (a tool
 * killed while writing it) is deleted, never mapped (that aborts the JVM); one older than the tools' jar is written
 * again; nothing of it shows in what the tool prints. bin/status of a stopped server exits 3.
 */
public class ToolClassArchiveTest {
    private static final Duration LIMIT = Duration.ofMinutes(3);
    private static final int STOPPED = 3;

    private static ChildProcess.Result status(ScriptCheckout c, Map<String, String> env, String... args)
            throws Exception {
        List<String> command = new ArrayList<>(List.of(c.script("status").toString()));
        command.addAll(List.of(args));
        return ChildProcess.start(command, env).await(LIMIT);
    }

    private static Path archives(ScriptCheckout c) {
        return c.root().resolve("opendj-tools/target/class-archives");
    }

    /** The names in the archives' folder, sorted; none when there is no folder. */
    private static List<String> names(ScriptCheckout c) throws IOException {
        if (!Files.isDirectory(archives(c))) {
            return List.of();
        }
        try (Stream<Path> s = Files.list(archives(c))) {
            return s.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    /** The one archive a run wrote as it exited (named after its pid), which no run has checked yet. */
    private static Path written(ScriptCheckout c) throws IOException {
        List<String> names = names(c);
        assertEquals(names.size(), 1, names.toString());
        assertTrue(names.get(0).matches("Status\\.jsa\\.\\d+"), names.toString());
        return archives(c).resolve(names.get(0));
    }

    private static void assertPlain(ChildProcess.Result r, ChildProcess.Result expected) {
        assertEquals(r.exitCode(), STOPPED, r.said());
        assertEquals(r.output(), expected.output(), "the same output, and nothing about archives");
    }

    @Test
    public void theFirstRunWritesTheArchiveAndTheNextStartsFromIt() throws Exception {
        try (ScriptCheckout c = new ScriptCheckout(true)) {
            ChildProcess.Result off = status(c, Map.of("CLASS_ARCHIVE", "off"));
            assertEquals(off.exitCode(), STOPPED, off.said());
            assertEquals(names(c), List.of(), "CLASS_ARCHIVE=off writes none");
            assertEquals(status(c, Map.of(), "--help").exitCode(), 0);
            assertEquals(names(c), List.of(), "a run that prints its help writes none");

            assertPlain(status(c, Map.of()), off);
            written(c);

            Path loaded = c.root().resolve("loaded.log");
            assertPlain(status(c, Map.of("TOOLS_JAVA_OPTS", "-Xlog:class+load=info:file=" + loaded)), off);
            assertEquals(names(c), List.of("Status.jsa"));
            assertTrue(Files.readString(loaded).contains("io.bindfirst.tools.Status source: shared objects file"),
                    "the tool's classes came from the archive");
        }
    }

    @Test
    public void aPartialArchiveIsDeletedUnused() throws Exception {
        try (ScriptCheckout c = new ScriptCheckout(true)) {
            ChildProcess.Result first = status(c, Map.of());
            assertEquals(first.exitCode(), STOPPED, first.said());
            Path partial = written(c);
            byte[] whole = Files.readAllBytes(partial);
            Files.delete(partial);   // written read-only
            Files.write(partial, Arrays.copyOf(whole, whole.length / 3));

            assertPlain(status(c, Map.of()), first);   // exit 134 had the JVM mapped it
            assertFalse(Files.exists(partial), "the partial archive is gone");
            assertFalse(names(c).contains("Status.jsa"), names(c).toString());
            written(c);   // and this run wrote a whole one
        }
    }

    @Test
    public void anArchiveOlderThanTheToolsJarIsWrittenAgain() throws Exception {
        try (ScriptCheckout c = new ScriptCheckout(true)) {
            ChildProcess.Result first = status(c, Map.of());
            assertPlain(status(c, Map.of()), first);
            assertEquals(names(c), List.of("Status.jsa"));

            Path jar;
            try (Stream<Path> s = Files.list(c.root().resolve("opendj-tools/target"))) {
                jar = s.filter(p -> p.getFileName().toString().matches("opendj-tools-.*\\.jar")).findFirst()
                        .orElseThrow();
            }
            Files.setLastModifiedTime(jar, FileTime.from(Instant.now().plusSeconds(5)));   // a new build
            assertPlain(status(c, Map.of()), first);
            written(c);
        }
    }
}
