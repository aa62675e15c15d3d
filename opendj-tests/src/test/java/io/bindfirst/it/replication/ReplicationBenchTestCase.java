package io.bindfirst.it.replication;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import org.testng.annotations.AfterClass;
import org.testng.annotations.BeforeClass;
import org.testng.annotations.Test;

import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPConnectionOptions;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.Modification;
import com.unboundid.ldap.sdk.ModificationType;

import io.bindfirst.it.support.ForkedServer;
import io.bindfirst.it.support.ReplicaGroup;
import io.bindfirst.it.support.TestServer;

/**
 * The replication figures, with three server processes on loopback: how long after the master acknowledges a
 * delete the deleted user's connection on a replica is closed (under a background write load), and how long after
 * the master is killed another node takes a write. A smoke run in every build (a few rounds, to keep the code
 * path working); the measured run with {@code -Dreplication.bench=true}:
 * <pre>
 *   mvn -o test -pl opendj-tests -Dtest=ReplicationBenchTestCase -Dreplication.bench=true
 * </pre>
 * Results print as {@code REPLICATION-BENCH} lines and go to {@code target/replication-bench/results.txt}. On a
 * two-core machine the three servers, the load and this client share the cores: the figures are an upper bound.
 */
public class ReplicationBenchTestCase {
    private static final List<String> JVM = List.of("-Xmx192m", "-XX:TieredStopAtLevel=1");
    private static final boolean FULL = Boolean.getBoolean("replication.bench");
    private static final int USERS = FULL ? 2_000 : 200;
    private static final int DELETES = FULL ? 200 : 10;
    private static final int KILLS = FULL ? 10 : 2;
    /** Background modifies per second on the master while deletes are timed. */
    private static final int LOAD_PER_SECOND = FULL ? 1_000 : 100;
    private static final int LOAD_WRITERS = FULL ? 16 : 2;
    private static final int WRITE_SECONDS = FULL ? 15 : 2;
    private static final long WAIT_MILLIS = 60_000;

    private final List<String> results = new ArrayList<>();
    private ReplicaGroup group;

    @BeforeClass
    public void startGroup() throws Exception {
        group = ReplicaGroup.start("bench", 3, USERS, JVM);
    }

    @AfterClass(alwaysRun = true)
    public void stopGroup() throws IOException {
        Path dir = Path.of(System.getProperty("basedir", ".")).resolve("target/replication-bench");
        Files.createDirectories(dir);
        Files.write(dir.resolve("results.txt"), results);
        if (group != null) {
            keepLogs(dir);
            group.close();
        }
    }

    /** Keeps each node's server output and JE's own log (elections, syncups, acknowledgements) for reading. */
    private void keepLogs(Path dir) throws IOException {
        for (int i = 0; i < group.size(); i++) {
            Path instance = group.node(i).instance();
            for (Path log : List.of(instance.resolve("logs/server.out"), instance.resolve("db/userRoot/je.info.0"))) {
                if (Files.exists(log)) {
                    Files.copy(log, dir.resolve("n" + i + "-" + log.getFileName()),
                            java.nio.file.StandardCopyOption.REPLACE_EXISTING);
                }
            }
        }
    }

