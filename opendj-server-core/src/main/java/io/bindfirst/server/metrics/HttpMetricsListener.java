package io.bindfirst.server.metrics;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;

import io.prometheus.metrics.exporter.httpserver.MetricsHandler;
import io.prometheus.metrics.model.registry.PrometheusRegistry;

import io.bindfirst.server.backend.Backend;
import io.bindfirst.server.config.ServerConfig;

/**
 * The HTTP listener for monitoring tools, on the JDK's own HTTP server (the one the Prometheus exporter is
 * written for), apart from the LDAP transport: {@code /metrics} (the Prometheus text format, or what the
 * scraper asks for), {@code /alive} (200 while the process serves HTTP) and {@code /healthy} (200 when
 * {@link Health} finds nothing wrong, else 503 and the reason). Two threads of its own answer, so a slow scrape
 * or probe never takes an LDAP thread.
 */
public final class HttpMetricsListener implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(HttpMetricsListener.class);
    /** How long {@code /healthy} waits for the LDAP listener's answer. */
    static final Duration PROBE_TIMEOUT = Duration.ofSeconds(2);
    private static final int THREADS = 2;

    private final HttpServer http;
    private final ExecutorService executor;

    private HttpMetricsListener(HttpServer http, ExecutorService executor) {
        this.http = http;
        this.executor = executor;
    }

    /**
     * Starts listening where {@code config} says; the caller checks {@link ServerConfig.HttpMetrics#enabled}.
     *
     * @param ldap where the LDAP listener is bound, for {@code /healthy}'s search
     * @param userBackends the backends {@code /healthy} reads
     * @throws IOException naming the address and the configuration entry when it cannot listen
     */
    public static HttpMetricsListener start(ServerConfig.HttpMetrics config, PrometheusRegistry registry,
                                            InetSocketAddress ldap, List<Backend> userBackends) throws IOException {
        LdapProbe probe = new LdapProbe(ldap, PROBE_TIMEOUT);
        return start(config, registry, new Health(probe::probe, userBackends));
    }

    static HttpMetricsListener start(ServerConfig.HttpMetrics config, PrometheusRegistry registry, Health health)
            throws IOException {
        InetSocketAddress where = new InetSocketAddress(config.address(), config.port());
        String named = ServerConfig.HttpMetrics.ENTRY + ": cannot listen on " + config.address() + ":"
                + config.port();
        if (where.isUnresolved()) {
            throw new IOException(named + ": ds-cfg-listen-address: cannot resolve '" + config.address() + "'");
        }
        HttpServer http;
        try {
            http = HttpServer.create(where, 0);
        } catch (IOException e) {
            throw new IOException(named + ": " + e.getMessage(), e);
        }
        AtomicInteger n = new AtomicInteger();
        ExecutorService executor = Executors.newFixedThreadPool(THREADS, r -> {
            Thread t = new Thread(r, "http-metrics-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
        try {
            http.setExecutor(executor);
            MetricsHandler metrics = new MetricsHandler(registry);
            http.createContext("/", exchange -> answer(exchange, 404, "not found: try /metrics, /alive or /healthy"));
            http.createContext("/metrics", exactly("/metrics", metrics));
            http.createContext("/alive", exactly("/alive", exchange -> answer(exchange, 200, "alive")));
            http.createContext("/healthy", exactly("/healthy", exchange -> {
                HealthQuery q = HealthQuery.parse(exchange.getRequestURI().getRawQuery());
                if (q.error() != null) {
                    answer(exchange, 400, q.error());
                    return;
                }
                String problem = health.problem(q.role(), q.maxLagMillis());
                answer(exchange, problem == null ? 200 : 503, problem == null ? "healthy" : "unhealthy: " + problem);
            }));
            http.start();
        } catch (RuntimeException e) {
            http.stop(0);
            executor.shutdownNow();
            throw e;
        }
        InetSocketAddress bound = http.getAddress();
        String url = "http://" + bound.getAddress().getHostAddress() + ":" + bound.getPort();
        LOG.info("Metrics and health probes on {}/metrics, {}/alive and {}/healthy", url, url, url);
        if (!bound.getAddress().isLoopbackAddress()) {
            LOG.warn("The HTTP metrics listener is on {}, not loopback: anyone who reaches it reads the server's "
                    + "load and TLS failures without authenticating ({})", url, ServerConfig.HttpMetrics.ENTRY);
        }
        return new HttpMetricsListener(http, executor);
    }

    /** The JDK server matches contexts by prefix: {@code /metricsfoo} is not {@code /metrics}. */
    private static HttpHandler exactly(String path, HttpHandler handler) {
        return exchange -> {
            if (!exchange.getRequestURI().getPath().equals(path)) {
                answer(exchange, 404, "not found: try /metrics, /alive or /healthy");
            } else if (!"GET".equals(exchange.getRequestMethod()) && !"HEAD".equals(exchange.getRequestMethod())) {
                exchange.getResponseHeaders().set("Allow", "GET, HEAD");
                answer(exchange, 405, "only GET and HEAD");
            } else {
                handler.handle(exchange);
            }
        };
    }

    /** A one-line text answer. */
    private static void answer(HttpExchange exchange, int status, String line) throws IOException {
        try (exchange) {
            byte[] body = (line + "\n").getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", "text/plain; charset=utf-8");
            if ("HEAD".equals(exchange.getRequestMethod())) {
                exchange.sendResponseHeaders(status, -1);
                return;
            }
            exchange.sendResponseHeaders(status, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        }
    }

    /** Where it listens (with the real port when 0 was configured). */
    public InetSocketAddress address() {
        return http.getAddress();
    }

    /** Stops listening at once: a scrape in progress is cut short. */
    @Override
    public void close() {
        http.stop(0);
        executor.shutdownNow();
    }
}
