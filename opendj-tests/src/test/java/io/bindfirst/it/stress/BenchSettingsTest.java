package io.bindfirst.it.stress;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.testng.annotations.Test;

/** The bind benchmark forks its server with the JVM options and malloc arenas the server ships with. */
public class BenchSettingsTest {
    private static final Pattern DEFAULT_JVM = Pattern.compile("(?m)^SERVER_JVM_DEFAULTS=\"([^\"]*)\"$");
    private static final Pattern ARENAS = Pattern.compile("(?m)^SERVER_MALLOC_ARENA_MAX=(\\d+)$");

    @Test
    public void aForkedServerGetsTheJvmOptionsOfStartDs() throws IOException {
        Path bin = Path.of(System.getProperty("basedir", ".")).toAbsolutePath().getParent().resolve("bin");
        assertTrue(Files.readString(bin.resolve("start-ds")).contains("JVM=(${JAVA_OPTS:-$SERVER_JVM_DEFAULTS})"),
                "bin/start-ds does not use SERVER_JVM_DEFAULTS when JAVA_OPTS is not set");
        Path defaults = bin.resolve("_server-jvm.sh");
        Matcher m = DEFAULT_JVM.matcher(Files.readString(defaults));
        assertTrue(m.find(), "no SERVER_JVM_DEFAULTS=\"...\" line in " + defaults);
        assertEquals(List.of(m.group(1).trim().split("\\s+")), BenchSettings.SHIPPED_JVM_OPTS,
                "bin/_server-jvm.sh (bin/start-ds's defaults) and BenchSettings.SHIPPED_JVM_OPTS disagree");
        Matcher arenas = ARENAS.matcher(Files.readString(defaults));
        assertTrue(arenas.find(), "no SERVER_MALLOC_ARENA_MAX=N line in " + defaults);
        assertEquals(arenas.group(1), BenchSettings.SHIPPED_MALLOC_ARENA_MAX,
                "bin/_server-jvm.sh and BenchSettings.SHIPPED_MALLOC_ARENA_MAX disagree");
        if (System.getProperty("bind.bench.serverJvmOpts") == null) {
            assertEquals(BenchSettings.fromSystemProperties().serverJvmOpts, BenchSettings.SHIPPED_JVM_OPTS);
        }
    }
}
