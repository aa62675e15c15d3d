package io.bindfirst.it.stress;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

import org.HdrHistogram.Histogram;

/**
 * The merged figures of one {@link BindLatencyBenchmarkTestCase} run, and their three outputs: the
 * {@code BIND-BENCH} line, a CSV row and a JSON file, under {@code target/bind-bench/}.
 *
 * <p>The CSV is {@value #CSV_FILE}: the columns of the first version's {@code bind-bench.csv} (which is
 * no longer written, so its rows stay readable as they are), then the new ones at the end. Should the
 * header of an existing {@value #CSV_FILE} differ from {@link #CSV_HEADER}, a new file named after the
 * time is started instead of mixing two layouts in one file.
 */
final class BenchResult {
    static final long LOWEST_NANOS = TimeUnit.MICROSECONDS.toNanos(1);
    static final long HIGHEST_NANOS = TimeUnit.SECONDS.toNanos(60);
    static final String CSV_FILE = "bind-bench-v3.csv";
    static final String CSV_HEADER = "timestamp,label,mode,target,users,threads,warmup_s,duration_s,"
            + "binds,binds_per_s,mean_ms,p50_ms,p90_ms,p99_ms,p999_ms,max_ms,errors,warmup_errors,"
            + "server,idle,idle_opened,idle_open_at_end,idle_open_ms,slow_conns,slow_kind,slow_iterations,"
            + "slow_ops,slow_mean_ms,slow_p50_ms,slow_p99_ms,slow_errors,rss_of,rss_before_idle_kb,"
            + "rss_after_idle_kb,bytes_per_idle_conn,server_cpu_us_per_bind";
    private static final DateTimeFormatter FILE_TIME =
            DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss.SSS'Z'").withZone(ZoneOffset.UTC);

    final BenchSettings s;
    final String target;
    Instant at;
    final Histogram histogram = new Histogram(LOWEST_NANOS, HIGHEST_NANOS, 3);
    final Map<String, Long> errorsByCause = new TreeMap<>();
    long errors;
    long warmupErrors;
    int idleOpened;
    /** -1 until counted. */
    int idleOpenAtEnd = -1;
    long idleOpenMs;
    final Map<String, Integer> idleClosedBy = new TreeMap<>();
    final Histogram slowHistogram = new Histogram(SlowLoad.LOWEST_NANOS, SlowLoad.HIGHEST_NANOS, 3);
    final Map<BenchSettings.SlowKind, Histogram> slowByKind = new TreeMap<>();
    final Map<String, Long> slowErrorsByCause = new TreeMap<>();
    long slowErrors;
    /** Whose resident memory was read: "server", "test-jvm" (in-process: server and client) or "none". */
    String rssOf = "none";
    long rssBeforeIdleKb = -1;
    long rssAfterIdleKb = -1;
    /** CPU time the server process used in the measured window (whatever it did: binds, slow work, GC), or -1. */
    long serverCpuNanos = -1;

    BenchResult(BenchSettings s, String target) {
        this.s = s;
        this.target = target;
    }

    long binds() {
        return histogram.getTotalCount();
    }

    double bindsPerSecond() {
        return binds() / (double) s.durationSeconds;
    }

    private static double ms(double nanos) {
        return nanos / 1e6;
    }

    private static double pct(Histogram h, double p) {
        return h.getTotalCount() == 0 ? 0 : ms(h.getValueAtPercentile(p));
    }

    private static double mean(Histogram h) {
        return h.getTotalCount() == 0 ? 0 : ms(h.getMean());
    }

    private double max() {
        return binds() == 0 ? 0 : ms(histogram.getMaxValue());
    }

    String mode() {
        return s.bench ? "bench" : "smoke";
    }

    /** Resident bytes added per idle connection, or -1 if not measured. */
    long bytesPerIdleConnection() {
        if (rssBeforeIdleKb < 0 || rssAfterIdleKb < 0 || idleOpened == 0) {
            return -1;
        }
        return (rssAfterIdleKb - rssBeforeIdleKb) * 1024 / idleOpened;
    }

