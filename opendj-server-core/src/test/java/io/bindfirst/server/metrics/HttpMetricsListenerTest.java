package io.bindfirst.server.metrics;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertTrue;
import static org.testng.Assert.expectThrows;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import org.testng.annotations.AfterMethod;
import org.testng.annotations.BeforeMethod;
import org.testng.annotations.Test;

import io.prometheus.metrics.core.metrics.CounterWithCallback;
import io.prometheus.metrics.model.registry.PrometheusRegistry;

import io.bindfirst.server.config.ServerConfig;
import io.bindfirst.server.testsupport.PrometheusText;

/** The HTTP listener on its own, over a registry with one counter and a health check the test controls. */
public class HttpMetricsListenerTest {
    private static final ServerConfig.HttpMetrics LOOPBACK_ANY_PORT =
            new ServerConfig.HttpMetrics(true, "127.0.0.1", 0);

    private final HttpClient client = HttpClient.newHttpClient();
    private final AtomicLong count = new AtomicLong();
    private final AtomicReference<String> problem = new AtomicReference<>();
    private HttpMetricsListener listener;

    @BeforeMethod
    public void start() throws IOException {
        problem.set(null);
        PrometheusRegistry registry = new PrometheusRegistry();
        CounterWithCallback.builder().name("test_things").help("Things counted by the test")
                .callback(cb -> cb.call(count.get())).register(registry);
        listener = HttpMetricsListener.start(LOOPBACK_ANY_PORT, registry, new Health(problem::get, List.of()));
    }

    @AfterMethod(alwaysRun = true)
    public void stop() {
        if (listener != null) {
            listener.close();
        }
    }

    private HttpResponse<String> get(String path) throws Exception {
        return send(HttpRequest.newBuilder(url(path)).GET());
    }

    private HttpResponse<String> send(HttpRequest.Builder request) throws Exception {
        return client.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private URI url(String path) {
        return URI.create("http://127.0.0.1:" + listener.address().getPort() + path);
    }

    @Test
    public void metricsAreReadAtEachScrape() throws Exception {
        count.set(7);
        HttpResponse<String> first = get("/metrics");
        assertEquals(first.statusCode(), 200);
        assertTrue(first.headers().firstValue("Content-Type").orElse("").startsWith("text/plain"));
        assertEquals(PrometheusText.parse(first.body()).value("test_things_total"), 7.0);
        count.set(9);
        assertEquals(PrometheusText.parse(get("/metrics").body()).value("test_things_total"), 9.0);
    }

    @Test
    public void aliveAnswersWhileTheListenerRuns() throws Exception {
        problem.set("the backend is on fire");
        HttpResponse<String> r = get("/alive");
        assertEquals(r.statusCode(), 200);
        assertEquals(r.body(), "alive\n");
    }

    @Test
    public void healthyIs503WithTheReasonWhileTheCheckFindsAProblem() throws Exception {
        HttpResponse<String> ok = get("/healthy");
        assertEquals(ok.statusCode(), 200);
        assertEquals(ok.body(), "healthy\n");
        problem.set("the LDAP listener did not answer");
        HttpResponse<String> bad = get("/healthy");
        assertEquals(bad.statusCode(), 503);
        assertEquals(bad.body(), "unhealthy: the LDAP listener did not answer\n");
        problem.set(null);
        assertEquals(get("/healthy").statusCode(), 200);
    }

    @Test
    public void onlyTheThreePathsAndOnlyReadsAreServed() throws Exception {
        assertEquals(get("/").statusCode(), 404);
        assertEquals(get("/metricsfoo").statusCode(), 404);
        assertEquals(get("/alive/x").statusCode(), 404);
        HttpResponse<String> post = send(HttpRequest.newBuilder(url("/healthy"))
                .POST(HttpRequest.BodyPublishers.ofString("x")));
        assertEquals(post.statusCode(), 405);
        HttpResponse<String> head = send(HttpRequest.newBuilder(url("/alive"))
                .method("HEAD", HttpRequest.BodyPublishers.noBody()));
        assertEquals(head.statusCode(), 200);
        assertEquals(head.body(), "");
    }

    @Test
    public void aPortInUseIsAStartErrorNamingTheEntryAndTheAddress() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            ServerConfig.HttpMetrics there = new ServerConfig.HttpMetrics(true, "127.0.0.1", taken.getLocalPort());
            Health healthy = new Health(() -> null, List.of());
            IOException e = expectThrows(IOException.class,
                    () -> HttpMetricsListener.start(there, new PrometheusRegistry(), healthy));
            assertTrue(e.getMessage().startsWith(ServerConfig.HttpMetrics.ENTRY + ": cannot listen on 127.0.0.1:"
                    + taken.getLocalPort() + ": "), e.getMessage());
        }
    }

    @Test
    public void closingStopsListening() throws Exception {
        int port = listener.address().getPort();
        listener.close();
        listener = null;
        expectThrows(IOException.class, () -> client.send(HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + port + "/alive")).build(), HttpResponse.BodyHandlers.ofString()));
        // The port itself is let go (a refused request alone would not show it: a listener whose threads are gone
        // drops the requests it still accepts).
        new ServerSocket(port, 1, InetAddress.getLoopbackAddress()).close();
    }
}
