package io.bindfirst.it.ops;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertNull;
import static org.testng.Assert.assertTrue;
import static org.testng.Assert.expectThrows;

import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import javax.net.ssl.SSLContext;

import org.forgerock.opendj.ldap.ByteString;
import org.testng.annotations.AfterClass;
import org.testng.annotations.BeforeClass;
import org.testng.annotations.Test;

import com.unboundid.ldap.sdk.Attribute;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.SearchResultEntry;
import com.unboundid.ldap.sdk.SearchScope;
import com.unboundid.util.ssl.PEMFileTrustManager;
import com.unboundid.util.ssl.SSLUtil;

import io.bindfirst.it.support.TestServer;
import io.bindfirst.server.DirectoryServer;
import io.bindfirst.server.ServerStartException;
import io.bindfirst.server.config.ConfigLoader;
import io.bindfirst.server.config.ServerConfig;
import io.bindfirst.server.pwd.PasswordPolicies;
import io.bindfirst.server.pwd.PasswordPolicy;
import io.bindfirst.server.pwd.Pbkdf2HmacSha256Scheme;
import io.bindfirst.server.testsupport.Poll;
import io.bindfirst.server.testsupport.PrometheusText;
import io.bindfirst.server.virtual.VirtualEntries;

/**
 * The HTTP metrics listener of a real server: {@code /metrics} scraped (and parsed strictly: the Prometheus
 * client has no parser) before and after what clients do, {@code /alive} and {@code /healthy}, the same numbers
 * as {@code cn=monitor}, the listener's address, and the start errors it can cause.
 */
public class MetricsTest {
    /** Three wrong passwords lock an account, so a lockout can be counted. */
    private static final int LOCKOUT_FAILURES = 3;

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
    private TestServer server;

    @BeforeClass
    public void start() throws Exception {
        PasswordPolicies lockout = new PasswordPolicies(
                new PasswordPolicy(PasswordPolicies.DEFAULT_DN, LOCKOUT_FAILURES, Duration.ZERO, Duration.ZERO),
                List.of());
        server = TestServer.start(20, c -> c.withPasswordPolicies(lockout));
    }

    @AfterClass(alwaysRun = true)
    public void stop() {
        if (server != null) {
            server.close();
        }
    }

