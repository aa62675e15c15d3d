package io.bindfirst.it.stress;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertTrue;

import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;

import org.testng.annotations.Test;

import com.unboundid.ldap.sdk.Attribute;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.Modification;
import com.unboundid.ldap.sdk.ModificationType;
import com.unboundid.ldap.sdk.ResultCode;

import io.bindfirst.it.support.RawLdap;
import io.bindfirst.it.support.TestServer;
import io.bindfirst.server.testsupport.ConfigText;
import io.bindfirst.server.testsupport.Poll;
import io.bindfirst.server.work.WorkerPool;

/**
 * {@code bin/stop-ds} (SIGTERM) in the middle of a write load: the server, a child JVM, is stopped while sixteen
 * clients add entries and add values to entries, each write unique; then it starts again on the same database and
 * every write is looked for. A write answered with success must be there, one answered with an error must not, and
 * one the server never answered (the connection closed under it) must not be there either: the server answers
 * every write it took up before it closes, so that a client never has to guess.
 */
public class StopUnderLoadTest {
    private static final String USER_ROOT = "ds-cfg-backend-id=userRoot,cn=Backends,cn=config";
    private static final int WRITERS = 16;

    /** How the server answered a write; {@code code} and {@code message} as the client saw them. */
    enum Answer { SUCCESS, ERROR, NONE }

    /** One write: an add (value null) of {@code dn}, or a modify adding {@code value} to {@code dn}'s description. */
    record Write(String dn, String value, Answer answer, ResultCode code, String message) {
    }

    @Test(timeOut = 300_000)
    public void everyWriteInFlightAtSigtermIsAnsweredAndStoredAsAnswered() throws Exception {
        Path instance = Files.createTempDirectory("bindfirst-stop-");
        KillDurabilityTest.Child server = null;
        List<Thread> writers = new ArrayList<>();
        try {
            TestServer.copyConfig(instance);
            Path ldif = instance.resolve("config/config.ldif");
            ConfigText.read(ldif).set(USER_ROOT, "ds-cfg-sample-entries", Integer.toString(WRITERS)).write(ldif);
            server = KillDurabilityTest.startChild(instance);
            int port = server.port();
            Queue<Write> writes = new ConcurrentLinkedQueue<>();
            for (int t = 0; t < WRITERS; t++) {
                int id = t;
                Thread w = new Thread(() -> write(port, id, writes), "stop-writer-" + t);
                writers.add(w);
                w.start();
            }
            Poll.until("writes under way", Duration.ofSeconds(60), () -> writes.size() > 500);
            assertTrue(server.stop(), "the server did not stop on SIGTERM"); // SIGTERM, as bin/stop-ds sends
            for (Thread w : writers) {
                w.join(30_000);
            }

            server = KillDurabilityTest.startChild(instance);
            Map<String, Integer> counts = new TreeMap<>();
            List<String> wrong = new ArrayList<>();
            try (LDAPConnection c = new LDAPConnection("127.0.0.1", server.port())) {
                c.bind(TestServer.ROOT_DN, TestServer.ROOT_PASSWORD);
                Map<String, Set<String>> descriptions = new TreeMap<>();
                for (Write w : writes) {
                    boolean present;
                    if (w.value() == null) {
                        present = c.getEntry(w.dn(), "1.1") != null;
                    } else {
                        present = descriptions.computeIfAbsent(w.dn(), dn -> values(c, dn)).contains(w.value());
                    }
                    String kind = (w.value() == null ? "add " : "modify ") + w.answer() + " "
                            + (present ? "present" : "absent");
                    counts.merge(kind, 1, Integer::sum);
                    if (w.answer() != Answer.SUCCESS) {
                        // The SDK's text for an unanswered request names it; what follows is the server's notice.
                        String said = w.message() == null ? "" : w.message().replaceAll("(?s).*\\):\\s+", "");
                        counts.merge(w.answer() + " " + w.code() + " \"" + said + "\"", 1, Integer::sum);
                    }
                    if (present != (w.answer() == Answer.SUCCESS)) {
                        wrong.add(kind + ": " + w);
                    }
                }
            }
            System.out.println("STOP-UNDER-LOAD: " + writes.size() + " writes; " + counts);
            assertEquals(wrong, List.of(), "writes stored otherwise than answered (an unanswered write must not be "
                    + "stored: the server answers what it took up before it closes)");
        } finally {
            for (Thread w : writers) {
                w.join(10_000);
            }
            if (server != null) {
                server.stop();
            }
            TestServer.deleteTree(instance);
        }
    }