    /** The server's CPU time in the window per bind completed in it, in microseconds, or -1 if not measured. */
    double serverCpuMicrosPerBind() {
        return serverCpuNanos < 0 || binds() == 0 ? -1 : serverCpuNanos / 1e3 / binds();
    }

    private String cpuPerBind() {
        double us = serverCpuMicrosPerBind();
        return us < 0 ? "n/a" : String.format(Locale.ROOT, "%.1f", us);
    }

    String errorSummary() {
        return errorsByCause.isEmpty() ? "none" : errorsByCause.toString();
    }

    String slowErrorSummary() {
        return slowErrorsByCause.isEmpty() ? "none" : slowErrorsByCause.toString();
    }

    private static String orNa(long v) {
        return v < 0 ? "n/a" : Long.toString(v);
    }

    String line() {
        return String.format(Locale.ROOT, "BIND-BENCH label=%s mode=%s target=%s users=%d threads=%d "
                        + "warmup_s=%d duration_s=%d binds=%d binds_per_s=%.1f mean_ms=%.3f p50_ms=%.3f "
                        + "p90_ms=%.3f p99_ms=%.3f p999_ms=%.3f max_ms=%.3f errors=%d warmup_errors=%d "
                        + "server=%s idle=%d idle_opened=%d idle_open_at_end=%s idle_open_ms=%d "
                        + "slow_conns=%d slow_kind=%s slow_iterations=%d slow_ops=%d slow_mean_ms=%.3f "
                        + "slow_p50_ms=%.3f slow_p99_ms=%.3f slow_errors=%d rss_of=%s rss_before_idle_kb=%s "
                        + "rss_after_idle_kb=%s bytes_per_idle_conn=%s server_cpu_us_per_bind=%s%s%s%s",
                s.label, mode(), target, s.users, s.threads, s.warmupSeconds, s.durationSeconds, binds(),
                bindsPerSecond(), mean(histogram), pct(histogram, 50), pct(histogram, 90), pct(histogram, 99),
                pct(histogram, 99.9), max(), errors, warmupErrors, s.server.label(), s.idle, idleOpened,
                orNa(idleOpenAtEnd), idleOpenMs, s.slowConnections(), s.slowKind.label(), s.slowIterations,
                slowHistogram.getTotalCount(), mean(slowHistogram), pct(slowHistogram, 50), pct(slowHistogram, 99),
                slowErrors, rssOf, orNa(rssBeforeIdleKb), orNa(rssAfterIdleKb), orNa(bytesPerIdleConnection()),
                cpuPerBind(), errorsByCause.isEmpty() ? "" : " error_causes=" + errorSummary(),
                slowErrorsByCause.isEmpty() ? "" : " slow_error_causes=" + slowErrorSummary(),
                idleClosedBy.isEmpty() ? "" : " idle_closed_by=" + idleClosedBy)
                + (slowByKind.size() > 1 ? " slow_by_kind=" + slowByKindLine() : "");
    }

    /** {@code pbkdf2:ops=2,p50_ms=5943.329;search:ops=80,p50_ms=110.887}: for mixed, where one p50 says little. */
    private String slowByKindLine() {
        StringBuilder b = new StringBuilder();
        slowByKind.forEach((kind, h) -> b.append(b.length() > 0 ? ";" : "").append(String.format(Locale.ROOT,
                "%s:ops=%d,p50_ms=%.3f", kind.label(), h.getTotalCount(), pct(h, 50))));
        return b.toString();
    }

    private static String csvNum(long v) {
        return v < 0 ? "" : Long.toString(v);
    }

