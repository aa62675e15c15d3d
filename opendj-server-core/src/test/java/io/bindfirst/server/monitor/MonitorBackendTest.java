package io.bindfirst.server.monitor;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertFalse;
import static org.testng.Assert.assertNull;
import static org.testng.Assert.assertTrue;
import static org.testng.Assert.expectThrows;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.security.SecureRandom;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

import org.forgerock.opendj.ldap.DN;
import org.forgerock.opendj.ldap.Entry;
import org.forgerock.opendj.ldap.Filter;
import org.forgerock.opendj.ldap.LinkedHashMapEntry;
import org.forgerock.opendj.ldap.ResultCode;
import org.forgerock.opendj.ldap.SearchScope;
import org.forgerock.opendj.ldap.schema.Schema;
import org.testng.annotations.BeforeClass;
import org.testng.annotations.Test;

import io.bindfirst.server.cache.LookupCache;
import io.bindfirst.server.stats.OperationCounts;
import io.bindfirst.server.backend.BackendException;
import io.bindfirst.server.net.ClientConnections;
import io.bindfirst.server.plugin.OperationType;
import io.bindfirst.server.pwd.PasswordSchemes;
import io.bindfirst.server.pwd.VerifiedCredentials;
import io.bindfirst.server.schema.SchemaLoader;

public class MonitorBackendTest {
    private static final DN CHILD = MonitorBackend.BASE_DN.child("cn", "Child");

    private Schema schema;

    /** An entry whose one value is a counter, and which counts how often it was built. */
    private static final class Counting implements MonitorEntry {
        final DN name;
        final AtomicLong value = new AtomicLong();
        int built;

        Counting(DN name) {
            this.name = name;
        }

        @Override
        public DN name() {
            return name;
        }

        @Override
        public void addValues(MonitorValues out) {
            built++;
            out.add("ds-mon-worker-threads", value.get());
        }
    }

