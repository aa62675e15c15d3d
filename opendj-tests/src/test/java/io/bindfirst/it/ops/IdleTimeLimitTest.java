package io.bindfirst.it.ops;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertTrue;

import java.util.concurrent.TimeUnit;

import org.testng.annotations.AfterClass;
import org.testng.annotations.BeforeClass;
import org.testng.annotations.Test;

import com.unboundid.ldap.protocol.LDAPMessage;
import com.unboundid.ldap.sdk.ResultCode;

import io.bindfirst.it.support.RawLdap;
import io.bindfirst.it.support.SlowSearchBackendProvider;
import io.bindfirst.it.support.TestServer;
import io.bindfirst.server.config.ServerConfig;

/**
 * The idle time limit ({@code ds-cfg-idle-time-limit}, set to 1 s): a connection with no request and no
 * operation in progress for longer gets a notice of disconnection and is closed; one that keeps sending is
 * not; and one whose operation runs longer than the limit is not cut off (the limit is on idleness, not on
 * work; OpenDJ's issue #697 was a limit that did nothing at all). The backend is JE slowed to 20 ms per
 * candidate ({@link SlowSearchBackendProvider}), so an unindexed search over 150 entries takes 3 s.
 */
public class IdleTimeLimitTest {
    private static final int USERS = 150;
    private TestServer server;

    @BeforeClass
    public void start() throws Exception {
        // No search limits: only the idle limit could end anything here.
        server = TestServer.start(USERS, c -> c
                .withLimits(new ServerConfig.Limits(0, 0, 0, 1))
                .withBackendType("userRoot", SlowSearchBackendProvider.TYPE));
    }

    @AfterClass(alwaysRun = true)
    public void stop() {
        server.close();
    }

    @Test(timeOut = 60_000)
    public void anIdleConnectionGetsANoticeAndAnActiveOneDoesNot() throws Exception {
        try (RawLdap idle = new RawLdap(server.port()); RawLdap active = new RawLdap(server.port())) {
            idle.send(RawLdap.bind(1, TestServer.user(1), TestServer.USER_PASSWORD));
            assertEquals(idle.read().getBindResponseProtocolOp().getResultCode(), 0);
            long t0 = System.nanoTime();
            // A request every 0.25 s for 2.5 s: never idle for 1 s, never closed.
            for (int i = 0; i < 10; i++) {
                active.send(RawLdap.bind(i + 1, TestServer.user(2), TestServer.USER_PASSWORD));
                assertEquals(active.read().getBindResponseProtocolOp().getResultCode(), 0);
                Thread.sleep(250);
            }
            String why = idle.expectNoticeOfDisconnection(ResultCode.ADMIN_LIMIT_EXCEEDED_INT_VALUE);
            long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
            assertTrue(why.contains("idle"), why);
            assertTrue(ms >= 900, "closed after " + ms + " ms, before the 1 s limit");
            active.send(RawLdap.bind(99, TestServer.user(2), TestServer.USER_PASSWORD));
            assertEquals(active.read().getBindResponseProtocolOp().getResultCode(), 0, "the active one stays open");
        }
    }

    @Test(timeOut = 60_000)
    public void anOperationLongerThanTheLimitIsNotCutOff() throws Exception {
        try (RawLdap c = new RawLdap(server.port())) {
            c.send(RawLdap.bind(1, TestServer.ROOT_DN, TestServer.ROOT_PASSWORD));
            assertEquals(c.read().getBindResponseProtocolOp().getResultCode(), 0);
            long t0 = System.nanoTime();
            c.send(RawLdap.search(2, TestServer.PEOPLE, "(description=no such value)"));
            LDAPMessage done = c.read();
            long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
            assertEquals(done.getSearchResultDoneProtocolOp().getResultCode(), 0);
            assertTrue(ms > 1_500, "the search should outlast the 1 s idle limit; it took " + ms + " ms");
            // Right after it, the connection is open and usable (its idle time starts at the result).
            c.send(RawLdap.bind(3, TestServer.user(3), TestServer.USER_PASSWORD));
            assertEquals(c.read().getBindResponseProtocolOp().getResultCode(), 0);
        }
    }
}
