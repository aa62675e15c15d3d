package io.bindfirst.it.tools;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertFalse;
import static org.testng.Assert.assertNotEquals;
import static org.testng.Assert.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.testng.annotations.Test;

import io.bindfirst.it.support.ChildProcess;
import io.bindfirst.it.support.ScriptCheckout;
import io.bindfirst.it.support.TestServer;
import io.bindfirst.server.testsupport.Poll;

/**
 * The tools' class-data archives (bin/_class-archive.sh), through bin/status as a user runs it: the first run
 * lists the classes it loads, the next has the archive written from the list and starts from it; a list whose
 * run still goes is left alone, and so is a dump under way; a dump that fails leaves no archive and is not tried
 * again; a new jar, another heap or another java binary gets an archive of its own; a JDK the script was not
 * tried on runs without; nothing of it shows in what the tool prints. bin/status of a stopped server exits 3.
 */
public class ToolClassArchiveTest {
    private static final Duration LIMIT = Duration.ofMinutes(3);
    private static final int STOPPED = 3;
    private static final Pattern LIST = Pattern.compile("Status\\.(\\d+)\\.classlist\\.(\\d+)");
    private static final Map<String, String> PLAIN = Map.of();

    private static ChildProcess.Result status(ScriptCheckout c, Map<String, String> env, String... args)
            throws Exception {
        return start(c, env, args).await(LIMIT);
    }

