package io.bindfirst.it.ops;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertFalse;
import static org.testng.Assert.assertNotNull;
import static org.testng.Assert.assertTrue;
import static org.testng.Assert.expectThrows;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import javax.net.ssl.SSLContext;

import org.testng.annotations.AfterClass;
import org.testng.annotations.BeforeClass;
import org.testng.annotations.Test;

import com.unboundid.ldap.sdk.Attribute;
import com.unboundid.ldap.sdk.CompareRequest;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.LDAPSearchException;
import com.unboundid.ldap.sdk.Modification;
import com.unboundid.ldap.sdk.ModificationType;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.SearchRequest;
import com.unboundid.ldap.sdk.SearchResult;
import com.unboundid.ldap.sdk.SearchResultEntry;
import com.unboundid.ldap.sdk.SearchScope;
import com.unboundid.util.ssl.PEMFileTrustManager;
import com.unboundid.util.ssl.SSLUtil;

import io.bindfirst.it.support.LdapTools;
import io.bindfirst.it.support.TestServer;
import io.bindfirst.server.testsupport.Poll;
import io.bindfirst.server.virtual.VirtualEntries;

/**
 * The {@code cn=monitor} subtree over LDAP: root users read it like any entries (every scope, filters, attribute
 * selection), everyone else is refused as for {@code cn=config}, its numbers are read live, and it cannot be
 * written.
 */
public class MonitorTest {
    private static final String MONITOR = "cn=monitor";
    private static final String TLS = "cn=TLS,cn=monitor";
    private static final String WORK_QUEUE = "cn=Work Queue,cn=monitor";
    private static final String AUTHENTICATED = "cn=Authenticated Users,cn=monitor";
    private static final String CACHES = "cn=Credential Caches,cn=monitor";
    private static final String JVM = "cn=JVM,cn=monitor";
    private static final String PASSWORD_POLICY = "cn=Password Policy,cn=monitor";
    private static final String BIND_TIMES = "cn=Bind Times,cn=monitor";
    private static final Set<String> CHILDREN = Set.of(TLS, WORK_QUEUE, AUTHENTICATED, CACHES, BIND_TIMES,
            PASSWORD_POLICY, JVM);

    private TestServer server;
    private LDAPConnection root;
    private Path ca;

    @BeforeClass
    public void start() throws Exception {
        server = TestServer.start(20);
        root = server.bindAs(TestServer.ROOT_DN, TestServer.ROOT_PASSWORD);
        ca = server.instance().resolve("config/tls/ca.pem");
    }

    @AfterClass(alwaysRun = true)
    public void stop() {
        if (root != null) {
            root.close();
        }
        if (server != null) {
            server.close();
        }
    }

    private static Set<String> dns(SearchResult r) {
        Set<String> out = new TreeSet<>();
        for (SearchResultEntry e : r.getSearchEntries()) {
            out.add(e.getDN());
        }
        return out;
    }

    private long read(String dn, String attribute) throws LDAPException {
        SearchResultEntry e = root.getEntry(dn, attribute);
        assertNotNull(e, dn);
        Long value = e.getAttributeValueAsLong(attribute);
        assertNotNull(value, dn + " has no integer " + attribute + ": " + e);
        return value;
    }