    private HttpResponse<String> get(DirectoryServer s, String path) throws Exception {
        InetSocketAddress a = s.httpMetricsAddress();
        URI uri = URI.create("http://" + a.getAddress().getHostAddress() + ":" + a.getPort() + path);
        return http.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(30)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private PrometheusText scrape() throws Exception {
        HttpResponse<String> r = get(server.server(), "/metrics");
        assertEquals(r.statusCode(), 200, r.body());
        return PrometheusText.parse(r.body());
    }

    /** A scrape once no client connection is open: no connection of an earlier test is still closing. */
    private PrometheusText quietScrape() throws Exception {
        return Poll.until("no client connection open", Duration.ofSeconds(10), this::scrape,
                p -> p.value("ldap_connections_open") == 0);
    }

    /** Operations of this type, whatever their result: the result label's series summed. */
    private static double operations(PrometheusText p, String type) {
        assertTrue(p.samples().stream().anyMatch(s -> s.name().equals("ldap_operations_total")
                && type.equals(s.labels().get("type")) && "success".equals(s.labels().get("result"))),
                "every type has its success series: " + type);
        return p.samples().stream().filter(s -> s.name().equals("ldap_operations_total")
                && type.equals(s.labels().get("type"))).mapToDouble(PrometheusText.Sample::value).sum();
    }

    /** The one sample with this name and these labels, or 0 when it is not there (a series not yet counted). */
    private static double orZero(PrometheusText p, String name, String... labels) {
        Map<String, String> wanted = new java.util.TreeMap<>();
        for (int i = 0; i < labels.length; i += 2) {
            wanted.put(labels[i], labels[i + 1]);
        }
        return p.samples().stream().filter(s -> s.name().equals(name) && s.labels().equals(wanted))
                .mapToDouble(PrometheusText.Sample::value).findFirst().orElse(0);
    }

    @Test
    public void aWrongPasswordMovesItsResultAndEachBindItsTimeBySchemeAndOutcome() throws Exception {
        PrometheusText before = scrape();
        try (LDAPConnection c = server.connect()) {
            LDAPException wrong = expectThrows(LDAPException.class, () -> c.bind(TestServer.user(15), "wrong"));
            assertEquals(wrong.getResultCode(), com.unboundid.ldap.sdk.ResultCode.INVALID_CREDENTIALS);
            c.bind(TestServer.user(15), TestServer.USER_PASSWORD);
            c.bind(TestServer.user(16), TestServer.USER_PASSWORD);
        }
        PrometheusText after = scrape();
        String[] invalid = {"type", "bind", "result", "invalidCredentials"};
        String[] success = {"type", "bind", "result", "success"};
        assertEquals(orZero(after, "ldap_operations_total", invalid)
                - orZero(before, "ldap_operations_total", invalid), 1.0);
        assertEquals(after.value("ldap_operations_total", success)
                - before.value("ldap_operations_total", success), 2.0);

        // The sample users' passwords are stored with {SSHA} (SampleData).
        String[] matched = {"scheme", "SSHA", "outcome", "success"};
        String[] none = {"scheme", "none", "outcome", "invalidCredentials"};
        String count = "ldap_bind_duration_seconds_count";
        assertEquals(after.value(count, matched) - orZero(before, count, matched), 2.0);
        assertEquals(after.value(count, none) - orZero(before, count, none), 1.0);
        assertEquals(after.value("ldap_bind_duration_seconds_bucket", "scheme", "SSHA", "outcome", "success",
                "le", "+Inf"), after.value(count, matched));
        assertTrue(after.value("ldap_bind_duration_seconds_sum", matched) > 0);
        // Each bind is timed once: every series together counts the binds.
        double timed = after.samples().stream().filter(x -> x.name().equals(count))
                .mapToDouble(PrometheusText.Sample::value).sum();
        assertEquals(timed, operations(after, "bind"));
    }

    @Test
    public void theCredentialCachesCountTheirHitsAndMisses() throws Exception {
        String costly = "uid=metrics.costly," + TestServer.PEOPLE;
        String password = "costly password";
        try (LDAPConnection root = server.bindAs(TestServer.ROOT_DN, TestServer.ROOT_PASSWORD)) {
            root.add(costly, List.of(new Attribute("objectClass", "top", "person", "organizationalPerson",
                    "inetOrgPerson"), new Attribute("uid", "metrics.costly"), new Attribute("cn", "C"),
                    new Attribute("sn", "C"), new Attribute("userPassword", "{PBKDF2-HMAC-SHA256}"
                            + new Pbkdf2HmacSha256Scheme(2_000).encodeValue(ByteString.valueOfUtf8(password)))));
        }
        PrometheusText before = scrape();
        try (LDAPConnection c = server.connect()) {
            c.bind(costly, password); // derives: a miss of both caches
            PrometheusText first = scrape();
            assertEquals(delta(first, before, "ldap_verified_credentials_misses_total"), 1.0);
            assertEquals(delta(first, before, "ldap_verified_credentials_hits_total"), 0.0);
            assertEquals(delta(first, before, "ldap_bind_cache_misses_total"), 1.0);
            c.bind(costly, password); // proven and in memory: a hit of both
            PrometheusText second = scrape();
            assertEquals(delta(second, first, "ldap_verified_credentials_hits_total"), 1.0);
            assertEquals(delta(second, first, "ldap_bind_cache_hits_total"), 1.0);
            assertEquals(delta(second, first, "ldap_bind_cache_misses_total"), 0.0);
            expectThrows(LDAPException.class, () -> c.bind(costly, "wrong")); // never proven: derives again
            PrometheusText third = scrape();
            assertEquals(delta(third, second, "ldap_verified_credentials_misses_total"), 1.0);
            assertEquals(delta(third, second, "ldap_verified_credentials_hits_total"), 0.0);
            assertEquals(third.value("ldap_bind_duration_seconds_count", "scheme", "PBKDF2-HMAC-SHA256",
                    "outcome", "success"), 2.0, "the scheme of the value that matched, derived or remembered");
        }
        try (LDAPConnection rootUser = server.bindAs(TestServer.ROOT_DN, TestServer.ROOT_PASSWORD)) {
            SearchResultEntry caches = rootUser.getEntry("cn=Credential Caches,cn=monitor");
            PrometheusText p = scrape();
            assertEquals((long) p.value("ldap_verified_credentials_misses_total"),
                    (long) caches.getAttributeValueAsLong("ds-mon-verified-credentials-misses"));
            assertEquals((long) p.value("ldap_bind_cache_hits_total"),
                    (long) caches.getAttributeValueAsLong("ds-mon-bind-cache-hits"));
            assertEquals((long) p.value("ldap_bind_cache_misses_total"),
                    (long) caches.getAttributeValueAsLong("ds-mon-bind-cache-misses"));
        }
    }

    private static double delta(PrometheusText after, PrometheusText before, String name) {
        return after.value(name) - before.value(name);
    }

    @Test
    public void aConnectionRefusedAtTheMaximumIsCountedByItsReason() throws Exception {
        try (TestServer small = TestServer.start(0, c -> c.withListener(c.listener().withMaxConnections(1)));
             LDAPConnection first = small.connect()) {
            assertEquals(scrapeOf(small).value("ldap_connections_refused_total", "reason", "connection_limit"), 0.0);
            try (LDAPConnection second = small.connect()) {
                expectThrows(LDAPException.class, () -> second.bind("", ""));
            } catch (LDAPException refusedOnConnect) {
                // the notice of disconnection may arrive while the client is still connecting
            }
            Poll.until("the refusal is counted", Duration.ofSeconds(10), () -> scrapeOf(small),
                    p -> p.value("ldap_connections_refused_total", "reason", "connection_limit") == 1.0);
            first.bind(TestServer.ROOT_DN, TestServer.ROOT_PASSWORD);
            SearchResultEntry monitor = first.getEntry("cn=monitor", "ds-mon-connections-refused",
                    "ds-mon-connections-refused-by-reason");
            assertEquals(monitor.getAttributeValueAsLong("ds-mon-connections-refused"), Long.valueOf(1));
            assertEquals(monitor.getAttributeValue("ds-mon-connections-refused-by-reason"), "connection_limit 1");
        }
    }

    private PrometheusText scrapeOf(TestServer s) throws Exception {
        HttpResponse<String> r = get(s.server(), "/metrics");
        assertEquals(r.statusCode(), 200, r.body());
        return PrometheusText.parse(r.body());
    }

    @Test
    public void operationAndConnectionCountsMoveByWhatTheClientDid() throws Exception {
        PrometheusText before = quietScrape();
        try (LDAPConnection c = server.connect()) {
            for (int i = 1; i <= 5; i++) {
                c.bind(TestServer.user(i), TestServer.USER_PASSWORD);
            }
            for (int i = 0; i < 3; i++) {
                c.search(TestServer.PEOPLE, SearchScope.ONE, "(uid=user.1)");
            }
            PrometheusText during = scrape();
            assertEquals(operations(during, "bind") - operations(before, "bind"), 5.0);
            assertEquals(operations(during, "search") - operations(before, "search"), 3.0);
            for (String untouched : List.of("compare", "add", "delete", "modify", "modify_dn", "extended")) {
                assertEquals(operations(during, untouched), operations(before, untouched), untouched);
            }
            assertEquals(during.value("ldap_connections_accepted_total")
                    - before.value("ldap_connections_accepted_total"), 1.0);
            assertEquals(during.value("ldap_connections_open"), 1.0);
            assertTrue(during.value("ldap_connections_open_peak") >= during.value("ldap_connections_open"));
            assertEquals(during.value("ldap_authenticated_dns"), 1.0, "the connection is bound as user.5");
        }
        PrometheusText after = quietScrape();
        assertEquals(after.value("ldap_authenticated_dns"), 0.0);
    }

    @Test
    public void theNumbersAreCnMonitorsOwn() throws Exception {
        server.bindAs(TestServer.user(7), TestServer.USER_PASSWORD).close(); // a bind entry for the cache
        try (LDAPConnection root = server.bindAs(TestServer.ROOT_DN, TestServer.ROOT_PASSWORD)) {
            SearchResultEntry monitor = root.getEntry("cn=monitor", "ds-mon-binds-completed", "totalConnections");
            SearchResultEntry caches = root.getEntry("cn=Credential Caches,cn=monitor", "ds-mon-bind-cache-entries");
            SearchResultEntry queue = root.getEntry("cn=Work Queue,cn=monitor", "ds-mon-worker-threads",
                    "ds-mon-slow-lane-threads");
            // The searches above are not binds and open no connection: these numbers stand still meanwhile.
            PrometheusText p = scrape();
            assertEquals((long) operations(p, "bind"),
                    (long) monitor.getAttributeValueAsLong("ds-mon-binds-completed"));
            assertEquals((long) p.value("ldap_connections_accepted_total"),
                    (long) monitor.getAttributeValueAsLong("totalConnections"));
            assertTrue(p.value("ldap_bind_cache_entries") > 0);
            assertEquals((long) p.value("ldap_bind_cache_entries"),
                    (long) caches.getAttributeValueAsLong("ds-mon-bind-cache-entries"));
            assertEquals((long) p.value("ldap_work_queue_threads"),
                    (long) queue.getAttributeValueAsLong("ds-mon-worker-threads"));
            assertEquals((long) p.value("ldap_slow_lane_threads"),
                    (long) queue.getAttributeValueAsLong("ds-mon-slow-lane-threads"));
        }
    }

    @Test
    public void everyFamilyHasItsTypeAndTheServerItsVersion() throws Exception {
        PrometheusText p = scrape();
        // The text format names a counter's family after its sample, with _total.
        Map<String, String> families = Map.ofEntries(
                Map.entry("ldap_operations_total", "counter"),
                Map.entry("ldap_connections_open", "gauge"),
                Map.entry("ldap_connections_open_peak", "gauge"),
                Map.entry("ldap_connections_accepted_total", "counter"),
                Map.entry("ldap_connections_refused_total", "counter"),
                Map.entry("ldap_bind_duration_seconds", "histogram"),
                Map.entry("ldap_verified_credentials_misses_total", "counter"),
                Map.entry("ldap_bind_cache_hits_total", "counter"),
                Map.entry("ldap_bind_cache_misses_total", "counter"),
                Map.entry("ldap_reads_parked_total", "counter"),
                Map.entry("ldap_work_queue_depth", "gauge"),
                Map.entry("ldap_slow_lane_depth", "gauge"),
                Map.entry("ldap_authenticated_dns", "gauge"),
                Map.entry("ldap_verified_credentials_hits_total", "counter"),
                Map.entry("ldap_bind_cache_entries", "gauge"),
                Map.entry("ldap_lockouts_total", "counter"),
                Map.entry("ldap_tls_handshakes_total", "counter"),
                Map.entry("ldap_tls_handshake_duration_seconds", "histogram"),
                Map.entry("ldap_server_uptime_seconds", "gauge"),
                Map.entry("ldap_server_info", "gauge"),
                Map.entry("jvm_memory_used_bytes", "gauge"),
                Map.entry("jvm_threads_current", "gauge"));
        families.forEach((name, type) -> assertEquals(p.type(name), type, name));
        assertEquals(p.value("ldap_server_info", "vendor", VirtualEntries.VENDOR_NAME,
                "version", VirtualEntries.VENDOR_VERSION), 1.0);
        double start = p.value("ldap_server_start_time_seconds");
        double now = System.currentTimeMillis() / 1000.0;
        assertTrue(start > now - 3600 && start <= now, start + " vs " + now);
        assertTrue(p.value("jvm_memory_used_bytes", "area", "heap") > 0);
    }

    @Test
    public void tlsHandshakesAndFailuresAreCountedByLabel() throws Exception {
        PrometheusText before = scrape();
        Path ca = server.instance().resolve("config/tls/ca.pem");
        SSLContext client = new SSLUtil(new PEMFileTrustManager(ca.toFile())).createSSLContext("TLSv1.3");
        try (LDAPConnection c = new LDAPConnection(client.getSocketFactory(), "localhost", server.ldapsPort())) {
            c.bind(TestServer.user(3), TestServer.USER_PASSWORD);
            PrometheusText during = scrape();
            assertEquals(during.value("ldap_tls_handshakes_total", "kind", "full")
                    - before.value("ldap_tls_handshakes_total", "kind", "full"), 1.0);
            assertEquals(during.value("ldap_tls_handshakes_started_total")
                    - before.value("ldap_tls_handshakes_started_total"), 1.0);
            assertEquals(during.value("ldap_tls_connections_open", "protocol", "TLSv1.3"), 1.0);
            assertEquals(during.value("ldap_tls_handshake_duration_seconds_count")
                    - before.value("ldap_tls_handshake_duration_seconds_count"), 1.0);
            assertEquals(during.value("ldap_tls_handshake_duration_seconds_bucket", "le", "+Inf"),
                    during.value("ldap_tls_handshake_duration_seconds_count"));
        }
        // Clear text where a TLS ClientHello belongs.
        try (Socket s = new Socket("127.0.0.1", server.ldapsPort())) {
            OutputStream out = s.getOutputStream();
            out.write("not a TLS handshake, just text\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            s.getInputStream().read();
        }
        double failedBefore = failures(before, "not_tls");
        Poll.until("the handshake failure is counted", Duration.ofSeconds(10),
                () -> failures(scrape(), "not_tls") == failedBefore + 1);
    }

    private static double failures(PrometheusText p, String reason) {
        return p.has("ldap_tls_handshake_failures_total")
                && p.samples().stream().anyMatch(s -> reason.equals(s.labels().get("reason")))
                ? p.value("ldap_tls_handshake_failures_total", "reason", reason) : 0;
    }

    @Test
    public void aLockoutIsCounted() throws Exception {
        PrometheusText before = scrape();
        try (LDAPConnection c = server.connect()) {
            for (int i = 0; i < LOCKOUT_FAILURES; i++) {
                expectThrows(LDAPException.class, () -> c.bind(TestServer.user(19), "wrong"));
            }
        }
        PrometheusText after = scrape();
        assertEquals(after.value("ldap_lockouts_total") - before.value("ldap_lockouts_total"), 1.0);
        assertEquals(operations(after, "bind") - operations(before, "bind"), LOCKOUT_FAILURES);
    }

    @Test
    public void aliveAndHealthyAnswerAndTheHealthProbeIsAnLdapSearch() throws Exception {
        HttpResponse<String> alive = get(server.server(), "/alive");
        assertEquals(alive.statusCode(), 200);
        assertEquals(alive.body(), "alive\n");
        PrometheusText before = scrape();
        HttpResponse<String> healthy = get(server.server(), "/healthy");
        assertEquals(healthy.statusCode(), 200, healthy.body());
        assertEquals(healthy.body(), "healthy\n");
        PrometheusText after = scrape();
        // The probe went through the LDAP listener as a client: one connection, one search.
        assertEquals(operations(after, "search") - operations(before, "search"), 1.0);
        assertEquals(after.value("ldap_connections_accepted_total")
                - before.value("ldap_connections_accepted_total"), 1.0);
    }

    @Test
    public void healthyIs503WithTheReasonWhenABackendDoesNotAnswer() throws Exception {
        try (TestServer broken = TestServer.start(0)) {
            assertEquals(get(broken.server(), "/healthy").statusCode(), 200);
            broken.server().context().backends().userBackends().get(0).close();
            HttpResponse<String> r = get(broken.server(), "/healthy");
            assertEquals(r.statusCode(), 503, r.body());
            assertTrue(r.body().startsWith("unhealthy: the backend of dc=example,dc=com did not answer a read: "),
                    r.body());
            assertEquals(r.body().indexOf('\n'), r.body().length() - 1, "one line");
            assertEquals(get(broken.server(), "/alive").statusCode(), 200);
        }
    }

    @Test
    public void theListenerIsOnLoopbackByDefaultAndOffWhenDisabled() throws Exception {
        InetSocketAddress a = server.server().httpMetricsAddress();
        assertEquals(a.getAddress().getHostAddress(), "127.0.0.1");
        assertTrue(a.getPort() > 0);
        try (TestServer off = TestServer.start(0, c -> c.withHttpMetrics(c.httpMetrics().withEnabled(false)))) {
            assertNull(off.server().httpMetricsAddress());
        }
    }

    @Test
    public void aTakenPortStopsTheStartWithAMessageAndReleasesTheRest() throws Exception {
        Path instance = Files.createTempDirectory("bindfirst-metrics-");
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            TestServer.copyConfig(instance);
            // The LDAP listener on a known port, to see that the failed start let it go.
            int ldapPort;
            try (ServerSocket free = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
                ldapPort = free.getLocalPort();
            }
            ServerConfig c = TestServer.withFreePorts(ConfigLoader.load(instance.resolve("config/config.ldif"),
                    instance)).withListenPort(ldapPort);
            ServerConfig clash = c.withHttpMetrics(c.httpMetrics().withPort(taken.getLocalPort()));
            ServerStartException e = expectThrows(ServerStartException.class, () -> DirectoryServer.start(clash));
            assertTrue(e.getMessage().startsWith(ServerConfig.HttpMetrics.ENTRY + ": cannot listen on 127.0.0.1:"
                    + taken.getLocalPort() + ": "), e.getMessage());
            // The LDAP listener and the database were closed: the same instance starts again on the same port.
            try (DirectoryServer again = DirectoryServer.start(c)) {
                assertEquals(again.ldapAddress().getPort(), ldapPort);
                assertTrue(again.httpMetricsAddress().getPort() > 0);
            }
        } finally {
            TestServer.deleteTree(instance);
        }
    }
}
