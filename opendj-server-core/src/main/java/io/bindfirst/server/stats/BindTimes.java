package io.bindfirst.server.stats;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.LongAdder;

import org.forgerock.opendj.ldap.ResultCode;

/**
 * How long binds took (the access log's etime: from the request decoded to the result sent), as histograms by
 * the storage scheme of the password value that matched ({@code none} when none did, or no password was
 * checked) and by outcome (success, invalidCredentials, anything else). Recorded once per bind where it finishes.
 *
 * <p>The bind path is the product's headline, so recording looks nothing up and allocates nothing: every
 * (scheme, outcome) {@link Series} is built here at start, found by index from the scheme's number and the
 * result code, and fed with two uncontended {@link LongAdder} adds (its bucket and the sum). Readers
 * ({@code cn=monitor}, {@code /metrics}) add the buckets up when they are read.
 */
public final class BindTimes {
    /** The scheme label of a bind whose password matched no stored value, or that checked none. */
    public static final String NO_SCHEME = "none";
    /** Upper bounds of the buckets, in nanoseconds; one more bucket holds what is slower. */
    private static final long[] BOUNDS_NANOS = {10_000, 25_000, 50_000, 100_000, 250_000, 500_000, 1_000_000,
        2_500_000, 5_000_000, 10_000_000, 25_000_000, 50_000_000, 100_000_000, 250_000_000, 1_000_000_000};

    /** A bind's outcome as labelled. */
    public enum Outcome {
        SUCCESS("success"), INVALID_CREDENTIALS("invalidCredentials"), OTHER("other");

        private final String label;

        Outcome(String label) {
            this.label = label;
        }

        public String label() {
            return label;
        }

        static Outcome of(ResultCode code) {
            int c = code.intValue();
            return c == ResultCode.SUCCESS.intValue() ? SUCCESS
                    : c == ResultCode.INVALID_CREDENTIALS.intValue() ? INVALID_CREDENTIALS : OTHER;
        }
    }

    /** The binds of one (scheme, outcome): a histogram of their times. Thread-safe. */
    public static final class Series {
        private final String scheme;
        private final Outcome outcome;
        private final LongAdder[] buckets = new LongAdder[BOUNDS_NANOS.length + 1];
        private final LongAdder sumNanos = new LongAdder();

        Series(String scheme, Outcome outcome) {
            this.scheme = scheme;
            this.outcome = outcome;
            for (int i = 0; i < buckets.length; i++) {
                buckets[i] = new LongAdder();
            }
        }

        void record(long nanos) {
            long n = Math.max(0, nanos);
            int i = 0;
            while (i < BOUNDS_NANOS.length && n > BOUNDS_NANOS[i]) {
                i++;
            }
            buckets[i].increment();
            sumNanos.add(n);
        }

        public String scheme() {
            return scheme;
        }

        public Outcome outcome() {
            return outcome;
        }

        /** The binds in each bucket alone, in the order of {@link #boundsNanos()}, the slower ones last. */
        public long[] bucketCounts() {
            long[] out = new long[buckets.length];
            for (int i = 0; i < out.length; i++) {
                out[i] = buckets[i].sum();
            }
            return out;
        }

        public long count() {
            long sum = 0;
            for (LongAdder b : buckets) {
                sum += b.sum();
            }
            return sum;
        }

        /** The binds' times summed, in nanoseconds. */
        public long sumNanos() {
            return sumNanos.sum();
        }
    }

    /** How many outcomes there are; {@code Outcome.values()} would copy its array on every bind. */
    private static final int OUTCOMES = Outcome.values().length;

    private final List<String> schemes;
    /** By (scheme number + 1) * outcomes + outcome: number -1, no scheme, comes first. */
    private final Series[] series;

    /** @param schemeLabels the name of each scheme number a bind may record, in order */
    public BindTimes(List<String> schemeLabels) {
        this.schemes = List.copyOf(schemeLabels);
        this.series = new Series[(schemes.size() + 1) * OUTCOMES];
        for (int s = -1; s < schemes.size(); s++) {
            for (Outcome o : Outcome.values()) {
                series[(s + 1) * OUTCOMES + o.ordinal()] = new Series(s < 0 ? NO_SCHEME : schemes.get(s), o);
            }
        }
    }

    /**
     * The series one bind goes to: by the scheme's number (any number outside the labels, such as -1 for no
     * match, is {@value #NO_SCHEME}) and its result code. Resolved by arithmetic, no look-up.
     */
    public Series series(int scheme, ResultCode result) {
        int s = scheme >= 0 && scheme < schemes.size() ? scheme + 1 : 0;
        return series[s * OUTCOMES + Outcome.of(result).ordinal()];
    }

    /** Records one bind's time: see {@link #series}. */
    public void record(int scheme, ResultCode result, long nanos) {
        series(scheme, result).record(nanos);
    }

    /** The series that have binds, in a fixed order (by scheme number, then outcome). */
    public List<Series> recorded() {
        List<Series> out = new ArrayList<>();
        for (Series s : series) {
            if (s.count() > 0) {
                out.add(s);
            }
        }
        return out;
    }

    /** The buckets' upper bounds in nanoseconds; the last bucket, beyond them, has none. */
    public static long[] boundsNanos() {
        return BOUNDS_NANOS.clone();
    }

    /**
     * The upper bound, in microseconds, of the bucket that holds the {@code q} quantile of these bucket counts
     * ({@code Long.MAX_VALUE} when it is the last, unbounded one); -1 when there are no binds.
     */
    public static long quantileBoundMicros(long[] bucketCounts, double q) {
        long total = 0;
        for (long n : bucketCounts) {
            total += n;
        }
        if (total == 0) {
            return -1;
        }
        long rank = (long) Math.ceil(q * total);
        long seen = 0;
        for (int i = 0; i < BOUNDS_NANOS.length; i++) {
            seen += bucketCounts[i];
            if (seen >= Math.max(1, rank)) {
                return BOUNDS_NANOS[i] / 1_000;
            }
        }
        return Long.MAX_VALUE;
    }
}