    @Test
    public void rootReadsTheSubtreeInEveryScope() throws Exception {
        // vendorName and vendorVersion are operational (RFC 3045), as in the root DSE: asked for with "+".
        SearchResult base = root.search(MONITOR, SearchScope.BASE, "(objectClass=*)", "*", "+");
        assertEquals(dns(base), Set.of(MONITOR));
        SearchResultEntry monitor = base.getSearchEntries().get(0);
        assertTrue(monitor.hasObjectClass("ds-monitor-entry"), monitor.toLDIFString());
        assertEquals(monitor.getAttributeValue("cn"), "monitor");
        assertEquals(monitor.getAttributeValue("vendorName"), VirtualEntries.VENDOR_NAME);
        assertEquals(monitor.getAttributeValue("vendorVersion"), VirtualEntries.VENDOR_VERSION);
        assertNotNull(monitor.getAttributeValueAsDate("startTime"), monitor.toLDIFString());
        assertNotNull(monitor.getAttributeValueAsDate("currentTime"), monitor.toLDIFString());
        assertTrue(monitor.getAttributeValueAsLong("currentConnections") >= 1, monitor.toLDIFString());

        assertEquals(dns(root.search(MONITOR, SearchScope.ONE, "(objectClass=*)")), new TreeSet<>(CHILDREN));
        Set<String> all = new TreeSet<>(CHILDREN);
        all.add(MONITOR);
        assertEquals(dns(root.search(MONITOR, SearchScope.SUB, "(objectClass=*)")), all);
        assertEquals(dns(root.search(TLS, SearchScope.BASE, "(objectClass=*)")), Set.of(TLS));
        assertEquals(dns(root.search(TLS, SearchScope.ONE, "(objectClass=*)")), Set.of());

        LDAPSearchException missing = expectThrows(LDAPSearchException.class,
                () -> root.search("cn=Nothing,cn=monitor", SearchScope.BASE, "(objectClass=*)"));
        assertEquals(missing.getResultCode(), ResultCode.NO_SUCH_OBJECT);
        assertEquals(missing.getMatchedDN(), MONITOR);
    }

    @Test
    public void filtersCompareTheValues() throws Exception {
        // Integers compare as integers (ordering rule), strings by their equality rule.
        assertEquals(dns(root.search(MONITOR, SearchScope.SUB, "(ds-mon-worker-threads>=1)")), Set.of(WORK_QUEUE));
        assertEquals(dns(root.search(MONITOR, SearchScope.SUB, "(ds-mon-worker-threads<=0)")), Set.of());
        assertEquals(dns(root.search(MONITOR, SearchScope.SUB, "(|(cn=JVM)(cn=tls))")), Set.of(JVM, TLS));
        assertEquals(dns(root.search(MONITOR, SearchScope.SUB, "(&(objectClass=ds-monitor-entry)(upTime>=0))")),
                Set.of(MONITOR));
        assertEquals(dns(root.search(MONITOR, SearchScope.SUB, "(ds-mon-tls-handshake-time-histogram=inf *)")),
                Set.of(TLS));
    }

    @Test
    public void attributeSelectionWorksAsOnAnyEntry() throws Exception {
        SearchResultEntry heap = root.getEntry(JVM, "ds-mon-jvm-heap-used");
        assertEquals(heap.getAttributes().size(), 1, heap.toLDIFString());
        assertTrue(heap.getAttributeValueAsLong("ds-mon-jvm-heap-used") > 0, heap.toLDIFString());

        SearchResultEntry none = root.searchForEntry(JVM, SearchScope.BASE, "(objectClass=*)", "1.1");
        assertEquals(none.getAttributes().size(), 0, none.toLDIFString());

        SearchRequest request = new SearchRequest(WORK_QUEUE, SearchScope.BASE, "(objectClass=*)",
                "ds-mon-worker-threads");
        request.setTypesOnly(true);
        Attribute type = root.search(request).getSearchEntries().get(0).getAttribute("ds-mon-worker-threads");
        assertNotNull(type, "types only: the type");
        assertEquals(type.size(), 0, "types only: no values");
        assertEquals(read(WORK_QUEUE, "ds-mon-worker-threads"),
                server.server().context().config().workQueue().workerThreads());

        SearchResultEntry everything = root.getEntry(JVM);
        for (String a : List.of("ds-mon-jvm-heap-used", "ds-mon-jvm-heap-committed", "ds-mon-jvm-heap-max",
                "ds-mon-jvm-gc-count", "ds-mon-jvm-gc-time", "ds-mon-jvm-threads", "ds-mon-jvm-peak-threads")) {
            assertNotNull(everything.getAttributeValueAsLong(a), a + " in " + everything.toLDIFString());
        }
    }

