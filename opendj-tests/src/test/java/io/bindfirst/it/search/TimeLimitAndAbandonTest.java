package io.bindfirst.it.search;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertTrue;
import static org.testng.Assert.expectThrows;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.testng.annotations.AfterClass;
import org.testng.annotations.BeforeClass;
import org.testng.annotations.Test;

import com.unboundid.ldap.sdk.AsyncRequestID;
import com.unboundid.ldap.sdk.AsyncSearchResultListener;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPSearchException;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.SearchRequest;
import com.unboundid.ldap.sdk.SearchResult;
import com.unboundid.ldap.sdk.SearchResultEntry;
import com.unboundid.ldap.sdk.SearchResultReference;
import com.unboundid.ldap.sdk.SearchScope;

import io.bindfirst.it.support.SlowSearchBackendProvider;
import io.bindfirst.it.support.TestServer;
import io.bindfirst.server.config.ServerConfig;
import io.bindfirst.server.testsupport.Poll;

/**
 * Time limits (RFC 4511 4.5.1.5) and abandon (4.11) on searches that take seconds: the backend is the
 * real JE one, slowed by {@link SlowSearchBackendProvider} to 20 ms per candidate.
 */
public class TimeLimitAndAbandonTest {
    private static final int USERS = 300; // 300 x 20 ms = 6 s for a full walk
    private TestServer server;

    @BeforeClass
    public void start() throws Exception {
        server = TestServer.start(USERS, c -> c.withLimits(new ServerConfig.Limits(0, 1, 0))
                .withBackendType("userRoot", SlowSearchBackendProvider.TYPE));
    }

    @AfterClass(alwaysRun = true)
    public void stop() {
        server.close();
    }

    @Test(timeOut = 30_000)
    public void serverTimeLimitStopsAUsersSearch() throws Exception {
        try (LDAPConnection c = server.connect()) {
            long t0 = System.nanoTime();
            LDAPSearchException e = expectThrows(LDAPSearchException.class,
                    () -> c.search(TestServer.PEOPLE, SearchScope.ONE, "(objectClass=person)", "1.1"));
            long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
            assertEquals(e.getResultCode(), ResultCode.TIME_LIMIT_EXCEEDED);
            assertTrue(e.getEntryCount() > 0 && e.getEntryCount() < USERS, "entries: " + e.getEntryCount());
            assertTrue(ms < 5_000, "the 1 s limit let the search run " + ms + " ms");
        }
    }

    @Test(timeOut = 30_000)
    public void requestTimeLimitAppliesToRootWhoHasNoServerLimit() throws Exception {
        try (LDAPConnection root = server.bindAs(TestServer.ROOT_DN, TestServer.ROOT_PASSWORD)) {
            SearchRequest req = new SearchRequest(TestServer.PEOPLE, SearchScope.ONE, "(objectClass=person)", "1.1");
            req.setTimeLimitSeconds(1);
            LDAPSearchException e = expectThrows(LDAPSearchException.class, () -> root.search(req));
            assertEquals(e.getResultCode(), ResultCode.TIME_LIMIT_EXCEEDED);
            // Without a request limit root is not bound by the server's 1 s: this unindexed filter walks
            // all 300 candidates (about 6 s) and succeeds.
            SearchRequest unlimited = new SearchRequest(TestServer.PEOPLE, SearchScope.ONE,
                    "(|(employeeNumber=1*)(employeeNumber=2*))", "1.1");
            SearchResult r = root.search(unlimited);
            assertEquals(r.getResultCode(), ResultCode.SUCCESS);
        }
    }

    @Test(timeOut = 30_000)
    public void abandonStopsASearchAndTheConnectionGoesOn() throws Exception {
        try (LDAPConnection root = server.bindAs(TestServer.ROOT_DN, TestServer.ROOT_PASSWORD)) {
            AtomicInteger entries = new AtomicInteger();
            AsyncSearchResultListener listener = new AsyncSearchResultListener() {
                @Override
                public void searchEntryReturned(SearchResultEntry entry) {
                    entries.incrementAndGet();
                }

                @Override
                public void searchReferenceReturned(SearchResultReference reference) {
                }

                @Override
                public void searchResultReceived(AsyncRequestID id, SearchResult result) {
                }
            };
            AsyncRequestID id = root.asyncSearch(new SearchRequest(listener, TestServer.PEOPLE, SearchScope.ONE,
                    "(objectClass=person)", "1.1"));
            Poll.until("the search to return entries", Duration.ofSeconds(10), () -> entries.get() > 0);
            root.abandon(id);
            int atAbandon = entries.get();
            Thread.sleep(1_000); // the time for 50 more entries, had the search gone on
            // At most a few more arrive (already in flight), far from the 300 of a full walk.
            assertTrue(entries.get() < atAbandon + 10, "entries kept coming: " + atAbandon + " then " + entries.get());
            assertTrue(entries.get() < USERS);
            assertEquals(root.getEntry(TestServer.user(1), "1.1").getDN(), TestServer.user(1));
        }
    }
}
