package io.bindfirst.it.ops;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.testng.annotations.AfterClass;
import org.testng.annotations.BeforeClass;
import org.testng.annotations.Test;

import com.unboundid.ldap.protocol.AbandonRequestProtocolOp;
import com.unboundid.ldap.protocol.LDAPMessage;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.ResultCode;

import io.bindfirst.it.support.ForkedServer;
import io.bindfirst.it.support.HeapAfterGc;
import io.bindfirst.it.support.LocalSockets;
import io.bindfirst.it.support.RawLdap;
import io.bindfirst.it.support.TestServer;
import io.bindfirst.server.config.ServerConfig;
import io.bindfirst.server.plugin.OperationType;
import io.bindfirst.server.testsupport.Poll;
import io.bindfirst.server.work.WorkerPool;

/**
 * Clients that abuse the server's resources rather than its parser
 * ({@link io.bindfirst.it.stress.LiveFuzzTest} has the parser): one that asks for big results and never reads
 * them, thousands of connections that never finish a request, and a flood of abandons, an unbind behind unread
 * results. Each must cost the server a bounded amount of memory, threads and sockets, and leave it serving
 * everyone else.
 */
public class ResourceAbuseTest {
    private static final int USERS = 2_000;
    private static final int MAX_CONNECTIONS = 2_000;
    private static final int IDLE_SECONDS = 10;
    private TestServer server;

    @BeforeClass
    public void start() throws Exception {
        server = TestServer.start(USERS, c -> c
                .withListener(c.listener().withMaxConnections(MAX_CONNECTIONS))
                .withLimits(new ServerConfig.Limits(c.limits().sizeLimit(), c.limits().timeLimitSeconds(),
                        c.limits().lookthroughLimit(), IDLE_SECONDS)));
    }

    @AfterClass(alwaysRun = true)
    public void stop() {
        if (server != null) {
            server.close();
        }
    }

    /**
     * Forty searches of every user with all their attributes (80,000 entries, about 150 MB as the server holds
     * responses), pipelined by a client that then reads nothing. The server once queued every entry for it;
     * now each search holds a few dozen while its thread waits for the client, and another thread takes that
     * one's place, so other clients' binds go as fast as before.
     */
    @Test(timeOut = 240_000)
    public void aClientThatNeverReadsHoldsLittleMemoryAndOthersStillBind() throws Exception {
        int searches = 40;
        bindNanos(500); // warm-up
        long baseline = bindNanos(500);
        try (LDAPConnection c = server.bindAs(TestServer.ROOT_DN, TestServer.ROOT_PASSWORD)) {
            // Once, read in full: the database cache then holds the entries before the heap is measured.
            assertEquals(c.search(TestServer.PEOPLE, com.unboundid.ldap.sdk.SearchScope.SUB, "(objectClass=person)")
                    .getEntryCount(), USERS);
        }
        int threadsBefore = Thread.activeCount();
        long heapBefore = HeapAfterGc.usedBytes();
        WorkerPool workers = (WorkerPool) server.server().workQueue();
        long searchesBefore = searchesCompleted();
        try (Socket hostile = new Socket()) {
            hostile.setReceiveBufferSize(4096);
            hostile.connect(new InetSocketAddress("127.0.0.1", server.port()));
            OutputStream out = hostile.getOutputStream();
            out.write(RawLdap.bind(1, TestServer.ROOT_DN, TestServer.ROOT_PASSWORD));
            for (int id = 2; id < 2 + searches; id++) {
                // (objectClass=person) is indexed: the searches run on the workers, not the slow lane.
                out.write(RawLdap.searchAllAttributes(id, TestServer.PEOPLE, "(objectClass=person)"));
            }
            out.flush();
            // Each search has either finished (its entries all queued in memory) or waits for the client.
            Poll.until("every search finished or waiting for the client", Duration.ofSeconds(120),
                    () -> (searchesCompleted() - searchesBefore) + workers.waitingForClients(),
                    n -> n >= searches);
            long held = HeapAfterGc.usedBytes() - heapBefore;
            long during = bindNanos(500);
            System.out.printf("RESOURCE-ABUSE unread results: heap +%d KiB, %d searches waiting, 500 binds %d ms "
                            + "(before: %d ms), threads %d -> %d%n", held / 1024, workers.waitingForClients(),
                    during / 1_000_000, baseline / 1_000_000, threadsBefore, Thread.activeCount());
            // Measured: 146 MB when every entry was queued; 25 MB since, most of it the per-thread buffers of the
            // 40 threads standing in for the waiting ones, whatever the size of the results.
            assertTrue(held < 48L * 1024 * 1024, "heap held for a client that does not read: " + held / 1024
                    + " KiB");
            assertTrue(during < 10 * baseline, "500 binds took " + during / 1_000_000 + " ms while a client "
                    + "did not read its results, " + baseline / 1_000_000 + " ms before");
        }
        // Closing abandons the waiting searches, and the threads that stood in for them end.
        Poll.until("no search waiting for a client", Duration.ofSeconds(30), workers::waitingForClients,
                n -> n == 0);
        Poll.until("the stand-in threads gone", Duration.ofSeconds(30), Thread::activeCount,
                n -> n <= threadsBefore + 2);
        stillServes();
    }

