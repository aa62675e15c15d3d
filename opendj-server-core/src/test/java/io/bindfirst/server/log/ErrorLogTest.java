package io.bindfirst.server.log;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertFalse;
import static org.testng.Assert.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.testng.annotations.AfterClass;
import org.testng.annotations.Test;

import io.bindfirst.server.testsupport.TempFolders;

/**
 * The server log through SLF4J and logback: lines at the configured severity and above, one event per line (a
 * message cannot forge another), stack traces after their line, and rotation by size with the retention count.
 */
public class ErrorLogTest {
    private static final Logger LOG = LoggerFactory.getLogger(ErrorLogTest.class);

    private final TempFolders temp = new TempFolders();

    @AfterClass(alwaysRun = true)
    public void deleteTempFolders() {
        temp.close();
    }

    @Test
    public void eventsAtTheSeverityAndAboveReachTheRotatingFile() throws Exception {
        Path dir = temp.create("errors");
        Path file = dir.resolve("errors");
        try (ErrorLog log = ErrorLog.install(new ErrorLog.Settings(file, new LogRotation(2_000, Duration.ZERO, 3),
                "warning"))) {
            LOG.info("not at this severity");
            LOG.warn("a warning about {}", "cn=x\n[01/Jan/1970] severity=ERROR forged");
            LOG.error("an error", new IllegalStateException("the cause"));
            String text = Files.readString(file);
            assertFalse(text.contains("not at this severity"), text);
            assertTrue(text.matches("(?s)\\[[^]]+\\] severity=WARN logger=io\\.bindfirst\\.server\\.log\\.ErrorLogTest"
                    + " thread=\\S+ msg=\"a warning about cn=x\\\\0a\\[01/Jan/1970\\] severity=ERROR forged\"\n"
                    + "\\[[^]]+\\] severity=ERROR .* msg=\"an error\"\njava\\.lang\\.IllegalStateException: the cause\n"
                    + "\\s+at .*"), text);
            for (int i = 0; i < 100; i++) {
                LOG.warn("filling the file, line {}", i);
            }
        }
        List<Path> files;
        try (Stream<Path> s = Files.list(dir)) {
            files = s.sorted().toList();
        }
        assertEquals(files.size(), 4, "the live file and the 3 rotated ones kept: " + files);
        for (Path f : files) {
            assertTrue(Files.size(f) < 4_000, f + ": " + Files.size(f));
        }
        LOG.warn("after close: not in the file");
        assertFalse(Files.readString(file).contains("after close"));
    }

    @Test
    public void aSeverityNotKnownIsRefused() {
        IllegalArgumentException e = org.testng.Assert.expectThrows(IllegalArgumentException.class,
                () -> new ErrorLog.Settings(Path.of("x"), LogRotation.NEVER, "notice"));
        assertTrue(e.getMessage().contains("error, warning, info, debug"), e.getMessage());
    }
}