    @Test
    public void aDeletedUsersConnectionOnAReplicaCloses() throws Exception {
        AtomicBoolean loading = new AtomicBoolean(true);
        AtomicLong loaded = new AtomicLong();
        // Each modify waits for the master's fsync and a replica's acknowledgement: one writer alone reaches a
        // few hundred a second, so the load is spread over writers of their own entries.
        List<Thread> load = new ArrayList<>();
        for (int w = 0; w < LOAD_WRITERS; w++) {
            int writer = w;
            Thread t = new Thread(() -> writeLoad(writer, loading, loaded), "replication-bench-load-" + w);
            t.start();
            load.add(t);
        }
        List<Long> delays = new ArrayList<>();
        long loadStart = System.nanoTime();
        try (LDAPConnection master = root(0)) {
            for (int k = 0; k < DELETES; k++) {
                String user = "uid=user." + (USERS - 1 - k) + "," + TestServer.PEOPLE;
                await(() -> exists(2, user));
                CountDownLatch closed = new CountDownLatch(1);
                AtomicLong closedAt = new AtomicLong();
                LDAPConnectionOptions options = new LDAPConnectionOptions();
                options.setDisconnectHandler((c, host, port, type, message, cause) -> {
                    closedAt.set(System.nanoTime());
                    closed.countDown();
                });
                LDAPConnection bound = new LDAPConnection(options, "127.0.0.1", group.node(2).port());
                bound.bind(user, TestServer.USER_PASSWORD);
                master.delete(user);
                long acknowledged = System.nanoTime();
                assertTrue(closed.await(WAIT_MILLIS, TimeUnit.MILLISECONDS), "the replica kept " + user + " bound");
                delays.add((closedAt.get() - acknowledged) / 1_000);
                bound.close();
            }
        } finally {
            loading.set(false);
            for (Thread t : load) {
                t.join();
            }
        }
        double seconds = (System.nanoTime() - loadStart) / 1e9;
        Collections.sort(delays);
        report("propagation: from the master's delete response to the deleted user's connection closed on a "
                + "replica, " + DELETES + " deletes, background load " + Math.round(loaded.get() / seconds)
                + " modifies/s (asked " + LOAD_PER_SECOND + "): median " + at(delays, 0.5) + " us, p99 "
                + at(delays, 0.99) + " us, max " + delays.get(delays.size() - 1) + " us (negative: closed before the "
                + "master answered)");
    }

    /**
     * Modifies per second with {@link #LOAD_WRITERS} writers as fast as they go, on the group's master (each write
     * fsynced there and acknowledged by a replica) and on a server of its own (fsynced), one after the other.
     */
    @Test(dependsOnMethods = "aDeletedUsersConnectionOnAReplicaCloses")
    public void writesPerSecondWithAMajorityAndAlone() throws Exception {
        int master = masterNode();
        double replicated = writesPerSecond(group.node(master).port());
        double alone;
        try (ForkedServer single = ForkedServer.start(USERS, JVM)) {
            alone = writesPerSecond(single.port());
        }
        report("writes: modifies/s with " + LOAD_WRITERS + " writers for " + WRITE_SECONDS + " s: replicated "
                + "(master fsync + a replica's acknowledgement) " + Math.round(replicated) + ", a server of its "
                + "own (fsync) " + Math.round(alone) + ", ratio " + String.format(java.util.Locale.ROOT, "%.2f",
                replicated / alone));
    }

    private double writesPerSecond(int port) throws Exception {
        AtomicLong done = new AtomicLong();
        AtomicBoolean going = new AtomicBoolean(true);
        List<Thread> writers = new ArrayList<>();
        for (int w = 0; w < LOAD_WRITERS; w++) {
            String dn = "uid=user." + (USERS / 2 + w) + "," + TestServer.PEOPLE;
            Thread t = new Thread(() -> {
                try (LDAPConnection c = new LDAPConnection("127.0.0.1", port, TestServer.ROOT_DN,
                        TestServer.ROOT_PASSWORD)) {
                    while (going.get()) {
                        c.modify(dn, new Modification(ModificationType.REPLACE, "description", "w" + done.get()));
                        done.incrementAndGet();
                    }
                } catch (LDAPException e) {
                    throw new IllegalStateException("a writer failed", e);
                }
            }, "replication-bench-writer-" + w);
            t.start();
            writers.add(t);
        }
        long start = System.nanoTime();
        TimeUnit.SECONDS.sleep(WRITE_SECONDS);
        long counted = done.get();
        double seconds = (System.nanoTime() - start) / 1e9;
        going.set(false);
        for (Thread t : writers) {
            t.join();
        }
        return counted / seconds;
    }

