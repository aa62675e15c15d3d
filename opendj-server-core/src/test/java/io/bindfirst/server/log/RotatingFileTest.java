package io.bindfirst.server.log;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertFalse;
import static org.testng.Assert.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

import org.testng.annotations.AfterClass;
import org.testng.annotations.Test;

import io.bindfirst.server.testsupport.TempFolders;

/**
 * Rotation by size and by age, retention, and the access log's promise on top of it: under a stream of
 * records, every record is in exactly one file, whole.
 */
public class RotatingFileTest {
    private static final Pattern RECORD = Pattern.compile("\\[[^]]+\\] BIND conn=\\d+ op=0 msgID=1 "
            + "dn=\"uid=user\\.\\d+,ou=People,dc=example,dc=com\" result=0 etime=\\d+\\.\\d{3}");
    private static final long T0 = Instant.parse("2026-11-23T23:15:00Z").toEpochMilli();

    private static List<String> allLines(RotatingFile f, Path live) throws Exception {
        List<String> lines = new ArrayList<>();
        for (Path p : f.rotatedFiles()) {
            lines.addAll(Files.readAllLines(p));
        }
        lines.addAll(Files.readAllLines(live));
        return lines;
    }

    private final TempFolders temp = new TempFolders();

    @AfterClass(alwaysRun = true)
    public void deleteTempFolders() {
        temp.close();
    }

    @Test(timeOut = 60_000)
    public void underAStreamOfRecordsEveryRecordLandsWholeInExactlyOneFile() throws Exception {
        Path live = temp.create("rotating").resolve("logs/access");
        int records = 20_000;
        FileAccessLog log = new FileAccessLog(live, new LogRotation(16 * 1024, Duration.ZERO, 1_000), 100_000);
        for (int i = 0; i < records; i++) {
            log.log(new AccessRecord(System.currentTimeMillis(), "BIND", i, 0, 1,
                    "uid=user." + i + ",ou=People,dc=example,dc=com", 0, 52_000, ""));
        }
        log.close();
        RotatingFile view = new RotatingFile(live, LogRotation.NEVER, T0);
        view.close();
        List<Path> rotated = view.rotatedFiles();
        assertTrue(rotated.size() >= 10, "20,000 records of ~100 bytes in 16 KiB files: " + rotated.size());
        List<String> lines = allLines(view, live);
        assertEquals(lines.size(), records, "no record lost, none written twice");
        for (int i = 0; i < records; i++) {
            assertTrue(RECORD.matcher(lines.get(i)).matches(), "a whole record: " + lines.get(i));
            assertTrue(lines.get(i).contains(" conn=" + i + " "), "in order: " + lines.get(i));
        }
    }

    @Test
    public void rotatesWhenTheSizeLimitIsReachedAndKeepsTheNewestFiles() throws Exception {
        Path live = temp.create("rotating").resolve("access");
        RotatingFile f = new RotatingFile(live, new LogRotation(100, Duration.ZERO, 3), T0);
        for (int i = 0; i < 10; i++) {
            f.append("line " + i + " " + "x".repeat(60) + "\n");
            f.rotateIfDue(T0 + i * 1000L);
        }
        f.append("last\n");
        f.close();
        List<Path> rotated = f.rotatedFiles();
        assertEquals(rotated.size(), 3, "only the three newest rotated files are kept: " + rotated);
        assertEquals(Files.readAllLines(rotated.get(0)).get(0), "line 4 " + "x".repeat(60));
        assertEquals(rotated.get(2).getFileName().toString(), "access.20261123231509Z");
        assertEquals(Files.readAllLines(live), List.of("last"));
    }

    @Test
    public void rotatesByAgeButNeverLeavesAnEmptyFile() throws Exception {
        Path live = temp.create("rotating").resolve("access");
        RotatingFile f = new RotatingFile(live, new LogRotation(0, Duration.ofHours(1), 10), T0);
        f.rotateIfDue(T0 + Duration.ofHours(2).toMillis());
        assertTrue(f.rotatedFiles().isEmpty(), "an hour with nothing written: no rotation");
        f.append("a\n");
        f.rotateIfDue(T0 + Duration.ofMinutes(179).toMillis());
        assertTrue(f.rotatedFiles().isEmpty(), "its hour restarted when the empty one ended");
        f.rotateIfDue(T0 + Duration.ofMinutes(180).toMillis());
        f.close();
        assertEquals(f.rotatedFiles().size(), 1);
        assertEquals(f.rotatedFiles().get(0).getFileName().toString(), "access.20261124021500Z");
        assertEquals(Files.readAllLines(f.rotatedFiles().get(0)), List.of("a"));
        assertEquals(Files.size(live), 0L);
    }

    @Test
    public void rotationsWithinOneSecondGetCountersAndStayInOrder() throws Exception {
        Path live = temp.create("rotating").resolve("access");
        RotatingFile f = new RotatingFile(live, new LogRotation(1, Duration.ZERO, 8), T0);
        for (int i = 0; i < 12; i++) {
            f.append(i + "\n");
            f.rotateIfDue(T0);
        }
        f.close();
        List<Path> rotated = f.rotatedFiles();
        assertEquals(rotated.size(), 8);
        for (int i = 0; i < 8; i++) {
            assertEquals(Files.readAllLines(rotated.get(i)), List.of(Integer.toString(i + 4)),
                    "oldest first, .10 after .9: " + rotated);
        }
        assertEquals(rotated.get(7).getFileName().toString(), "access.20261123231500Z.11");
        assertFalse(Files.exists(live.resolveSibling("access.20261123231500Z")), "the oldest was deleted");
    }

    @Test
    public void countsBytesNotCharacters() throws Exception {
        Path live = temp.create("rotating").resolve("access");
        RotatingFile f = new RotatingFile(live, new LogRotation(10, Duration.ZERO, 5), T0);
        f.append("\u00e9\u00e9\u00e9\u00e9\u00e9\n"); // 5 characters and a newline, 11 bytes in UTF-8
        f.rotateIfDue(T0);
        f.close();
        assertEquals(f.rotatedFiles().size(), 1);
    }

    /**
     * A line reused by its writer (as the access log's formatter reuses one StringBuilder) lands as it was at each
     * append, short or long, grown past the kept array or past the longest it keeps, and non-Latin text included.
     */
    @Test
    public void aReusedLineIsWrittenAsItWasAtEachAppend() throws Exception {
        Path live = temp.create("rotating").resolve("access");
        RotatingFile f = new RotatingFile(live, LogRotation.NEVER, T0);
        StringBuilder line = new StringBuilder();
        List<String> expected = new ArrayList<>();
        for (int length : new int[] {10, 3, 600, 5, 2_000, 40_000, 7, 17_000, 1}) {
            line.setLength(0);
            line.append("L").append(length).append(' ').append("\u00e9x".repeat(length)).append('\n');
            expected.add(line.substring(0, line.length() - 1));
            f.append(line);
        }
        f.close();
        assertEquals(Files.readAllLines(live), expected);
    }
}
