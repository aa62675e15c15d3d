package io.bindfirst.it.ops;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertFalse;
import static org.testng.Assert.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;

import org.testng.SkipException;
import org.testng.annotations.Test;

import com.unboundid.ldap.sdk.Attribute;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPConnectionOptions;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.SearchScope;

import io.bindfirst.it.stress.KillDurabilityTest;
import io.bindfirst.it.support.ChildProcess;
import io.bindfirst.it.support.TestServer;
import io.bindfirst.server.testsupport.ConfigText;
import io.bindfirst.server.testsupport.Poll;

/**
 * The disk under the database fills while clients write. The server (a child JVM) keeps its JE database on a small
 * tmpfs of its own; four clients add entries, each with a unique name; a filler file takes the volume's space until
 * less than the backend's {@code ds-cfg-disk-full-threshold-mb} is left. Then every write must be refused with
 * {@code unavailable} and a message saying the disk is full (never another code, a stack trace or a hang), while
 * binds and searches go on; once the filler is deleted, writes must be accepted again without a restart; and after a
 * restart every acknowledged add is there and no refused one is.
 *
 * <p>Mounting needs root: the test is skipped without it, except under CI ({@code CI=true}), where it fails.
 */
public class DiskFullTest {
    private static final String USER_ROOT = "ds-cfg-backend-id=userRoot,cn=Backends,cn=config";
    private static final int VOLUME_MB = 96;
    private static final int THRESHOLD_MB = 16;
    /** What the filler leaves free: well below the threshold, but not nothing (see {@link #fill}). */
    private static final long LEFT_FREE = 4L << 20;
    private static final int WRITERS = 4;

    /** A refused write: its code and the server's message. */
    record Refusal(ResultCode code, String message) {
    }

    @Test(timeOut = 300_000)
    public void writesAreRefusedClearlyWhileTheDiskIsFullAndResumeWhenSpaceReturns() throws Exception {
        fillUnderLoad(LEFT_FREE);
    }

    /**
     * The disk filled to its last byte, faster than JE checks it: a log write may fail, and JE then invalidates the
     * environment. Every write must still be refused with {@code unavailable} and a message that says what to do
     * (free space, restart), and after the restart nothing acknowledged is lost and nothing refused is stored.
     */
    @Test(timeOut = 300_000)
    public void aDiskFilledToTheLastByteRefusesWritesAndLosesNothingAcknowledged() throws Exception {
        fillUnderLoad(0);
    }