    @Test
    public void anonymousAndUsersCannotReadIt() throws Exception {
        try (LDAPConnection anonymous = server.connect();
             LDAPConnection user = server.bindAs(TestServer.user(3), TestServer.USER_PASSWORD)) {
            for (LDAPConnection c : List.of(anonymous, user)) {
                for (String base : List.of(MONITOR, TLS)) {
                    for (SearchScope scope : List.of(SearchScope.BASE, SearchScope.ONE, SearchScope.SUB)) {
                        LDAPSearchException e = expectThrows(LDAPSearchException.class,
                                () -> c.search(base, scope, "(objectClass=*)"));
                        assertEquals(e.getResultCode(), ResultCode.INSUFFICIENT_ACCESS_RIGHTS, base + " " + scope);
                        assertEquals(e.getEntryCount(), 0);
                    }
                }
                // A compare answers as if the entry did not exist, as for cn=config.
                LDAPException compare = expectThrows(LDAPException.class,
                        () -> c.compare(new CompareRequest(MONITOR, "cn", "monitor")));
                assertEquals(compare.getResultCode(), ResultCode.NO_SUCH_OBJECT);
                // And a search of everything never reaches it (it is not a naming context).
                assertFalse(dns(c.search("", SearchScope.SUB, "(objectClass=ds-monitor-entry)")).contains(MONITOR));
            }
        }
        assertTrue(root.compare(new CompareRequest(MONITOR, "cn", "monitor")).compareMatched());
    }

    @Test
    public void connectionAndOperationCountsMove() throws Exception {
        long total = read(MONITOR, "totalConnections");
        long open = read(MONITOR, "currentConnections");
        long binds = read(MONITOR, "ds-mon-binds-completed");
        long dnsBound = read(AUTHENTICATED, "ds-mon-authenticated-dns");
        long searches = read(MONITOR, "ds-mon-searches-completed"); // counted when it finishes, after this value
        try (LDAPConnection user = server.bindAs(TestServer.user(7), TestServer.USER_PASSWORD)) {
            assertEquals(read(MONITOR, "totalConnections"), total + 1);
            assertEquals(read(MONITOR, "currentConnections"), open + 1);
            assertTrue(read(MONITOR, "maxConnections") >= open + 1);
            assertEquals(read(MONITOR, "ds-mon-binds-completed"), binds + 1);
            assertEquals(read(AUTHENTICATED, "ds-mon-authenticated-dns"), dnsBound + 1);
            // That read and the five above: each a search, each counted once it finished.
            assertEquals(read(MONITOR, "ds-mon-searches-completed"), searches + 6);
            assertTrue(read(CACHES, "ds-mon-bind-cache-entries") >= 1, "the user's bind entry is cached");
        }
        Poll.until("the closed connection no longer counted", Duration.ofSeconds(10),
                () -> read(MONITOR, "currentConnections") == open);
        Poll.until("the closed connection's DN no longer registered", Duration.ofSeconds(10),
                () -> read(AUTHENTICATED, "ds-mon-authenticated-dns") == dnsBound);
        assertEquals(read(MONITOR, "totalConnections"), total + 1);
    }

    /** The count in the value of {@code attribute} that starts with {@code key} and a space; 0 when none does. */
    private long keyed(String dn, String attribute, String key) throws LDAPException {
        SearchResultEntry e = root.getEntry(dn, attribute);
        String[] values = e.getAttributeValues(attribute);
        for (String v : values == null ? new String[0] : values) {
            if (v.startsWith(key + " ")) {
                String rest = v.substring(key.length() + 1);
                return Long.parseLong(rest.startsWith("count=") ? rest.substring(6, rest.indexOf(' ')) : rest);
            }
        }
        return 0;
    }

