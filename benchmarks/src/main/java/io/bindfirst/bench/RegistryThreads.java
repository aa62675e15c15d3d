package io.bindfirst.bench;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.CommandLineOptionException;
import org.openjdk.jmh.runner.options.CommandLineOptions;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;

/**
 * Runs {@link AuthenticatedUsersBenchmark} at several thread counts in one command (JMH takes one thread
 * count per run) and prints one Markdown table of all of them at the end:
 *
 * <pre>
 * java -cp benchmarks/target/benchmarks.jar io.bindfirst.bench.RegistryThreads [JMH options]
 * java -Dbench.threads=1,8 -cp benchmarks/target/benchmarks.jar io.bindfirst.bench.RegistryThreads \
 *     -p shape=serviceAccount
 * </pre>
 *
 * Thread counts come from {@code -Dbench.threads} (default 1,2,4,8,32); any arguments are ordinary JMH
 * options (e.g. {@code -p}, {@code -wi}, {@code -rf json -rff r.json}) applied to every run, except
 * {@code -t}, which this sets; a result file gets the thread count in its name ({@code r-t8.json}).
 */
public final class RegistryThreads {
    private RegistryThreads() {
    }

    /** {@code results.json} becomes {@code results-t8.json}. */
    static String perThreads(String file, int threads) {
        int dot = file.lastIndexOf('.');
        int slash = file.lastIndexOf('/');
        return dot > slash + 1 ? file.substring(0, dot) + "-t" + threads + file.substring(dot)
                : file + "-t" + threads;
    }

    public static void main(String[] args) throws RunnerException, CommandLineOptionException {
        int[] threadCounts = Arrays.stream(System.getProperty("bench.threads", "1,2,4,8,32").split(","))
                .map(String::trim).mapToInt(Integer::parseInt).toArray();
        Options cli = new CommandLineOptions(args);
        List<RunResult> all = new ArrayList<>();
        for (int threads : threadCounts) {
            OptionsBuilder options = new OptionsBuilder();
            options.parent(cli)
                    .include(AuthenticatedUsersBenchmark.class.getName() + "\\.")
                    .threads(threads);
            // One result file per thread count, or each run would overwrite the previous one's.
            if (cli.getResult().hasValue()) {
                options.result(perThreads(cli.getResult().get(), threads));
            }
            all.addAll(new Runner(options.build()).run());
        }
        System.out.println();
        System.out.println("| op | design | shape | threads | score | error (99.9%) | unit |");
        System.out.println("|---|---|---|---|---|---|---|");
        for (RunResult r : all) {
            Result<?> p = r.getPrimaryResult();
            String method = r.getParams().getBenchmark();
            System.out.printf(Locale.ROOT, "| %s | %s | %s | %d | %.3f | %.3f | %s |%n",
                    method.substring(method.lastIndexOf('.') + 1), r.getParams().getParam("design"),
                    r.getParams().getParam("shape"), r.getParams().getThreads(), p.getScore(), p.getScoreError(),
                    p.getScoreUnit());
        }
    }
}