    private static ChildProcess start(ScriptCheckout c, Map<String, String> env, String... args) throws IOException {
        List<String> command = new ArrayList<>(List.of(c.script("status").toString()));
        command.addAll(List.of(args));
        return ChildProcess.start(command, env);
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

    /** The one class list a run wrote (named after the checksum of what the archive must fit, and its pid). */
    private static Matcher list(ScriptCheckout c) throws IOException {
        List<String> names = names(c);
        assertEquals(names.size(), 1, names.toString());
        Matcher m = LIST.matcher(names.get(0));
        assertTrue(m.matches(), names.toString());
        return m;
    }

    private static void assertPlain(ChildProcess.Result r, ChildProcess.Result expected) {
        assertEquals(r.exitCode(), STOPPED, r.said());
        assertEquals(r.output(), expected.output(), "the same output, and nothing about archives");
    }

    /** A first run that lists, a second that has the archive made: the archive's name. */
    private static String archiveMade(ScriptCheckout c, Map<String, String> env, ChildProcess.Result expected)
            throws Exception {
        assertPlain(status(c, env), expected);
        String key = list(c).group(1);
        assertPlain(status(c, env), expected);
        String archive = "Status." + key + ".jsa";
        assertEquals(names(c), List.of(archive));
        return archive;
    }

    private static void assertStartsFromTheArchive(ScriptCheckout c, String options, ChildProcess.Result expected)
            throws Exception {
        Path loaded = c.root().resolve("loaded.log");
        Files.deleteIfExists(loaded);
        assertPlain(status(c, Map.of("TOOLS_JAVA_OPTS", options + " -Xlog:class+load=info:file=" + loaded)),
                expected);
        assertTrue(Files.readString(loaded).contains("io.bindfirst.tools.Status source: shared objects file"),
                "the tool's classes came from the archive");
    }

    @Test
    public void theFirstRunListsItsClassesAndTheNextStartsFromAnArchive() throws Exception {
        try (ScriptCheckout c = new ScriptCheckout(true)) {
            ChildProcess.Result off = status(c, Map.of("CLASS_ARCHIVE", "off"));
            assertEquals(off.exitCode(), STOPPED, off.said());
            assertEquals(names(c), List.of(), "CLASS_ARCHIVE=off writes nothing");
            assertEquals(status(c, PLAIN, "--help").exitCode(), 0);
            assertEquals(names(c), List.of(), "a run that prints its help writes nothing");

            ChildProcess first = start(c, PLAIN);
            assertPlain(first.await(LIMIT), off);
            Matcher m = list(c);
            assertEquals(Long.parseLong(m.group(2)), first.pid(), "the list is named after the tool's pid");
            assertPlain(status(c, PLAIN), off);
            String archive = "Status." + m.group(1) + ".jsa";
            assertEquals(names(c), List.of(archive));

            assertStartsFromTheArchive(c, "", off);
            assertEquals(names(c), List.of(archive), "logging options use the same archive");
        }
    }

    @Test
    public void aListWhoseRunStillGoesIsLeftAlone() throws Exception {
        try (ScriptCheckout c = new ScriptCheckout(true)) {
            ChildProcess.Result first = status(c, PLAIN);
            assertEquals(first.exitCode(), STOPPED, first.said());
            Matcher m = list(c);
            String going = "Status." + m.group(1) + ".classlist." + ProcessHandle.current().pid();
            Files.move(archives(c).resolve(m.group()), archives(c).resolve(going));   // as if this JVM wrote it

            assertPlain(status(c, PLAIN), first);
            List<String> names = names(c);
            assertTrue(names.contains(going), names.toString());
            assertFalse(names.stream().anyMatch(n -> n.endsWith(".jsa")), "no archive from a list still written");
            assertEquals(names.size(), 2, "the run listed its own classes: " + names);
        }
    }

    @Test
    public void aNewJarAndAnotherHeapGetArchivesOfTheirOwn() throws Exception {
        try (ScriptCheckout c = new ScriptCheckout(true)) {
            ChildProcess.Result first = status(c, Map.of("CLASS_ARCHIVE", "off"));
            String archive = archiveMade(c, PLAIN, first);

            // A heap too big for compressed pointers: an archive made with the default heap would go unused.
            Map<String, String> big = Map.of("TOOLS_JAVA_OPTS", "-Xmx40g");
            assertPlain(status(c, big), first);
            assertPlain(status(c, big), first);
            List<String> names = names(c);
            assertEquals(names.size(), 2, names.toString());
            assertTrue(names.contains(archive), names.toString());
            assertStartsFromTheArchive(c, "-Xmx40g", first);

            Path jar;
            try (Stream<Path> s = Files.list(c.root().resolve("opendj-tools/target"))) {
                jar = s.filter(p -> p.getFileName().toString().matches("opendj-tools-.*\\.jar")).findFirst()
                        .orElseThrow();
            }
            Files.setLastModifiedTime(jar, FileTime.from(Instant.now().plusSeconds(5)));   // a new build
            assertPlain(status(c, PLAIN), first);
            Matcher again = list(c);   // both archives gone, and a list for the new jar
            assertNotEquals("Status." + again.group(1) + ".jsa", archive);
        }
    }

    @Test
    public void aDumpUnderWayIsLeftAlone() throws Exception {
        try (ScriptCheckout c = new ScriptCheckout(true)) {
            Path go = c.root().resolve("go");
            Map<String, String> slow = pathFirst(fakeJdk(c, "slow", null,
                    "while [[ ! -e '" + go + "' ]]; do sleep 0.1; done"));
            ChildProcess.Result first = status(c, slow);
            assertEquals(first.exitCode(), STOPPED, first.said());
            String key = list(c).group(1);

            ChildProcess dumping = start(c, slow);
            Poll.until("a dump under way", Duration.ofMinutes(1),
                    () -> names(c).stream().anyMatch(n -> n.startsWith(".dump.")));
            List<String> under = names(c);
            assertPlain(status(c, slow), first);   // a run beside the dump: lists its own classes, nothing more
            List<String> beside = names(c);
            assertTrue(beside.containsAll(under), "the dump's files untouched: " + under + " -> " + beside);
            assertFalse(beside.contains("Status." + key + ".jsa"), beside.toString());

            Files.createFile(go);
            assertPlain(dumping.await(LIMIT), first);
            assertTrue(names(c).contains("Status." + key + ".jsa"), names(c).toString());
            assertPlain(status(c, slow), first);
            assertEquals(names(c), List.of("Status." + key + ".jsa"), "the later run tidied the list beside");
        }
    }

    @Test
    public void aFailedDumpLeavesNoArchiveAndIsNotTriedAgain() throws Exception {
        try (ScriptCheckout c = new ScriptCheckout(true)) {
            ChildProcess.Result first = status(c, Map.of("CLASS_ARCHIVE", "off"));
            assertPlain(status(c, PLAIN), first);
            String realKey = list(c).group(1);
            TestServer.deleteTree(archives(c));

            // The same JDK behind another binary (which half-writes the archive and fails): another key.
            Map<String, String> failing = pathFirst(fakeJdk(c, "failing", null, "for b in \"$@\"; do"
                    + " [[ $b != -XX:SharedArchiveFile=* ]] || echo half > \"${b#*=}\"; done; exit 1"));
            assertPlain(status(c, failing), first);
            String key = list(c).group(1);
            assertNotEquals(key, realKey, "another java binary, another archive");
            assertPlain(status(c, failing), first);
            assertEquals(names(c), List.of("Status." + key + ".failed"), "no archive, a marker");
            assertPlain(status(c, failing), first);
            assertEquals(names(c), List.of("Status." + key + ".failed"), "no list again, no dump again");
        }
    }

    @Test
    public void aJdkNotTriedRunsWithout() throws Exception {
        try (ScriptCheckout c = new ScriptCheckout(true)) {
            ChildProcess.Result first = status(c, Map.of("CLASS_ARCHIVE", "off"));
            assertPlain(status(c, pathFirst(fakeJdk(c, "26", "26", ""))), first);
            assertEquals(names(c), List.of(), "no list on a JDK not tried");
            assertPlain(status(c, pathFirst(fakeJdk(c, "25", "25.0.1", ""))), first);
            list(c);   // and one on a JDK tried
        }
    }

    /** The environment with {@code bin} first on the PATH. */
    private static Map<String, String> pathFirst(Path bin) {
        return Map.of("PATH", bin + ":" + System.getenv("PATH"));
    }

    /**
     * A JDK's folder that runs this JVM's java through a script of its own: its release file this JDK's, with
     * JAVA_VERSION set to {@code version} unless that is null; its lib/ this JDK's; {@code onDump} run in place
     * of a dump ({@code -Xshare:dump}), the real dump after it unless it exits. Its {@code bin} folder.
     */
    private static Path fakeJdk(ScriptCheckout c, String name, String version, String onDump) throws IOException {
        Path real = Path.of(System.getProperty("java.home"));
        Path home = c.root().resolve("jdk-" + name);
        Path bin = Files.createDirectories(home.resolve("bin"));
        Files.createSymbolicLink(home.resolve("lib"), real.resolve("lib"));
        String release = Files.readString(real.resolve("release"));
        if (version != null) {
            release = release.replaceAll("(?m)^JAVA_VERSION=.*$", "JAVA_VERSION=\"" + version + "\"");
        }
        Files.writeString(home.resolve("release"), release);
        Path java = bin.resolve("java");
        Files.writeString(java, String.join("\n",
                "#!/usr/bin/env bash",
                "for a in \"$@\"; do",
                "  if [[ $a == -Xshare:dump ]]; then",
                "    " + (onDump.isEmpty() ? ":" : onDump),
                "  fi",
                "done",
                "exec '" + real.resolve("bin/java") + "' \"$@\"",
                ""));
        Files.setPosixFilePermissions(java, PosixFilePermissions.fromString("rwxr-xr-x"));
        return bin;
    }
}