    String csvRow() {
        return String.format(Locale.ROOT, "%s,%s,%s,%s,%d,%d,%d,%d,%d,%.1f,%.4f,%.4f,%.4f,%.4f,%.4f,%.4f,%d,%d,"
                        + "%s,%d,%d,%s,%d,%d,%s,%d,%d,%.4f,%.4f,%.4f,%d,%s,%s,%s,%s,%s",
                at, csv(s.label), mode(), csv(target), s.users, s.threads, s.warmupSeconds, s.durationSeconds,
                binds(), bindsPerSecond(), mean(histogram), pct(histogram, 50), pct(histogram, 90),
                pct(histogram, 99), pct(histogram, 99.9), max(), errors, warmupErrors,
                s.server.label(), s.idle, idleOpened, csvNum(idleOpenAtEnd), idleOpenMs, s.slowConnections(),
                s.slowKind.label(), s.slowIterations, slowHistogram.getTotalCount(), mean(slowHistogram),
                pct(slowHistogram, 50), pct(slowHistogram, 99), slowErrors, rssOf, csvNum(rssBeforeIdleKb),
                csvNum(rssAfterIdleKb), csvNum(bytesPerIdleConnection()),
                serverCpuNanos < 0 ? "" : cpuPerBind());
    }

    private static String jsonNum(long v) {
        return v < 0 ? "null" : Long.toString(v);
    }

    private static String jsonMap(Map<String, ? extends Number> m) {
        StringBuilder b = new StringBuilder("{");
        m.forEach((k, v) -> b.append(b.length() > 1 ? ", " : "").append(quote(k)).append(": ").append(v));
        return b.append('}').toString();
    }

    private static String base64(Histogram h) {
        ByteBuffer buf = ByteBuffer.allocate(h.getNeededByteBufferCapacity());
        int len = h.encodeIntoCompressedByteBuffer(buf);
        return Base64.getEncoder().encodeToString(Arrays.copyOf(buf.array(), len));
    }

    private String slowByKindJson() {
        StringBuilder b = new StringBuilder("{");
        slowByKind.forEach((kind, h) -> b.append(b.length() > 1 ? ", " : "").append(String.format(Locale.ROOT,
                "%s: {\"ops\": %d, \"meanMs\": %.4f, \"p50Ms\": %.4f, \"p99Ms\": %.4f}", quote(kind.label()),
                h.getTotalCount(), mean(h), pct(h, 50), pct(h, 99))));
        return b.append('}').toString();
    }

