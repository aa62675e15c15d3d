package io.bindfirst.it.bind;

import static org.testng.Assert.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import org.testng.annotations.AfterClass;
import org.testng.annotations.BeforeClass;
import org.testng.annotations.Test;

import com.unboundid.ldap.protocol.LDAPMessage;

import io.bindfirst.it.support.RawLdap;
import io.bindfirst.it.support.TestServer;

/**
 * Many binds pipelined on each of several connections at once, each connection's in one write: every answer must
 * be its own request's. The server keeps its decoding buffers per connection from one request to the next
 * ({@code RequestReader}); a pipelined bind waits for a worker while the requests after it are read into those
 * buffers, and the selector threads decode several connections at once, so a request that kept pointing into the
 * buffers, or buffers shared beyond their connection, would be checked with another request's name or password,
 * or not decode at all. The requests differ in outcome (success, wrong password, unknown entry, invalid DN, in a
 * rotation, some longer than the buffers keep), so any mix-up changes a result code. Pipelined binds may be
 * answered out of order (they run on several workers), so answers are matched by message ID.
 */
public class PipelinedBindsTest {
    private static final int USERS = 100;
    private static final int BINDS = 400;
    private static final int CONNECTIONS = 8;
    private TestServer server;

    @BeforeClass
    public void start() throws Exception {
        server = TestServer.start(USERS);
    }

    @AfterClass(alwaysRun = true)
    public void stop() {
        server.close();
    }

    @Test(timeOut = 120_000)
    public void everyPipelinedBindIsAnsweredForItsOwnNameAndPassword() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(CONNECTIONS);
        try {
            List<Future<Map<Integer, Integer>>> answers = new ArrayList<>();
            for (int c = 0; c < CONNECTIONS; c++) {
                int connection = c;
                answers.add(pool.submit(() -> pipeline(connection)));
            }
            for (int c = 0; c < CONNECTIONS; c++) {
                Map<Integer, Integer> got = answers.get(c).get();
                assertEquals(got.size(), BINDS, "connection " + c + ": one answer per request");
                for (int id = 1; id <= BINDS; id++) {
                    assertEquals(got.get(id), expected(id), "connection " + c + ", bind " + id);
                }
            }
        } finally {
            pool.shutdownNow();
        }
    }

    /** Sends BINDS binds in one write, reads their answers: message ID to result code. */
    private Map<Integer, Integer> pipeline(int connection) throws Exception {
        List<byte[]> requests = new ArrayList<>();
        for (int id = 1; id <= BINDS; id++) {
            requests.add(request(id, connection));
        }
        Map<Integer, Integer> results = new TreeMap<>();
        try (RawLdap c = new RawLdap(server.port())) {
            c.send(requests.toArray(new byte[0][]));
            for (int i = 0; i < BINDS; i++) {
                LDAPMessage m = c.read(LDAPMessage.PROTOCOL_OP_TYPE_BIND_RESPONSE);
                results.put(m.getMessageID(), m.getBindResponseProtocolOp().getResultCode());
            }
        }
        return results;
    }

    /**
     * Successes bind even users, wrong passwords odd ones (a few each over the run, and never a user that must
     * succeed, so a lockout changes no answer).
     */
    private static byte[] request(int id, int connection) {
        int user = (2 * id + id % 4 + 10 * connection) % USERS;
        return switch (id % 4) {
            case 0 -> RawLdap.bind(id, TestServer.user(user), "password");
            case 1 -> RawLdap.bind(id, TestServer.user(user), "wrong-" + id);
            case 2 -> RawLdap.bind(id, "uid=nobody." + id + ",ou=People,dc=example,dc=com", "password");
            default -> RawLdap.bind(id, "not a DN " + "x".repeat(id * 4), "password");
        };
    }

    private static int expected(int id) {
        return switch (id % 4) {
            case 0 -> 0; // success
            case 1, 2 -> 49; // invalidCredentials
            default -> 34; // invalidDNSyntax
        };
    }
}
