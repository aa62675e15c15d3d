package io.bindfirst.server.fuzz;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.code_intelligence.jazzer.Jazzer;

/**
 * One run of Jazzer's own driver on a target, in a JVM of its own: libFuzzer ends its process when it stops, and a
 * JVM of its own bounds the heap ({@code -Xmx}: believing a length header of gigabytes is an OutOfMemoryError, a
 * finding). Coverage-guided; instruments only the server's and the SDK's classes. New inputs go to the work folder's
 * {@code corpus}, a finding's input to {@code crash-*}, {@code timeout-*} or {@code oom-*} there, the driver's output
 * to {@code fuzz.log}.
 */
public final class JazzerRun {
    /** libFuzzer's own count of inputs run, printed at the end with {@code -print_final_stats}. */
    private static final Pattern EXECUTED = Pattern.compile("stat::number_of_executed_units:\\s*(\\d+)");
    /**
     * Seconds one input may take before it is a finding (a hang). Generous: the longest input takes milliseconds, and
     * a shared machine can stall a JVM for seconds; a loop that does not end still stops the run.
     */
    static final int INPUT_TIMEOUT_SECONDS = 25;

    /** How a run ended: libFuzzer's exit code (0: no finding), the inputs it ran, its time, its log. */
    public record Outcome(int exitCode, long executions, long millis, Path log) {
        String logText() {
            try {
                return Files.readString(log, StandardCharsets.UTF_8);
            } catch (IOException e) {
                return "(no log: " + e.getMessage() + ")";
            }
        }
    }

    private JazzerRun() {
    }

    /**
     * Fuzzes {@code target} for {@code seconds} (and at most {@code maxRuns} inputs when positive), from its
     * committed seeds and regressions and what earlier runs left in {@code work}.
     */
    public static Outcome run(FuzzTargets target, Path corpora, List<Path> moreSeeds, Path work, int seconds,
                              long maxRuns) throws IOException, InterruptedException {
        Path corpus = Files.createDirectories(work.resolve("corpus"));
        Path log = work.resolve("fuzz.log");
        List<String> cmd = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx1g", "-XX:+UseSerialGC",
                "-cp", System.getProperty("surefire.test.class.path", System.getProperty("java.class.path")),
                Jazzer.class.getName(),
                "--target_class=" + target.targetClass(),
                "--instrumentation_includes=io.bindfirst.**:org.forgerock.**",
                "-max_total_time=" + seconds,
                "-timeout=" + INPUT_TIMEOUT_SECONDS,
                "-max_len=" + target.maxLength(),
                "-rss_limit_mb=3072",
                "-print_final_stats=1",
                "--reproducer_path=" + work.toAbsolutePath(),
                "-artifact_prefix=" + work.toAbsolutePath() + "/"));
        if (maxRuns > 0) {
            cmd.add("-runs=" + maxRuns);
        }
        cmd.add(corpus.toString());
        for (String part : List.of("seeds", "regressions")) {
            Path dir = corpora.resolve(target.directory()).resolve(part);
            if (Files.isDirectory(dir)) {
                cmd.add(dir.toString());
            }
        }
        moreSeeds.forEach(p -> cmd.add(p.toString()));
        long start = System.nanoTime();
        Process process = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        try {
            // A backstop only (a hang in one input is libFuzzer's -timeout): the driver's time starts after the JVM's
            // start, which takes minutes on a loaded machine (a long run lost its count to a 180 s margin).
            if (!process.waitFor(seconds + Math.max(600L, seconds / 4), TimeUnit.SECONDS)) {
                throw new IllegalStateException("Jazzer on " + target + " did not stop after " + seconds + " s; see "
                        + log);
            }
        } finally {
            process.destroyForcibly();
        }
        long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        Matcher m = EXECUTED.matcher(Files.readString(log, StandardCharsets.UTF_8));
        long executions = m.find() ? Long.parseLong(m.group(1)) : 0;
        return new Outcome(process.exitValue(), executions, millis, log);
    }
}