    @Test
    public void aWrongPasswordMovesItsResultTheBindTimesAndTheBindCache() throws Exception {
        long invalid = keyed(MONITOR, "ds-mon-operations-by-result", "bind invalidCredentials");
        long succeeded = keyed(MONITOR, "ds-mon-operations-by-result", "bind success");
        long timedNone = keyed(BIND_TIMES, "ds-mon-bind-times", "none invalidCredentials");
        long timedSsha = keyed(BIND_TIMES, "ds-mon-bind-times", "SSHA success");
        long timed = read(BIND_TIMES, "ds-mon-binds-timed");
        long hits = read(CACHES, "ds-mon-bind-cache-hits");
        try (LDAPConnection c = server.connect()) {
            LDAPException wrong = expectThrows(LDAPException.class, () -> c.bind(TestServer.user(11), "wrong"));
            assertEquals(wrong.getResultCode(), ResultCode.INVALID_CREDENTIALS);
            c.bind(TestServer.user(11), TestServer.USER_PASSWORD);
        }
        assertEquals(keyed(MONITOR, "ds-mon-operations-by-result", "bind invalidCredentials"), invalid + 1);
        assertEquals(keyed(MONITOR, "ds-mon-operations-by-result", "bind success"), succeeded + 1);
        assertEquals(keyed(BIND_TIMES, "ds-mon-bind-times", "none invalidCredentials"), timedNone + 1);
        assertEquals(keyed(BIND_TIMES, "ds-mon-bind-times", "SSHA success"), timedSsha + 1);
        assertEquals(read(BIND_TIMES, "ds-mon-binds-timed"), timed + 2);
        // The wrong password's read put the entry in the bind cache, and the right one found it there.
        assertEquals(read(CACHES, "ds-mon-bind-cache-hits"), hits + 1);
        SearchResultEntry times = root.getEntry(BIND_TIMES);
        long inBuckets = 0;
        for (String v : times.getAttributeValues("ds-mon-bind-time-histogram")) {
            inBuckets += Long.parseLong(v.substring(v.indexOf(' ') + 1));
        }
        assertEquals(inBuckets, (long) times.getAttributeValueAsLong("ds-mon-binds-timed"), times.toLDIFString());
        assertEquals(read(MONITOR, "ds-mon-binds-completed"), inBuckets, "every bind is timed once");
    }

    @Test
    public void upTimeAndCurrentTimeAreComputedWhenRead() throws Exception {
        SearchResultEntry first = root.getEntry(MONITOR, "currentTime", "upTime", "startTime");
        Thread.sleep(1_100);
        SearchResultEntry second = root.getEntry(MONITOR, "currentTime", "upTime", "startTime");
        assertEquals(second.getAttributeValue("startTime"), first.getAttributeValue("startTime"));
        assertTrue(second.getAttributeValueAsDate("currentTime").getTime()
                - first.getAttributeValueAsDate("currentTime").getTime() >= 1_000, second.toLDIFString());
        assertTrue(second.getAttributeValueAsLong("upTime") > first.getAttributeValueAsLong("upTime"),
                first.toLDIFString() + second.toLDIFString());
    }

    @Test
    public void tlsHandshakesAreCountedFullThenResumed() throws Exception {
        long started = read(TLS, "ds-mon-tls-handshakes-started");
        long full = read(TLS, "ds-mon-tls-handshakes-full");
        long resumed = read(TLS, "ds-mon-tls-handshakes-resumed");
        // TLS 1.2 with the JDK on both sides: one client context carries the session to the second connection.
        SSLContext client = new SSLUtil(new PEMFileTrustManager(ca.toFile())).createSSLContext("TLSv1.2");
        try (LDAPConnection first = new LDAPConnection(client.getSocketFactory(), "localhost", server.ldapsPort())) {
            first.bind(TestServer.user(1), TestServer.USER_PASSWORD);
            assertEquals(read(TLS, "ds-mon-tls-handshakes-started"), started + 1);
            assertEquals(read(TLS, "ds-mon-tls-handshakes-full"), full + 1);
            assertEquals(read(TLS, "ds-mon-tls-handshakes-resumed"), resumed);
            SearchResultEntry tls = root.getEntry(TLS);
            assertTrue(List.of(tls.getAttributeValues("ds-mon-tls-connections-by-protocol")).contains("TLSv1.2 1"),
                    tls.toLDIFString());
            assertEquals(tls.getAttributeValueAsLong("ds-mon-tls-connections"), Long.valueOf(1));
            long inBuckets = 0;
            for (String v : tls.getAttributeValues("ds-mon-tls-handshake-time-histogram")) {
                inBuckets += Long.parseLong(v.substring(v.indexOf(' ') + 1));
            }
            assertEquals(inBuckets, full + resumed + 1, "every finished handshake is in a bucket");
        }
        try (LDAPConnection second = new LDAPConnection(client.getSocketFactory(), "localhost", server.ldapsPort())) {
            second.bind(TestServer.user(2), TestServer.USER_PASSWORD);
            assertEquals(read(TLS, "ds-mon-tls-handshakes-full"), full + 1);
            assertEquals(read(TLS, "ds-mon-tls-handshakes-resumed"), resumed + 1);
        }
    }