    /**
     * 2,000 connections that never complete a request, up to the connection limit: 1,600 on LDAP (half send
     * nothing, half half a bind) and 400 on LDAPS (half send nothing, half half a ClientHello). One more gets a
     * notice at once (not a hang); the idle limit and the TLS handshake deadline close them all; no thread is
     * spent per connection; then a client connects and binds.
     */
    @Test(timeOut = 180_000)
    public void halfOpenConnectionsUpToTheLimitAreRefusedPastItAndCleanedUp() throws Exception {
        Poll.until("no connection open", Duration.ofSeconds(30), () -> server.server().clientConnections().size(),
                n -> n == 0);
        int threadsBefore = Thread.activeCount();
        byte[] bind = RawLdap.bind(1, TestServer.user(1), TestServer.USER_PASSWORD);
        byte[] halfBind = java.util.Arrays.copyOf(bind, bind.length / 2);
        // A TLS record header announcing a 512-byte handshake message, and only the first bytes of it.
        byte[] halfHello = {0x16, 0x03, 0x01, 0x02, 0x00, 0x01, 0x00, 0x01, (byte) 0xfc, 0x03, 0x03};
        List<Socket> sockets = new ArrayList<>();
        try {
            for (int i = 0; i < MAX_CONNECTIONS; i++) {
                boolean tls = i % 5 == 4;
                Socket s = new Socket("127.0.0.1", tls ? server.ldapsPort() : server.port());
                s.setSoTimeout(30_000);
                if (i % 2 == 0) {
                    s.getOutputStream().write(tls ? halfHello : halfBind);
                    s.getOutputStream().flush();
                }
                sockets.add(s);
            }
            Poll.until(MAX_CONNECTIONS + " connections admitted", Duration.ofSeconds(IDLE_SECONDS / 2),
                    () -> server.server().clientConnections().size(), n -> n == MAX_CONNECTIONS);
            try (RawLdap extra = new RawLdap(server.port())) {
                String why = extra.expectNoticeOfDisconnection(ResultCode.ADMIN_LIMIT_EXCEEDED_INT_VALUE);
                assertTrue(why.contains("maximum of " + MAX_CONNECTIONS), why);
            }
            assertTrue(Thread.activeCount() <= threadsBefore + 4, "threads with " + MAX_CONNECTIONS
                    + " half-open connections: " + threadsBefore + " -> " + Thread.activeCount());
            Poll.until("the idle limit and the handshake deadline to close them all", Duration.ofSeconds(60),
                    () -> server.server().clientConnections().size(), n -> n == 0);
            // Closed for the clients too: each reads (an LDAP connection's notice, then) the end of the stream.
            List<String> open = new ArrayList<>();
            for (int i = 0; i < sockets.size(); i++) {
                if (!closedByServer(sockets.get(i))) {
                    open.add("#" + i + (i % 5 == 4 ? " LDAPS" : " LDAP") + (i % 2 == 0 ? " half sent" : " silent"));
                }
            }
            assertTrue(open.isEmpty(), "connections the server forgot without closing them: " + open);
        } finally {
            for (Socket s : sockets) {
                s.close();
            }
        }
        stillServes();
        assertTrue(Thread.activeCount() <= threadsBefore + 4,
                "threads " + threadsBefore + " -> " + Thread.activeCount());
    }

