package io.bindfirst.it.ops;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertTrue;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import org.testng.annotations.AfterClass;
import org.testng.annotations.BeforeClass;
import org.testng.annotations.Test;

import com.unboundid.ldap.protocol.AbandonRequestProtocolOp;
import com.unboundid.ldap.protocol.LDAPMessage;

import io.bindfirst.it.support.RawLdap;
import io.bindfirst.it.support.SlowSearchBackendProvider;
import io.bindfirst.it.support.TestServer;
import io.bindfirst.server.testsupport.Poll;

/**
 * Operations in flight on one connection, on JE slowed to 20 ms per candidate
 * ({@link SlowSearchBackendProvider}: an unindexed search over 50 entries takes about a second):
 * the per-connection limit on outstanding operations (set to 2), unbind with
 * operations in flight and abandon of what is not in flight (RFC 4511 4.3, 4.11).
 */
public class InFlightOperationsTest {
    private static final int USERS = 50;
    private TestServer server;

    @BeforeClass
    public void start() throws Exception {
        server = TestServer.start(USERS, c -> c
                .withListener(c.listener().withMaxConcurrentOpsPerConnection(2))
                .withWorkQueue(c.workQueue().withWorkerThreads(6))
                .withBackendType("userRoot", SlowSearchBackendProvider.TYPE));
    }

    @AfterClass(alwaysRun = true)
    public void stop() {
        server.close();
    }

    @Test(timeOut = 60_000)
    public void aConnectionRunsAtMostItsLimitOfOperationsAtOnce() throws Exception {
        SlowSearchBackendProvider.resetCounters();
        try (RawLdap c = rootConnection()) {
            // Five searches at once, with six workers free: only two may run together.
            for (int id = 2; id <= 6; id++) {
                c.send(RawLdap.search(id, TestServer.PEOPLE, "(description=nothing " + id + ")"));
            }
            for (int i = 0; i < 5; i++) {
                assertEquals(c.read(LDAPMessage.PROTOCOL_OP_TYPE_SEARCH_RESULT_DONE)
                        .getSearchResultDoneProtocolOp().getResultCode(), 0);
            }
        }
        assertEquals(SlowSearchBackendProvider.MOST_ACTIVE.get(), 2, "searches running at once on one connection");
    }

    @Test(timeOut = 60_000)
    public void unbindStopsTheOperationInFlightAndClosesWithoutAnswer() throws Exception {
        SlowSearchBackendProvider.resetCounters();
        try (RawLdap c = rootConnection()) {
            // One search, below the limit of two: a connection at its limit is not read (like slapd's
            // conn_max_pending), so its unbind would wait for a slot.
            c.send(RawLdap.search(2, TestServer.PEOPLE, "(description=first)"));
            awaitActiveSearches(1);
            long t0 = System.nanoTime();
            c.send(RawLdap.unbind(4));
            // RFC 4511 4.3: no response to the unbind, the search in flight gets none either, and the server
            // closes the connection.
            c.expectClosed();
            awaitActiveSearches(0);
            long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
            assertEquals(SlowSearchBackendProvider.STOPPED.get(), 1, "searches stopped by the unbind");
            assertTrue(ms < 900, "the searches ran on for " + ms + " ms after the unbind");
        }
        Poll.until("an empty registry after the unbind", Duration.ofSeconds(10),
                () -> server.server().context().authenticatedUsers().size(), n -> n == 0);
    }

    @Test(timeOut = 60_000)
    public void abandoningWhatIsNotInFlightChangesNothing() throws Exception {
        try (RawLdap c = rootConnection()) {
            // An unknown message ID, and the ID of the bind that already completed: no response to either.
            c.send(new LDAPMessage(5, new AbandonRequestProtocolOp(77)).encode().encode(),
                    new LDAPMessage(6, new AbandonRequestProtocolOp(1)).encode().encode());
            assertTrue(c.quietFor(300), "an abandon request has no response");
            c.send(RawLdap.bind(7, TestServer.user(1), TestServer.USER_PASSWORD));
            LDAPMessage m = c.read();
            assertEquals(m.getMessageID(), 7);
            assertEquals(m.getBindResponseProtocolOp().getResultCode(), 0);
        }
    }

    private RawLdap rootConnection() throws Exception {
        RawLdap c = new RawLdap(server.port());
        c.send(RawLdap.bind(1, TestServer.ROOT_DN, TestServer.ROOT_PASSWORD));
        assertEquals(c.read().getBindResponseProtocolOp().getResultCode(), 0);
        return c;
    }

    private static void awaitActiveSearches(int n) throws Exception {
        Poll.until(n + " searches running", Duration.ofSeconds(10), SlowSearchBackendProvider.ACTIVE::get,
                running -> running == n);
    }
}
