package io.bindfirst.bench;

import java.lang.management.ManagementFactory;
import java.util.List;

import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.profile.InternalProfiler;
import org.openjdk.jmh.results.AggregationPolicy;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.ScalarResult;

/**
 * CPU time the benchmark JVM used per operation, and how many cores it got, per iteration:
 * {@code -prof io.bindfirst.bench.CpuTimeProfiler}.
 *
 * <p>Why: on a shared machine the wall-clock score mostly says how much CPU the other tenants left us.
 * CPU nanoseconds per operation is much less sensitive to that (a descheduled thread burns none), so it is
 * the figure to compare when the error bars of the score are wide. {@code cpu.cores} (process CPU time over
 * wall time) shows how starved an iteration was: 2.0 is both cores of this machine.
 *
 * <p>It counts the whole process (JIT and GC threads too, which are quiet after warm-up) and divides by
 * every operation of the iteration, including those JMH runs while threads start and stop, since those
 * burn CPU inside the same window. Time spent blocked on a lock is not CPU time: for the registry, a
 * lock's cost shows in the score, its spinning and hand-offs in this figure.
 */
public final class CpuTimeProfiler implements InternalProfiler {
    private static final com.sun.management.OperatingSystemMXBean OS =
            (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();

    private long cpuStart;
    private long wallStart;

    @Override
    public String getDescription() {
        return "process CPU ns per operation and cores used (bindfirst)";
    }

    @Override
    public void beforeIteration(BenchmarkParams benchmarkParams, IterationParams iterationParams) {
        wallStart = System.nanoTime();
        cpuStart = OS.getProcessCpuTime();
    }

    @Override
    public List<? extends Result> afterIteration(BenchmarkParams benchmarkParams, IterationParams iterationParams,
            IterationResult result) {
        long cpu = OS.getProcessCpuTime() - cpuStart;
        long wall = System.nanoTime() - wallStart;
        long ops = result.getMetadata().getAllOps();
        if (ops <= 0) {
            ops = result.getMetadata().getMeasuredOps();
        }
        return List.of(
                new ScalarResult("cpu.ns/op", ops > 0 ? (double) cpu / ops : Double.NaN, "ns/op",
                        AggregationPolicy.AVG),
                new ScalarResult("cpu.cores", (double) cpu / wall, "cores", AggregationPolicy.AVG));
    }
}