    @Test(dependsOnMethods = "writesPerSecondWithAMajorityAndAlone")
    public void aKilledMasterIsReplacedWithinSeconds() throws Exception {
        List<Long> took = new ArrayList<>();
        for (int round = 0; round < KILLS; round++) {
            int k = round;
            int master = masterNode();
            String user = "uid=user." + k + "," + TestServer.PEOPLE;
            try (LDAPConnection c = root(master)) {
                c.modify(user, new Modification(ModificationType.REPLACE, "description", "before kill " + k));
            }
            group.kill(master);
            long killed = System.nanoTime();
            await(() -> {
                for (int i = 0; i < 3; i++) {
                    if (i != master && tryWrite(i, user, "after kill " + k)) {
                        return true;
                    }
                }
                return false;
            });
            took.add((System.nanoTime() - killed) / 1_000_000);
            for (int i = 0; i < 3; i++) {
                if (i != master) {
                    assertEquals(attribute(i, user, "description"), "after kill " + k);
                }
            }
            group.restart(master);
            int rejoined = master;
            await(() -> "replica".equals(group.role(rejoined)));
        }
        Collections.sort(took);
        report("failover: from SIGKILL of the master to the first write another node took, " + KILLS + " kills: "
                + "median " + at(took, 0.5) + " ms, max " + took.get(took.size() - 1) + " ms " + took);
    }

    private void writeLoad(int writer, AtomicBoolean loading, AtomicLong loaded) {
        long intervalNanos = 1_000_000_000L * LOAD_WRITERS / LOAD_PER_SECOND;
        long next = System.nanoTime();
        try (LDAPConnection c = root(0)) {
            while (loading.get()) {
                c.modify("uid=user." + (KILLS + writer) + "," + TestServer.PEOPLE,
                        new Modification(ModificationType.REPLACE, "description", "load " + loaded.get()));
                loaded.incrementAndGet();
                next += intervalNanos;
                long sleep = next - System.nanoTime();
                if (sleep > 0) {
                    TimeUnit.NANOSECONDS.sleep(sleep);
                }
            }
        } catch (LDAPException e) {
            throw new IllegalStateException("the background load failed", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private int masterNode() throws Exception {
        int[] found = {-1};
        await(() -> {
            for (int i = 0; i < 3; i++) {
                if ("master".equals(group.role(i))) {
                    found[0] = i;
                    return true;
                }
            }
            return false;
        });
        return found[0];
    }

    private boolean tryWrite(int node, String dn, String value) {
        long t0 = System.nanoTime();
        try (LDAPConnection c = root(node)) {
            c.modify(dn, new Modification(ModificationType.REPLACE, "description", value));
            slow(node, t0, "success");
            return true;
        } catch (LDAPException e) {
            slow(node, t0, e.getResultCode() + " " + e.getDiagnosticMessage());
            return false;
        }
    }

    /** Says what a write attempt of a failover that took over half a second was answered: where the time goes. */
    private void slow(int node, long t0, String what) {
        long ms = (System.nanoTime() - t0) / 1_000_000;
        if (ms > 500) {
            report("failover write attempt on n" + node + " took " + ms + " ms: " + what);
        }
    }

    private boolean exists(int node, String dn) {
        return attribute(node, dn, "uid") != null;
    }

    private String attribute(int node, String dn, String attribute) {
        return group.attribute(node, dn, attribute);
    }

    private LDAPConnection root(int node) throws LDAPException {
        return group.root(node);
    }

    private void report(String line) {
        String out = "REPLICATION-BENCH " + (FULL ? "" : "(smoke) ") + line;
        System.out.println(out);
        results.add(out);
    }

    private static long at(List<Long> sorted, double fraction) {
        return sorted.get(Math.min(sorted.size() - 1, (int) Math.floor(fraction * sorted.size())));
    }

    private static void await(ReplicaGroup.Condition condition) throws Exception {
        ReplicaGroup.await(WAIT_MILLIS, condition);
    }
}