    /**
     * @param leftFree what the filler leaves: with some room, JE's own limit stops the writes and writes must
     *        resume once the filler is gone, without a restart (reads and binds go on meanwhile); with none, the
     *        storage may have failed, and only the restart is required to bring writes back
     */
    private void fillUnderLoad(long leftFree) throws Exception {
        boolean room = leftFree > 0;
        Path volume = Files.createTempDirectory("bindfirst-disk-");
        mountTmpfs(volume);
        Path instance = Files.createTempDirectory("bindfirst-diskfull-");
        KillDurabilityTest.Child server = null;
        AtomicBoolean stop = new AtomicBoolean();
        List<Thread> writers = new ArrayList<>();
        try {
            TestServer.copyConfig(instance);
            Path ldif = instance.resolve("config/config.ldif");
            ConfigText.read(ldif).set(USER_ROOT, "ds-cfg-sample-entries", "10")
                    .set(USER_ROOT, "ds-cfg-db-directory", volume.resolve("userRoot").toString())
                    .set(USER_ROOT, "ds-cfg-disk-full-threshold-mb", Integer.toString(THRESHOLD_MB)).write(ldif);
            server = KillDurabilityTest.startChild(instance);
            int port = server.port();

            Queue<String> acknowledged = new ConcurrentLinkedQueue<>();
            Map<String, Refusal> refused = new ConcurrentHashMap<>();
            Queue<String> failures = new ConcurrentLinkedQueue<>(); // anything but success or a refusal
            for (int t = 0; t < WRITERS; t++) {
                int id = t;
                Thread w = new Thread(() -> write(port, id, stop, acknowledged, refused, failures), "disk-writer-" + t);
                writers.add(w);
                w.start();
            }
            Poll.until("writes before the disk fills", Duration.ofSeconds(60), () -> acknowledged.size() > 50);

            Path filler = volume.resolve("filler");
            fill(filler, volume, leftFree);
            Poll.until("a write refused for the full disk", Duration.ofSeconds(90), () -> !refused.isEmpty());
            Refusal seen = refused.values().iterator().next();
            System.out.println("DISK-FULL (" + (leftFree >> 20) + " MiB left) refusal: " + seen.code() + " \""
                    + seen.message() + "\"");

            try (LDAPConnection c = connect(port)) {
                // Still full: a write now is refused, and reads and binds are served.
                c.bind(TestServer.ROOT_DN, TestServer.ROOT_PASSWORD);
                LDAPException e = expectThrows(() -> c.add("uid=disk.probe," + TestServer.PEOPLE,
                        new Attribute("objectClass", "top", "account"), new Attribute("uid", "disk.probe")));
                assertEquals(e.getResultCode(), ResultCode.UNAVAILABLE, e.getMessage());
                if (room) {
                    c.bind(TestServer.user(1), TestServer.USER_PASSWORD);
                    assertEquals(c.search(TestServer.PEOPLE, SearchScope.ONE, "(uid=user.*)", "1.1")
                            .getEntryCount(), 10, "searches while the disk is full");
                }
            }

            Files.delete(filler);
            int before = acknowledged.size();
            if (room) {
                Poll.until("writes accepted again once the filler is gone, without a restart",
                        Duration.ofSeconds(90), () -> acknowledged.size() > before + 20);
            } else {
                Thread.sleep(2_000); // the writers meet the storage as it is once space is back
            }
            stop.set(true);
            for (Thread w : writers) {
                w.join(60_000);
                assertFalse(w.isAlive(), "a writer hangs");
            }

            for (Refusal r : refused.values()) {
                assertEquals(r.code(), ResultCode.UNAVAILABLE, "a write refused for the full disk: " + r.message());
                assertTrue(r.message().contains("disk") && r.message().contains("full"), r.message());
                assertFalse(r.message().contains("Exception") || r.message().contains("\tat "), r.message());
            }
            refused.values().stream().map(Refusal::message).distinct()
                    .forEach(m -> System.out.println("DISK-FULL (" + (leftFree >> 20) + " MiB left) said: " + m));
            assertTrue(failures.isEmpty(), "writes neither acknowledged nor refused as unavailable: " + failures);

            // Nothing acknowledged is lost and nothing refused was stored: a clean stop, a restart, a count.
            assertTrue(server.stop(), "the server did not stop on SIGTERM");
            server = KillDurabilityTest.startChild(instance);
            int missing = 0;
            int stored = 0;
            try (LDAPConnection c = connect(server.port())) {
                c.bind(TestServer.ROOT_DN, TestServer.ROOT_PASSWORD);
                for (String dn : acknowledged) {
                    missing += c.getEntry(dn, "1.1") == null ? 1 : 0;
                }
                for (String dn : refused.keySet()) {
                    stored += c.getEntry(dn, "1.1") != null ? 1 : 0;
                }
            }
            System.out.printf("DISK-FULL (%d MiB left): %d adds acknowledged (%d missing after a restart), %d refused "
                    + "(%d stored)%n", leftFree >> 20, acknowledged.size(), missing, refused.size(), stored);
            assertEquals(missing, 0, "acknowledged adds lost");
            assertEquals(stored, 0, "refused adds stored");
            try (LDAPConnection c = connect(server.port())) {
                c.bind(TestServer.ROOT_DN, TestServer.ROOT_PASSWORD);
                c.add("uid=disk.after," + TestServer.PEOPLE, new Attribute("objectClass", "top", "account"),
                        new Attribute("uid", "disk.after"));
            }
        } finally {
            stop.set(true);
            for (Thread w : writers) {
                w.join(10_000);
            }
            if (server != null) {
                server.stop();
            }
            TestServer.deleteTree(instance);
            run("umount", volume.toString());
            TestServer.deleteTree(volume);
        }
    }