    @BeforeClass
    public void loadSchema() throws Exception {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            Path candidate = dir.resolve("config").resolve("schema");
            if (Files.isRegularFile(candidate.resolve("90-bindfirst.ldif"))) {
                schema = SchemaLoader.load(candidate);
                return;
            }
        }
        throw new AssertionError("config/schema not found above " + Path.of("").toAbsolutePath());
    }

    private static List<Entry> search(MonitorBackend b, DN base, SearchScope scope) throws BackendException {
        List<Entry> out = new ArrayList<>();
        b.search(base, scope, Filter.alwaysTrue(), out::add);
        return out;
    }

    @Test
    public void valuesAreReadWhenAnEntryIsBuiltAndOnlyEntriesInScopeAreBuilt() throws Exception {
        Counting top = new Counting(MonitorBackend.BASE_DN);
        Counting child = new Counting(CHILD);
        MonitorBackend b = new MonitorBackend(schema, List.of(top, child));

        child.value.set(7);
        Entry e = b.getEntry(CHILD);
        assertEquals(e.parseAttribute("ds-mon-worker-threads").asLong(), Long.valueOf(7));
        assertEquals(e.parseAttribute("cn").asString(), "Child");
        assertTrue(e.containsAttribute("objectClass", "ds-monitor-entry"));
        child.value.set(8);
        assertEquals(b.getEntry(CHILD).parseAttribute("ds-mon-worker-threads").asLong(), Long.valueOf(8));

        int topBuilt = top.built;
        assertEquals(search(b, CHILD, SearchScope.BASE_OBJECT).size(), 1);
        assertEquals(search(b, MonitorBackend.BASE_DN, SearchScope.SINGLE_LEVEL).size(), 1);
        assertEquals(top.built, topBuilt, "out of scope: not built");
        assertEquals(search(b, MonitorBackend.BASE_DN, SearchScope.WHOLE_SUBTREE).size(), 2);
        assertEquals(top.built, topBuilt + 1);

        assertTrue(b.hasSubordinates(MonitorBackend.BASE_DN));
        assertFalse(b.hasSubordinates(CHILD));
        assertTrue(b.entryExists(CHILD));
        assertNull(b.getEntry(MonitorBackend.BASE_DN.child("cn", "Nothing")));
        BackendException missing = expectThrows(BackendException.class,
                () -> search(b, MonitorBackend.BASE_DN.child("cn", "Nothing"), SearchScope.BASE_OBJECT));
        assertEquals(missing.resultCode(), ResultCode.NO_SUCH_OBJECT);
    }

    @Test
    public void everyWriteIsUnwillingToPerform() {
        MonitorBackend b = new MonitorBackend(schema, List.of(new Counting(MonitorBackend.BASE_DN)));
        List<BackendException> refusals = List.of(
                expectThrows(BackendException.class, () -> b.addEntry(new LinkedHashMapEntry(CHILD))),
                expectThrows(BackendException.class, () -> b.modifyEntry(MonitorBackend.BASE_DN, x -> x)),
                expectThrows(BackendException.class, () -> b.deleteEntry(MonitorBackend.BASE_DN, true)),
                expectThrows(BackendException.class, () -> b.renameEntry(MonitorBackend.BASE_DN, CHILD, x -> x)));
        for (BackendException e : refusals) {
            assertEquals(e.resultCode(), ResultCode.UNWILLING_TO_PERFORM);
            assertEquals(e.getMessage(), "cn=monitor is read-only");
        }
        BackendException imported = expectThrows(BackendException.class,
                () -> b.maintenance().importEntries(List.<Entry>of().iterator()));
        assertEquals(imported.resultCode(), ResultCode.UNWILLING_TO_PERFORM, "no storage of its own to import into");
    }

    @Test
    public void theFirstEntryMustBeCnMonitor() {
        expectThrows(IllegalArgumentException.class, () -> new MonitorBackend(schema, List.of(new Counting(CHILD))));
    }

    /**
     * The entries whose values arrived with the operations' results and the bind times: every attribute is one the
     * schema defines (a strict schema refuses the others), and each moves with what it counts.
     */
    @Test
    public void resultsBindTimesAndCacheCountsMoveWithWhatTheyCount() throws Exception {
        OperationCounts operations = new OperationCounts();
        VerifiedCredentials verified = new VerifiedCredentials(10, new SecureRandom());
        LookupCache lookups = new LookupCache(10);
        try (ClientConnections connections = new ClientConnections(5, 0)) {
            MonitorBackend b = new MonitorBackend(schema, List.of(
                    new ServerMonitor(0, () -> 1_000, connections, operations),
                    new CredentialCachesMonitor(verified, () -> 2, () -> 3, () -> 4, lookups),
                    new BindTimesMonitor(operations.bindTimes())));
            DN times = MonitorBackend.BASE_DN.child("cn", "Bind Times");
            assertEquals(b.getEntry(times).parseAttribute("ds-mon-binds-timed").asLong(), Long.valueOf(0));
            assertNull(b.getEntry(times).getAttribute("ds-mon-bind-times"), "no binds: no series");

            int ssha512 = PasswordSchemes.schemeLabels().indexOf("SSHA512");
            operations.completed(OperationType.BIND, ResultCode.INVALID_CREDENTIALS);
            operations.bindTimes().record(PasswordSchemes.NO_MATCH, ResultCode.INVALID_CREDENTIALS, 40_000);
            operations.bindTimes().record(ssha512, ResultCode.SUCCESS, 20_000);
            operations.bindTimes().record(ssha512, ResultCode.SUCCESS, 20_000);
            Entry e = b.getEntry(times);
            assertEquals(e.parseAttribute("ds-mon-binds-timed").asLong(), Long.valueOf(3));
            assertEquals(e.parseAttribute("ds-mon-bind-times").asSetOfString(), Set.of(
                    "none invalidCredentials count=1 p50=50 p90=50 p99=50 total=40",
                    "SSHA512 success count=2 p50=25 p90=25 p99=25 total=40"));
            assertTrue(e.parseAttribute("ds-mon-bind-time-histogram").asSetOfString().containsAll(
                    Set.of("25 2", "50 1", "inf 0")), e.toString());

            Entry server = b.getEntry(MonitorBackend.BASE_DN);
            assertTrue(server.parseAttribute("ds-mon-operations-by-result").asSetOfString()
                    .contains("bind invalidCredentials 1"), server.toString());
            assertEquals(server.parseAttribute("ds-mon-connections-refused").asLong(), Long.valueOf(0));
            assertEquals(server.parseAttribute("ds-mon-connections-refused-by-reason").asString(),
                    "connection_limit 0");

            verified.answered(false);
            Entry caches = b.getEntry(MonitorBackend.BASE_DN.child("cn", "Credential Caches"));
            assertEquals(caches.parseAttribute("ds-mon-verified-credentials-misses").asLong(), Long.valueOf(1));
            assertEquals(caches.parseAttribute("ds-mon-bind-cache-hits").asLong(), Long.valueOf(3));
            assertEquals(caches.parseAttribute("ds-mon-bind-cache-misses").asLong(), Long.valueOf(4));
            lookups.missed();
            caches = b.getEntry(MonitorBackend.BASE_DN.child("cn", "Credential Caches"));
            assertEquals(caches.parseAttribute("ds-mon-lookup-cache-misses").asLong(), Long.valueOf(1));
            assertEquals(caches.parseAttribute("ds-mon-lookup-cache-hits").asLong(), Long.valueOf(0));
            assertEquals(caches.parseAttribute("ds-mon-lookup-cache-entries").asLong(), Long.valueOf(0));
        }
    }
}