    @Test
    public void writesAreRefused() throws Exception {
        LDAPException modify = expectThrows(LDAPException.class, () -> root.modify(MONITOR,
                new Modification(ModificationType.REPLACE, "upTime", "0")));
        assertEquals(modify.getResultCode(), ResultCode.UNWILLING_TO_PERFORM);
        assertEquals(modify.getDiagnosticMessage(), "cn=monitor is read-only");
        LDAPException add = expectThrows(LDAPException.class, () -> root.add(new Entry("cn=New,cn=monitor",
                new Attribute("objectClass", "top", "ds-monitor-entry"), new Attribute("cn", "New"))));
        assertEquals(add.getResultCode(), ResultCode.UNWILLING_TO_PERFORM);
        assertEquals(expectThrows(LDAPException.class, () -> root.delete(JVM)).getResultCode(),
                ResultCode.UNWILLING_TO_PERFORM);
        assertEquals(expectThrows(LDAPException.class, () -> root.modifyDN(JVM, "cn=Java", true)).getResultCode(),
                ResultCode.UNWILLING_TO_PERFORM);
        // A user is told what root is: the entries cannot be written by anyone (access is decided on the entry
        // as stored, which a read-only backend never offers for writing).
        try (LDAPConnection user = server.bindAs(TestServer.user(5), TestServer.USER_PASSWORD)) {
            assertEquals(expectThrows(LDAPException.class, () -> user.modify(MONITOR,
                    new Modification(ModificationType.REPLACE, "upTime", "0"))).getResultCode(),
                    ResultCode.UNWILLING_TO_PERFORM);
        }
        assertNotNull(root.getEntry(JVM), "still there");
    }

    @Test
    public void theRootDseNamesTheMonitorAsOpenDjDoes() throws Exception {
        try (LDAPConnection anonymous = server.connect()) {
            SearchResultEntry dse = anonymous.searchForEntry("", SearchScope.BASE, "(objectClass=*)",
                    "ds-private-naming-contexts");
            assertEquals(new TreeSet<>(List.of(dse.getAttributeValues("ds-private-naming-contexts"))),
                    new TreeSet<>(List.of("cn=config", MONITOR, "cn=schema")), dse.toLDIFString());
            // Operational: not among the user attributes, and not a naming context.
            SearchResultEntry user = anonymous.searchForEntry("", SearchScope.BASE, "(objectClass=*)");
            assertFalse(user.hasAttribute("ds-private-naming-contexts"), user.toLDIFString());
            assertFalse(List.of(anonymous.getRootDSE().getNamingContextDNs()).contains(MONITOR));
        }
    }

    @Test
    public void ldapsearchAsRootGetsTheEntries() throws Exception {
        LdapTools.require("ldapsearch");
        LdapTools.Run r = LdapTools.run("ldapsearch", "-x", "-LLL", "-H", "ldap://127.0.0.1:" + server.port(),
                "-D", TestServer.ROOT_DN, "-w", TestServer.ROOT_PASSWORD, "-b", MONITOR);
        assertEquals(r.exit(), 0, r.output());
        for (String dn : List.of(MONITOR, TLS, WORK_QUEUE, AUTHENTICATED, CACHES, JVM)) {
            assertTrue(r.output().contains("dn: " + dn + "\n"), dn + " in\n" + r.output());
        }
        assertTrue(r.output().contains("\nstartTime: "), r.output());
        assertTrue(r.output().contains("\nds-mon-worker-threads: "), r.output());

        LdapTools.Run anonymous = LdapTools.run("ldapsearch", "-x", "-LLL", "-H",
                "ldap://127.0.0.1:" + server.port(), "-b", MONITOR);
        assertEquals(anonymous.exit(), 50, anonymous.output()); // insufficientAccessRights
    }
}