    /**
     * 100,000 abandons on one connection, most naming nothing in flight and some naming searches sent just
     * before: none is answered (RFC 4511 4.11), the heap does not grow with them, and the connection still
     * answers a bind at the end.
     */
    @Test(timeOut = 180_000)
    public void aFloodOfAbandonsIsNeverAnsweredAndCostsNothingToKeep() throws Exception {
        int abandons = 100_000;
        long heapBefore = HeapAfterGc.usedBytes();
        Set<Integer> searchIds = ConcurrentHashMap.newKeySet();
        ExecutorService reader = Executors.newSingleThreadExecutor();
        try (RawLdap c = new RawLdap(server.port())) {
            c.send(RawLdap.bind(1, TestServer.ROOT_DN, TestServer.ROOT_PASSWORD));
            assertEquals(c.read(LDAPMessage.PROTOCOL_OP_TYPE_BIND_RESPONSE).getBindResponseProtocolOp()
                    .getResultCode(), 0);
            int finalBind = 3_000_000;
            // Reads everything until the final bind's answer; anything else must be a search's.
            Future<List<String>> unexpected = reader.submit(() -> {
                List<String> wrong = new ArrayList<>();
                while (true) {
                    LDAPMessage m = c.read();
                    if (m.getMessageID() == finalBind) {
                        if (m.getBindResponseProtocolOp().getResultCode() != 0) {
                            wrong.add("final bind: " + m);
                        }
                        return wrong;
                    }
                    if (!searchIds.contains(m.getMessageID()) && wrong.size() < 10) {
                        wrong.add(m.toString());
                    }
                }
            });
            int nextId = 2;
            java.io.ByteArrayOutputStream batch = new java.io.ByteArrayOutputStream();
            for (int i = 0; i < abandons; i++) {
                if (i % 5_000 == 0) {
                    int search = 1_000_000 + i;
                    searchIds.add(search);
                    batch.write(RawLdap.searchAllAttributes(search, TestServer.PEOPLE, "(objectClass=person)"));
                    // Abandon it at once: it is in flight, or already done, or not yet read: no answer in any case.
                    batch.write(abandon(nextId++, search));
                }
                batch.write(abandon(nextId++, i % 3 == 0 ? 1 : 5_000_000 + i));
                if (batch.size() > 64 * 1024) {
                    c.sendRaw(batch.toByteArray());
                    batch.reset();
                }
            }
            batch.write(RawLdap.bind(finalBind, TestServer.user(2), TestServer.USER_PASSWORD));
            c.sendRaw(batch.toByteArray());
            assertEquals(unexpected.get(120, TimeUnit.SECONDS), List.of(),
                    "messages that answer no search (an abandon's, say)");
        } finally {
            reader.shutdownNow();
        }
        long grown = HeapAfterGc.usedBytes() - heapBefore;
        assertTrue(grown < 16L * 1024 * 1024, "heap after " + abandons + " abandons: +" + grown / 1024 + " KiB");
        stillServes();
    }

    /**
     * Sixty searches of every user then an unbind, from a client that reads nothing: the server abandons the
     * searches (each waiting for the client with a few dozen entries, since responses are bounded), lets the
     * socket go though the client never read what was queued for it, and counts no connection left open.
     */
    @Test(timeOut = 180_000)
    public void anUnbindBehindUnreadResultsClosesTheSocketAndFreesEverything() throws Exception {
        int searches = 60;
        Poll.until("no connection open", Duration.ofSeconds(30), () -> server.server().clientConnections().size(),
                n -> n == 0);
        long searchesBefore = searchesCompleted();
        try (Socket hostile = new Socket()) {
            hostile.setReceiveBufferSize(4096);
            hostile.connect(new InetSocketAddress("127.0.0.1", server.port()));
            OutputStream out = hostile.getOutputStream();
            out.write(RawLdap.bind(1, TestServer.ROOT_DN, TestServer.ROOT_PASSWORD));
            for (int id = 2; id < 2 + searches; id++) {
                out.write(RawLdap.searchAllAttributes(id, TestServer.PEOPLE, "(objectClass=person)"));
            }
            out.flush();
            long inode = Poll.until("the server's end of the connection", Duration.ofSeconds(10),
                    () -> LocalSockets.serverSide(server.port(), hostile.getLocalPort()), i -> i > 0);
            out.write(RawLdap.unbind(2 + searches));
            out.flush();
            Poll.until("the server to forget the connection", Duration.ofSeconds(30),
                    () -> server.server().clientConnections().size(), n -> n == 0);
            Poll.until("every search to end", Duration.ofSeconds(30), () -> searchesCompleted() - searchesBefore,
                    n -> n == searches);
            Poll.until("the server to close its socket", Duration.ofSeconds(30),
                    () -> LocalSockets.heldByThisProcess(inode), held -> !held);
        }
        // An operation is counted complete just before its worker lets it go.
        Poll.until("the workers to hold no operation", Duration.ofSeconds(10),
                ((WorkerPool) server.server().workQueue())::held, n -> n == 0);
        try (LDAPConnection c = server.bindAs(TestServer.ROOT_DN, TestServer.ROOT_PASSWORD)) {
            assertEquals(c.getEntry("cn=monitor", "currentConnections").getAttributeValueAsInteger(
                    "currentConnections"), Integer.valueOf(1), "connections cn=monitor counts, this one alone");
        }
    }

