package io.bindfirst.it;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.testng.annotations.Test;

/** The bind benchmark forks its server with the JVM options the server ships with. */
public class BenchSettingsTest {
    private static final Pattern DEFAULT_JVM = Pattern.compile("JVM=\\(\\$\\{JAVA_OPTS:-([^}]*)\\}\\)");

    @Test
    public void aForkedServerGetsTheJvmOptionsOfStartDs() throws IOException {
        Path startDs = Path.of(System.getProperty("basedir", ".")).toAbsolutePath().getParent()
                .resolve("bin/start-ds");
        Matcher m = DEFAULT_JVM.matcher(Files.readString(startDs));
        assertTrue(m.find(), "no JVM=(${JAVA_OPTS:-...}) line in " + startDs);
        assertEquals(List.of(m.group(1).trim().split("\\s+")), BenchSettings.SHIPPED_JVM_OPTS,
                "bin/start-ds and BenchSettings.SHIPPED_JVM_OPTS disagree");
        if (System.getProperty("bind.bench.serverJvmOpts") == null) {
            assertEquals(BenchSettings.fromSystemProperties().serverJvmOpts, BenchSettings.SHIPPED_JVM_OPTS);
        }
    }
}