    /** One client adding uniquely named entries until {@code stop}; a refusal slows it down a little. */
    private static void write(int port, int id, AtomicBoolean stop, Queue<String> acknowledged,
            Map<String, Refusal> refused, Queue<String> failures) {
        try (LDAPConnection c = connect(port)) {
            c.bind(TestServer.ROOT_DN, TestServer.ROOT_PASSWORD);
            for (int n = 0; !stop.get(); n++) {
                String uid = "disk." + id + "." + n;
                String dn = "uid=" + uid + "," + TestServer.PEOPLE;
                try {
                    c.add(dn, new Attribute("objectClass", "top", "account"), new Attribute("uid", uid),
                            new Attribute("description", "x".repeat(2_000)));
                    acknowledged.add(dn);
                } catch (LDAPException e) {
                    if (e.getResultCode() == ResultCode.UNAVAILABLE) {
                        refused.put(dn, new Refusal(e.getResultCode(), e.getDiagnosticMessage()));
                        Thread.sleep(20);
                    } else {
                        failures.add(dn + ": " + e.getResultCode() + " " + e.getMessage());
                        return; // a timeout or a lost connection: this writer is done
                    }
                }
            }
        } catch (LDAPException e) {
            failures.add("writer " + id + ": " + e.getResultCode() + " " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static LDAPConnection connect(int port) throws LDAPException {
        LDAPConnectionOptions options = new LDAPConnectionOptions();
        options.setResponseTimeoutMillis(30_000); // an answer that takes longer counts as a hang
        return new LDAPConnection(options, "127.0.0.1", port);
    }

    /**
     * Takes the volume's space until less than {@code leftFree} is left. With a little room, JE's own check (which
     * runs every few writes, not before each) is what stops the writes rather than a failed log write; with none,
     * the filler writes until the volume refuses it.
     */
    private static void fill(Path filler, Path volume, long leftFree) throws IOException {
        byte[] chunk = new byte[leftFree > 0 ? 1 << 20 : 4096];
        try (OutputStream out = Files.newOutputStream(filler)) {
            while (Files.getFileStore(volume).getUsableSpace() > leftFree + chunk.length) {
                out.write(chunk);
                out.flush();
            }
            if (leftFree == 0) {
                for (;;) {
                    out.write(chunk, 0, 512); // until "No space left on device"
                    out.flush();
                }
            }
        } catch (IOException e) {
            if (leftFree > 0 || Files.getFileStore(volume).getUsableSpace() > 0) {
                throw e;
            }
        }
    }

    private interface Call {
        void run() throws LDAPException;
    }

    private static LDAPException expectThrows(Call call) {
        try {
            call.run();
        } catch (LDAPException e) {
            return e;
        }
        throw new AssertionError("a write succeeded on a full disk");
    }

    /** Mounts a tmpfs of {@link #VOLUME_MB} on {@code dir}, or skips the test (fails it under CI) if it cannot. */
    private static void mountTmpfs(Path dir) throws Exception {
        String said = run("mount", "-t", "tmpfs", "-o", "size=" + VOLUME_MB + "m", "tmpfs", dir.toString());
        if (said != null) {
            TestServer.deleteTree(dir);
            String why = "a small filesystem for the database cannot be mounted (root is needed): " + said;
            if ("true".equals(System.getenv("CI")) || Boolean.getBoolean("ldap.tools.required")) {
                throw new AssertionError(why);
            }
            throw new SkipException(why);
        }
    }

    /** Runs a command; null if it succeeded, else what it said. */
    private static String run(String... command) throws Exception {
        ChildProcess.Result r = ChildProcess.run(Duration.ofSeconds(30), List.of(command));
        return r.exitCode() == 0 ? null : r.said();
    }
}