    /**
     * The same unbind behind sixty unread searches, on a server in a child process whose logs are its own: the
     * connection count cn=monitor gives returns to what it was, the next client is served, and the server log
     * (and the console) hold no error and no exception.
     */
    @Test(timeOut = 300_000)
    public void anUnbindBehindUnreadResultsLeavesNoErrorInTheServerLog() throws Exception {
        try (ForkedServer forked = ForkedServer.start(USERS, List.of("-Xmx192m"))) {
            try (LDAPConnection monitor = new LDAPConnection("127.0.0.1", forked.port(), TestServer.ROOT_DN,
                    TestServer.ROOT_PASSWORD)) {
                int baseline = currentConnections(monitor);
                for (int round = 0; round < 3; round++) {
                    try (Socket hostile = new Socket()) {
                        hostile.setReceiveBufferSize(4096);
                        hostile.connect(new InetSocketAddress("127.0.0.1", forked.port()));
                        OutputStream out = hostile.getOutputStream();
                        out.write(RawLdap.bind(1, TestServer.ROOT_DN, TestServer.ROOT_PASSWORD));
                        for (int id = 2; id < 62; id++) {
                            out.write(RawLdap.searchAllAttributes(id, TestServer.PEOPLE, "(objectClass=person)"));
                        }
                        out.write(RawLdap.unbind(62));
                        out.flush();
                        Poll.until("the connection gone from cn=monitor", Duration.ofSeconds(30),
                                () -> currentConnections(monitor), n -> n == baseline);
                    }
                }
                try (LDAPConnection next = new LDAPConnection("127.0.0.1", forked.port(), TestServer.user(3),
                        TestServer.USER_PASSWORD)) {
                    assertEquals(next.getEntry(TestServer.user(4), "uid").getAttributeValue("uid"), "user.4");
                }
            }
            forked.stop(); // the logs are flushed and closed
            String errors = Files.readString(forked.instance().resolve("logs/errors"));
            String console = Files.readString(forked.instance().resolve("logs/server.out"));
            assertTrue(errors.contains("severity=INFO"), "not the server log, or nothing in it: " + errors);
            for (String text : List.of(errors, console)) {
                assertTrue(!text.contains("severity=ERROR") && !text.contains("Exception"), text);
            }
        }
    }

    private static int currentConnections(LDAPConnection monitor) throws LDAPException {
        return monitor.getEntry("cn=monitor", "currentConnections").getAttributeValueAsInteger("currentConnections");
    }

    private static byte[] abandon(int messageId, int abandoned) {
        return new LDAPMessage(messageId, new AbandonRequestProtocolOp(abandoned)).encode().encode();
    }

    /** Whether the server has closed {@code s}: reads until the end of the stream, or a quiet 5 s. */
    private static boolean closedByServer(Socket s) throws IOException {
        s.setSoTimeout(5_000);
        InputStream in = s.getInputStream();
        byte[] buf = new byte[1024];
        try {
            while (true) {
                if (in.read(buf) < 0) {
                    return true;
                }
            }
        } catch (SocketTimeoutException stillOpen) {
            return false;
        } catch (IOException reset) {
            return true;
        }
    }

    /** The time {@code n} binds take one after another on one connection. */
    private long bindNanos(int n) throws Exception {
        try (LDAPConnection c = server.connect()) {
            long t0 = System.nanoTime();
            for (int i = 0; i < n; i++) {
                c.bind(TestServer.user(i % 100), TestServer.USER_PASSWORD);
            }
            return System.nanoTime() - t0;
        }
    }

    private long searchesCompleted() {
        return server.server().context().operationCounts().count(OperationType.SEARCH);
    }

    private void stillServes() throws Exception {
        try (LDAPConnection c = server.bindAs(TestServer.user(7), TestServer.USER_PASSWORD)) {
            assertEquals(c.getEntry(TestServer.user(8), "uid").getAttributeValue("uid"), "user.8");
        }
    }
}
