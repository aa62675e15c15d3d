package io.bindfirst.it.ops;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertTrue;
import static org.testng.Assert.fail;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.testng.annotations.Test;

import io.bindfirst.it.support.ChildProcess;
import io.bindfirst.it.support.ScriptCheckout;
import io.bindfirst.server.testsupport.PrometheusText;

/**
 * The demo's first start (bin/start-ds on a fresh clone, which creates the 10,000 sample users) hands back the
 * heap that creating them grew: the server's committed heap, read from its own /metrics once it listens, stays
 * well under the ~165 MiB G1 had grown to, so the demo under load keeps within its memory budget (256 MiB
 * resident with 400 connections: docs/BENCHMARKS.md) like a restart of the same instance does.
 */
public class FirstStartHeapTest {
    private static final Duration LIMIT = Duration.ofMinutes(3);
    /** About 45 MiB stay live after the load; G1 grew the heap to 165-175 MiB for it (JDK 17, the shipped flags). */
    private static final long MOST_COMMITTED = 128L << 20;
    private static final Pattern METRICS = Pattern.compile("^Metrics on (http://\\S+)/metrics", Pattern.MULTILINE);

    @Test(timeOut = 300_000)
    public void theFirstStartGivesBackTheHeapItsSampleDataGrew() throws Exception {
        try (ScriptCheckout checkout = new ScriptCheckout()) {
            ChildProcess.Result started = ChildProcess.run(LIMIT, List.of(checkout.script("start-ds").toString(),
                    "--port", "0", "--ldaps-port", "0", "--metrics-port", "0"));
            assertEquals(started.exitCode(), 0, started.said());
            String out = Files.readString(checkout.root().resolve("logs/server.out"));
            assertTrue(out.contains("sample entries") || Files.readString(checkout.root().resolve("logs/errors"))
                    .contains("sample entries"), "a first start creates the sample users:\n" + out);
            Matcher m = METRICS.matcher(out);
            if (!m.find()) {
                fail("bin/start-ds printed no metrics address:\n" + out);
            }
            HttpResponse<String> r = HttpClient.newHttpClient().send(
                    HttpRequest.newBuilder(URI.create(m.group(1) + "/metrics")).timeout(Duration.ofSeconds(30)).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(r.statusCode(), 200, r.body());
            long committed = (long) PrometheusText.parse(r.body()).value("jvm_memory_committed_bytes", "area", "heap");
            assertTrue(committed < MOST_COMMITTED, "committed heap after the first start: " + (committed >> 20)
                    + " MiB (at most " + (MOST_COMMITTED >> 20) + " expected)");
        }
    }
}