    String json() {
        return String.format(Locale.ROOT, "{%n"
                        + "  \"timestamp\": %s,%n  \"label\": %s,%n  \"mode\": %s,%n  \"target\": %s,%n"
                        + "  \"server\": %s,%n"
                        + "  \"users\": %d,%n  \"threads\": %d,%n  \"warmupSeconds\": %d,%n"
                        + "  \"durationSeconds\": %d,%n  \"binds\": %d,%n  \"bindsPerSecond\": %.1f,%n"
                        + "  \"latencyMs\": {\"mean\": %.4f, \"p50\": %.4f, \"p90\": %.4f, \"p99\": %.4f, "
                        + "\"p99.9\": %.4f, \"max\": %.4f},%n"
                        + "  \"errors\": %d,%n  \"warmupErrors\": %d,%n  \"errorCauses\": %s,%n"
                        + "  \"idle\": {\"requested\": %d, \"opened\": %d, \"openAtEnd\": %s, \"openMs\": %d, "
                        + "\"closedBy\": %s},%n"
                        + "  \"slow\": {\"connections\": %d, \"kind\": %s, \"pbkdf2Iterations\": %d, "
                        + "\"searchFilter\": %s, \"ops\": %d, "
                        + "\"latencyMs\": {\"mean\": %.4f, \"p50\": %.4f, \"p99\": %.4f, \"max\": %.4f}, "
                        + "\"byKind\": %s, \"errors\": %d, \"errorCauses\": %s, "
                        + "\"histogram\": {\"unit\": \"ns\", \"lowest\": %d, \"highest\": %d, "
                        + "\"significantDigits\": 3, \"compressedBase64\": %s}},%n"
                        + "  \"memory\": {\"rssOf\": %s, \"rssBeforeIdleKb\": %s, \"rssAfterIdleKb\": %s, "
                        + "\"bytesPerIdleConnection\": %s},%n  \"serverCpuMicrosPerBind\": %s,%n"
                        + "  \"java\": %s,%n  \"processors\": %d,%n"
                        + "  \"histogram\": {\"unit\": \"ns\", \"lowest\": %d, \"highest\": %d, "
                        + "\"significantDigits\": 3, \"compressedBase64\": %s}%n}%n",
                quote(at.toString()), quote(s.label), quote(mode()), quote(target), quote(s.server.label()),
                s.users, s.threads, s.warmupSeconds, s.durationSeconds, binds(), bindsPerSecond(),
                mean(histogram), pct(histogram, 50), pct(histogram, 90), pct(histogram, 99), pct(histogram, 99.9),
                max(), errors, warmupErrors, jsonMap(errorsByCause),
                s.idle, idleOpened, jsonNum(idleOpenAtEnd), idleOpenMs, jsonMap(idleClosedBy),
                s.slowConnections(), quote(s.slowKind.label()), s.slowIterations, quote(SlowLoad.SEARCH_FILTER),
                slowHistogram.getTotalCount(), mean(slowHistogram), pct(slowHistogram, 50), pct(slowHistogram, 99),
                slowHistogram.getTotalCount() == 0 ? 0 : ms(slowHistogram.getMaxValue()), slowByKindJson(), slowErrors,
                jsonMap(slowErrorsByCause), SlowLoad.LOWEST_NANOS, SlowLoad.HIGHEST_NANOS, quote(base64(slowHistogram)),
                quote(rssOf), jsonNum(rssBeforeIdleKb), jsonNum(rssAfterIdleKb), jsonNum(bytesPerIdleConnection()),
                serverCpuNanos < 0 ? "null" : cpuPerBind(), quote(System.getProperty("java.version")),
                Runtime.getRuntime().availableProcessors(),
                LOWEST_NANOS, HIGHEST_NANOS, quote(base64(histogram)));
    }

    /** Appends the CSV row, writes the JSON file, and prints where. */
    void write() throws IOException {
        Path dir = Path.of(System.getProperty("basedir", ".")).resolve("target/bind-bench");
        Files.createDirectories(dir);
        Path csv = dir.resolve(CSV_FILE);
        if (Files.exists(csv) && Files.size(csv) > 0) {
            List<String> lines = Files.readAllLines(csv);
            if (lines.isEmpty() || !lines.get(0).equals(CSV_HEADER)) {
                csv = dir.resolve(CSV_FILE.replace(".csv", "-" + FILE_TIME.format(at) + ".csv"));
            }
        }
        String row = csvRow() + System.lineSeparator();
        if (!Files.exists(csv) || Files.size(csv) == 0) {
            row = CSV_HEADER + System.lineSeparator() + row;
        }
        Files.writeString(csv, row, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        String name = "bind-bench-" + s.label.replaceAll("[^A-Za-z0-9._-]", "_") + "-t" + s.threads + "-"
                + FILE_TIME.format(at) + ".json";
        Path json = dir.resolve(name);
        Files.writeString(json, json(), StandardOpenOption.CREATE_NEW);
        System.out.println("BIND-BENCH wrote " + csv.toAbsolutePath() + " and " + json.toAbsolutePath());
    }

    private static String csv(String v) {
        return v.contains(",") || v.contains("\"") || v.contains("\n") ? "\"" + v.replace("\"", "\"\"") + "\"" : v;
    }

    static String quote(String v) {
        StringBuilder b = new StringBuilder("\"");
        for (char ch : v.toCharArray()) {
            switch (ch) {
                case '"': b.append("\\\""); break;
                case '\\': b.append("\\\\"); break;
                case '\n': b.append("\\n"); break;
                case '\r': b.append("\\r"); break;
                case '\t': b.append("\\t"); break;
                default:
                    if (ch < 0x20) {
                        b.append(String.format(Locale.ROOT, "\\u%04x", (int) ch));
                    } else {
                        b.append(ch);
                    }
            }
        }
        return b.append('"').toString();
    }
}