    /**
     * A search waiting for a client that reads nothing does not hold the stop: the stop waits for what was under
     * way (up to 10 s, for writes) but abandons searches, which change nothing.
     */
    @Test(timeOut = 120_000)
    public void aSearchWaitingForAClientDoesNotHoldTheStop() throws Exception {
        try (TestServer server = TestServer.start(2_000); Socket unread = new Socket()) {
            WorkerPool workers = (WorkerPool) server.server().workQueue();
            unread.setReceiveBufferSize(4096);
            unread.connect(new InetSocketAddress("127.0.0.1", server.port()));
            OutputStream out = unread.getOutputStream();
            out.write(RawLdap.bind(1, TestServer.ROOT_DN, TestServer.ROOT_PASSWORD));
            for (int id = 2; id < 12; id++) { // more than the socket buffers hold
                out.write(RawLdap.searchAllAttributes(id, TestServer.PEOPLE, "(objectClass=person)"));
            }
            out.flush();
            Poll.until("a search waiting for its client", Duration.ofSeconds(60), workers::waitingForClients,
                    n -> n > 0);
            long start = System.nanoTime();
            server.server().close();
            long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            System.out.println("STOP-UNDER-LOAD: stopped in " + ms + " ms with a search waiting for its client");
            assertTrue(ms < 5_000, "the stop waited " + ms + " ms for a search whose client reads nothing");
        }
    }

    /**
     * One client, half of them adding entries and half adding values to their own sample user, until the connection
     * closes or 60 s have passed.
     */
    private static void write(int port, int id, Queue<Write> writes) {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        try (LDAPConnection c = new LDAPConnection("127.0.0.1", port)) {
            c.bind(TestServer.ROOT_DN, TestServer.ROOT_PASSWORD);
            for (int n = 0; System.nanoTime() < end; n++) {
                String unique = "stop." + id + "." + n;
                boolean add = id % 2 == 0;
                String dn = add ? "uid=" + unique + "," + TestServer.PEOPLE : TestServer.user(id);
                try {
                    if (add) {
                        c.add(dn, new Attribute("objectClass", "top", "account"), new Attribute("uid", unique));
                    } else {
                        c.modify(dn, new Modification(ModificationType.ADD, "description", unique));
                    }
                    writes.add(new Write(dn, add ? null : unique, Answer.SUCCESS, ResultCode.SUCCESS, ""));
                } catch (LDAPException e) {
                    // A code of the client's own (server down, timeout): the server sent no answer to this request.
                    boolean answered = !ResultCode.isClientSideResultCode(e.getResultCode());
                    writes.add(new Write(dn, add ? null : unique, answered ? Answer.ERROR : Answer.NONE,
                            e.getResultCode(), answered ? e.getDiagnosticMessage() : e.getMessage()));
                    if (!answered || e.getResultCode() == ResultCode.UNAVAILABLE) {
                        return;
                    }
                }
            }
        } catch (LDAPException e) {
            // The connection or the bind failed: no write was sent.
        }
    }

    private static Set<String> values(LDAPConnection c, String dn) {
        try {
            Entry e = c.getEntry(dn, "description");
            String[] v = e == null ? null : e.getAttributeValues("description");
            return v == null ? Set.of() : new HashSet<>(List.of(v));
        } catch (LDAPException e) {
            throw new AssertionError(e);
        }
    }
}
