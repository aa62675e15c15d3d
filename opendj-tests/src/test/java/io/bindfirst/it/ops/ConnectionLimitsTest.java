package io.bindfirst.it.ops;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.testng.annotations.AfterClass;
import org.testng.annotations.BeforeClass;
import org.testng.annotations.Test;

import com.unboundid.ldap.protocol.LDAPMessage;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.extensions.WhoAmIExtendedRequest;

import io.bindfirst.it.support.RawLdap;
import io.bindfirst.it.support.TestServer;
import io.bindfirst.server.testsupport.Poll;

/**
 * The connection limits, shown working on a real server: maximum connections and maximum request size; and
 * the notice every connection gets when the server stops. The idle time limit has {@link IdleTimeLimitTest};
 * how config.ldif names and parses these settings, {@code ConfigLoaderTest}.
 */
public class ConnectionLimitsTest {
    private static final int MAX_CONNECTIONS = 5;
    private TestServer server;

    @BeforeClass
    public void start() throws Exception {
        server = TestServer.start(20, c -> c.withListener(c.listener()
                .withMaxConnections(MAX_CONNECTIONS)
                .withMaxRequestBytes(2048)));
    }

    @AfterClass(alwaysRun = true)
    public void stop() {
        server.close();
    }

    @Test(timeOut = 60_000)
    public void oneConnectionPastTheMaximumIsRefusedWithANotice() throws Exception {
        awaitOpenConnections(0);
        List<LDAPConnection> open = new ArrayList<>();
        try {
            for (int i = 0; i < MAX_CONNECTIONS; i++) {
                open.add(server.bindAs(TestServer.user(i), TestServer.USER_PASSWORD));
            }
            assertEquals(server.server().clientConnections().size(), MAX_CONNECTIONS);
            try (RawLdap extra = new RawLdap(server.port())) {
                String why = extra.expectNoticeOfDisconnection(ResultCode.ADMIN_LIMIT_EXCEEDED_INT_VALUE);
                assertTrue(why.contains("maximum of " + MAX_CONNECTIONS), why);
            }
            for (LDAPConnection c : open) {
                assertEquals(c.processExtendedOperation(new WhoAmIExtendedRequest()).getResultCode(),
                        ResultCode.SUCCESS, "the admitted connections carry on");
            }
            // Closing one makes room for one more.
            open.remove(0).close();
            awaitOpenConnections(MAX_CONNECTIONS - 1);
            open.add(server.bindAs(TestServer.user(9), TestServer.USER_PASSWORD));
        } finally {
            open.forEach(LDAPConnection::close);
        }
        awaitOpenConnections(0);
    }

    @Test(timeOut = 60_000)
    public void anOversizedRequestGetsAProtocolErrorNoticeAndTheServerCarriesOn() throws Exception {
        try (RawLdap c = new RawLdap(server.port())) {
            // An LDAPMessage SEQUENCE announcing 1 GiB: refused from its header, nothing allocated for it.
            c.sendRaw(new byte[] {0x30, (byte) 0x84, 0x40, 0x00, 0x00, 0x00, 0x02, 0x01, 0x01});
            String why = c.expectNoticeOfDisconnection(ResultCode.PROTOCOL_ERROR_INT_VALUE);
            assertTrue(why.contains("2048"), why);
        }
        try (RawLdap c = new RawLdap(server.port())) {
            // A complete, well-formed bind just over the limit.
            c.send(RawLdap.bind(1, "uid=" + "x".repeat(2100) + ",dc=example,dc=com", "secret"));
            c.expectNoticeOfDisconnection(ResultCode.PROTOCOL_ERROR_INT_VALUE);
        }
        try (RawLdap c = new RawLdap(server.port())) {
            // Malformed BER: a SEQUENCE whose content is not a message ID.
            c.sendRaw(new byte[] {0x30, 0x03, 0x04, 0x01, 0x41});
            c.expectNoticeOfDisconnection(ResultCode.PROTOCOL_ERROR_INT_VALUE);
        }
        try (LDAPConnection c = server.bindAs(TestServer.user(3), TestServer.USER_PASSWORD)) {
            assertTrue(c.isConnected());
        }
    }

    @Test(timeOut = 60_000, dependsOnMethods = {"oneConnectionPastTheMaximumIsRefusedWithANotice",
"anOversizedRequestGetsAProtocolErrorNoticeAndTheServerCarriesOn"})
    public void stoppingTheServerSendsEveryConnectionANotice() throws Exception {
        try (RawLdap a = new RawLdap(server.port()); RawLdap b = new RawLdap(server.port())) {
            a.send(RawLdap.bind(1, TestServer.user(4), TestServer.USER_PASSWORD));
            LDAPMessage m = a.read();
            assertEquals(m.getBindResponseProtocolOp().getResultCode(), 0);
            awaitOpenConnections(2);
            server.server().close();
            a.expectNoticeOfDisconnection(ResultCode.UNAVAILABLE_INT_VALUE);
            b.expectNoticeOfDisconnection(ResultCode.UNAVAILABLE_INT_VALUE);
        }
    }

    private void awaitOpenConnections(int n) throws Exception {
        Poll.until(n + " open connections", Duration.ofSeconds(10),
                () -> server.server().clientConnections().size(), open -> open == n);
    }
}
