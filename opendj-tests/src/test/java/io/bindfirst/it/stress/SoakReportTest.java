package io.bindfirst.it.stress;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.List;

import org.testng.annotations.AfterClass;
import org.testng.annotations.Test;

import io.bindfirst.it.support.ChildProcess;
import io.bindfirst.server.testsupport.TempFolders;

/**
 * {@code benchmarks/soak.sh --report DIR} judged on samples made up here, so that its verdicts are known in
 * advance: a native RSS that grows faster than the goal fails, one within it passes, a run made with
 * {@code --nmt} has the JVM's own accounts' slopes reported beside them, and an error in a warm-up fails the
 * run. (The soak itself runs for an hour or more and is never run by the build; SoakShortTest is its short
 * version.)
 */
public class SoakReportTest {
    /** 192 MiB, the shipped heap: the native goal is a tenth of it a day, 13,981 bytes a minute. */
    private static final long XMX = 192L * 1024 * 1024;
    private static final String HEADER = "t_s,heap_after_gc_bytes,rss_bytes,fds,fds_nojdb,threads,rss_heap_bytes,"
            + "rss_code_bytes,rss_malloc_bytes,rss_file_bytes,metaspace_bytes,jit_compiles,nmt_committed_bytes,"
            + "nmt_malloc_bytes,nmt_code_bytes";

    private final TempFolders temp = new TempFolders();

    @AfterClass(alwaysRun = true)
    public void deleteTempFolders() {
        temp.close();
    }

    @Test
    public void aNativeRssGrowingFasterThanTheGoalFails() throws Exception {
        ChildProcess.Result r = report(run(40_000, false));
        assertEquals(r.exitCode(), 1, r.said());
        assertTrue(r.output().contains("native_rss_slope_B_per_min=40000.0±0.0 [FAIL]"), r.said());
        assertTrue(r.output().contains("RESULT=FAIL"), r.said());
        assertTrue(!r.output().contains("nmt_B_per_min"), "no accounts in a run without --nmt: " + r.said());
    }

    @Test
    public void aNativeRssWithinTheGoalPassesAndTheJvmsAccountsAreReported() throws Exception {
        ChildProcess.Result r = report(run(5_000, true));
        assertEquals(r.exitCode(), 0, r.said());
        assertTrue(r.output().contains("native_rss_slope_B_per_min=5000.0±0.0 [PASS]"), r.said());
        // The made-up accounts: committed grows 3,000 B/min, malloc 0, code 2,000.
        assertTrue(r.output().contains("nmt_B_per_min: committed=3000.0±0.0 malloc=0.0±0.0 code=2000.0±0.0"),
                r.said());
        assertTrue(r.output().contains("RESULT=PASS"), r.said());
    }

    @Test
    public void aWarmUpsErrorsFailTheRunAndItsCountsAreReported() throws Exception {
        Path dir = run(5_000, false);
        Files.writeString(dir.resolve("run.env"), "WARMUP=30 WARMUP_RATE=10000 WARMUP_OPS=9000000 WARMUP_ERRORS=2\n",
                StandardOpenOption.APPEND);
        ChildProcess.Result r = report(dir);
        assertEquals(r.exitCode(), 1, r.said());
        assertTrue(r.output().contains("warmup_minutes=30 warmup_rate=10000 warmup_ops=9000000 warmup_errors=2 "
                + "errors=2 [FAIL]"), r.said());
        assertTrue(r.output().contains("native_rss_slope_B_per_min=5000.0±0.0 [PASS]"), r.said());
    }

    private ChildProcess.Result report(Path dir) throws Exception {
        Path script = Path.of(System.getProperty("basedir", ".")).toAbsolutePath().getParent()
                .resolve("benchmarks").resolve("soak.sh");
        return ChildProcess.run(Duration.ofSeconds(60), List.of("bash", script.toString(), "--report",
                dir.toString()));
    }

    /**
     * A finished run's files: 30 one-minute samples whose native RSS (the RSS outside the Java heap) grows by
     * {@code nativePerMinute} bytes a minute, everything else flat; with {@code nmt}, accounts that grow too.
     */
    private Path run(long nativePerMinute, boolean nmt) throws Exception {
        Path dir = temp.create("soak-report-");
        StringBuilder csv = new StringBuilder(HEADER).append('\n');
        for (int minute = 0; minute <= 30; minute++) {
            long rssHeap = 96L << 20;
            long rss = rssHeap + (120L << 20) + nativePerMinute * minute;
            csv.append(minute * 60).append(",40000000,").append(rss).append(",70,63,47,").append(rssHeap)
                    .append(",20000000,20000000,36000000,34000000,11000,");
            if (nmt) {
                csv.append(200_000_000L + 3_000L * minute).append(',').append(15_000_000).append(',')
                        .append(23_000_000L + 2_000L * minute);
            } else {
                csv.append(",,");
            }
            csv.append('\n');
        }
        Files.writeString(dir.resolve("samples.csv"), csv);
        String sample = "40000000," + ((216L << 20)) + ",70,63,47," + (96L << 20) + ",20000000,20000000,36000000";
        Files.writeString(dir.resolve("run.env"), "CONNECTIONS=200 MINUTES=30 RATE=1000 WINDOW=360 SKIP=360 XMX="
                + XMX + "\nBASELINE=" + sample + " AFTER=" + sample + "\n");
        Files.writeString(dir.resolve("load.out"), "RESULT connections=200 seconds=1800 ops=1800000 "
                + "ops_per_s=1000.0 errors=0 window_s=360 p99_first_ms=2.000 p99_last_ms=1.900 p99_ratio=0.95\n");
        return dir;
    }
}
