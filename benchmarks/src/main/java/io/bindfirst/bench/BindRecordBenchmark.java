package io.bindfirst.bench;

import java.util.concurrent.TimeUnit;

import org.forgerock.opendj.ldap.ResultCode;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

import io.bindfirst.server.stats.OperationCounts;
import io.bindfirst.server.plugin.OperationType;
import io.bindfirst.server.pwd.PasswordSchemes;

/**
 * What a bind's finish pays for the monitoring: the count by type and result ({@code OperationCounts.completed})
 * and the time into the histogram of its scheme and outcome ({@code BindTimes.record}), as {@code Operation.finish}
 * and {@code BindOperation.timed} call them. The inputs cycle through a mix of schemes, outcomes and times
 * (most binds succeed in tens of microseconds; some fail, some take milliseconds), so the branch predictor and
 * the bucket search see a spread, not one constant. {@link #inputsOnly} reads the same inputs and records
 * nothing, {@link #countOnly} only counts: the differences are the recording's and the time's costs.
 *
 * <p>One thread measures the cost on an idle server; two share one {@link OperationCounts} (the server has one),
 * so their adds land on the same {@code LongAdder}s, as the selector threads' and workers' do under load.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class BindRecordBenchmark {
    private static final int INPUTS = 1_024;

    /** The server's counts: one per server, shared by every thread. */
    @State(Scope.Benchmark)
    public static class Server {
        final OperationCounts counts = new OperationCounts();
    }

    /** Each thread's own cycle through the inputs. */
    @State(Scope.Thread)
    public static class Binds {
        final int[] schemes = new int[INPUTS];
        final ResultCode[] results = new ResultCode[INPUTS];
        final long[] nanos = new long[INPUTS];
        int next;

        @Setup
        public void setUp() {
            int ssha = PasswordSchemes.schemeLabels().indexOf("SSHA");
            int pbkdf2 = PasswordSchemes.schemeLabels().indexOf("PBKDF2-HMAC-SHA256");
            java.util.Random random = new java.util.Random(42);
            for (int i = 0; i < INPUTS; i++) {
                int r = random.nextInt(100);
                if (r < 85) { // a cached re-bind
                    schemes[i] = ssha;
                    results[i] = ResultCode.SUCCESS;
                    nanos[i] = 8_000 + random.nextInt(40_000);
                } else if (r < 95) { // a wrong password
                    schemes[i] = PasswordSchemes.NO_MATCH;
                    results[i] = ResultCode.INVALID_CREDENTIALS;
                    nanos[i] = 10_000 + random.nextInt(200_000);
                } else { // a costly one, on the slow lane
                    schemes[i] = pbkdf2;
                    results[i] = ResultCode.SUCCESS;
                    nanos[i] = 1_000_000 + random.nextInt(30_000_000);
                }
            }
        }

        int advance() {
            int i = next;
            next = (i + 1) & (INPUTS - 1);
            return i;
        }
    }

    @Benchmark
    public long inputsOnly(Binds b) {
        int i = b.advance();
        return b.schemes[i] + b.results[i].intValue() + b.nanos[i];
    }

    @Benchmark
    public void countAndTime(Server s, Binds b) {
        int i = b.advance();
        s.counts.completed(OperationType.BIND, b.results[i]);
        s.counts.bindTimes().record(b.schemes[i], b.results[i], b.nanos[i]);
    }

    /** The count alone (what every operation paid before the bind times): the time's share is the difference. */
    @Benchmark
    public void countOnly(Server s, Binds b) {
        s.counts.completed(OperationType.BIND, b.results[b.advance()]);
    }

    @Benchmark
    @Threads(2)
    public void countAndTimeTwoThreads(Server s, Binds b) {
        countAndTime(s, b);
    }

    @Benchmark
    @Threads(2)
    public void countOnlyTwoThreads(Server s, Binds b) {
        countOnly(s, b);
    }
}
