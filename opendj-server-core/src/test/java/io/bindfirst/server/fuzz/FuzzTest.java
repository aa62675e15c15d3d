package io.bindfirst.server.fuzz;

import static org.testng.Assert.assertTrue;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;

import org.testng.annotations.DataProvider;
import org.testng.annotations.Test;

/**
 * The fuzz targets in every build: each replays its committed seeds and regressions in this JVM (every input must
 * pass: a regression that fails again is a fix undone), then Jazzer fuzzes each for a few seconds from them
 * ({@code -Dfuzz.seconds}, 4 by default). A longer run is the same test with more seconds (docs/FUZZING.md).
 */
public class FuzzTest {
    private static final Path BASE = Path.of(System.getProperty("basedir", "."));
    private static final Path CORPORA = BASE.resolve("src/test/resources/fuzz");
    private static final Path WORK = BASE.resolve("target/fuzz");

    @DataProvider(name = "targets")
    public Object[][] targets() {
        return Stream.of(FuzzTargets.values()).map(t -> new Object[] {t}).toArray(Object[][]::new);
    }

    @Test(dataProvider = "targets")
    public void replaysSeedsAndRegressions(FuzzTargets target) throws Throwable {
        Class<?> type = Class.forName(target.targetClass());
        type.getMethod("fuzzerInitialize").invoke(null);
        Method one = type.getMethod("fuzzerTestOneInput", byte[].class);
        List<Path> inputs = inputs(target);
        assertTrue(inputs.size() > 0, "no seeds for " + target + " in " + CORPORA);
        for (Path input : inputs) {
            try {
                one.invoke(null, (Object) Files.readAllBytes(input));
            } catch (InvocationTargetException e) {
                throw new AssertionError(target + " fails on " + input, e.getCause());
            }
        }
    }

    /**
     * Jazzer on every target ({@code -Dfuzz.targets=request,dn} for some), {@code -Dfuzz.parallel} (3) at once: each
     * run is mostly its JVM's start (instrumentation, the schema), so running them side by side keeps the build short.
     */
    @Test(dependsOnMethods = "replaysSeedsAndRegressions")
    public void fuzzesWithoutFinding() throws Exception {
        int seconds = Integer.getInteger("fuzz.seconds", 4);
        long maxRuns = Long.getLong("fuzz.runs", 0L);
        List<FuzzTargets> chosen = chosenTargets();
        ExecutorService pool = Executors.newFixedThreadPool(Integer.getInteger("fuzz.parallel", 3));
        try {
            Map<FuzzTargets, Future<JazzerRun.Outcome>> runs = new LinkedHashMap<>();
            for (FuzzTargets target : chosen) {
                Path work = Files.createDirectories(WORK.resolve(target.directory()));
                runs.put(target, pool.submit(() -> JazzerRun.run(target, CORPORA, moreSeeds(target), work, seconds,
                        maxRuns)));
            }
            long total = 0;
            List<String> failures = new ArrayList<>();
            for (Map.Entry<FuzzTargets, Future<JazzerRun.Outcome>> run : runs.entrySet()) {
                JazzerRun.Outcome outcome = run.getValue().get();
                total += outcome.executions();
                System.out.printf("fuzz %s: %,d executions in %.1f s, exit %d (%s)%n", run.getKey(),
                        outcome.executions(), outcome.millis() / 1000.0, outcome.exitCode(), outcome.log());
                if (outcome.exitCode() != 0 || outcome.executions() == 0) {
                    failures.add(run.getKey() + ": exit " + outcome.exitCode() + " after " + outcome.executions()
                            + " executions; the input is in " + outcome.log().getParent() + ", the log ends:\n"
                            + tail(outcome.logText()));
                }
            }
            System.out.printf("fuzz: %,d executions in all%n", total);
            assertTrue(failures.isEmpty(), String.join("\n\n", failures));
        } finally {
            pool.shutdownNow();
        }
    }

    private static List<FuzzTargets> chosenTargets() {
        String names = System.getProperty("fuzz.targets", "");
        if (names.isBlank()) {
            return List.of(FuzzTargets.values());
        }
        List<FuzzTargets> out = new ArrayList<>();
        for (String name : names.split(",")) {
            out.add(FuzzTargets.valueOf(name.trim().toUpperCase(java.util.Locale.ROOT)));
        }
        return out;
    }

    /** The shipped configuration and schema are the configuration target's richest seeds. */
    private static List<Path> moreSeeds(FuzzTargets target) {
        Path shipped = BASE.resolve("../config").normalize();
        return target == FuzzTargets.CONFIG && Files.isDirectory(shipped) ? List.of(shipped) : List.of();
    }

    private static List<Path> inputs(FuzzTargets target) throws Exception {
        List<Path> out = new ArrayList<>();
        for (String part : List.of("seeds", "regressions")) {
            Path dir = CORPORA.resolve(target.directory()).resolve(part);
            if (Files.isDirectory(dir)) {
                try (Stream<Path> files = Files.list(dir)) {
                    files.filter(Files::isRegularFile).sorted().forEach(out::add);
                }
            }
        }
        return out;
    }

    private static String tail(String log) {
        return log.length() <= 6000 ? log : log.substring(log.length() - 6000);
    }
}
