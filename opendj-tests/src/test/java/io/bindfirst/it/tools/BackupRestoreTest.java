package io.bindfirst.it.tools;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertFalse;
import static org.testng.Assert.assertNotNull;
import static org.testng.Assert.assertNull;
import static org.testng.Assert.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

import org.testng.annotations.Test;

import com.unboundid.asn1.ASN1OctetString;
import com.unboundid.ldap.sdk.ExtendedRequest;
import com.unboundid.ldap.sdk.ExtendedResult;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.ResultCode;

import io.bindfirst.it.support.ChildProcess;
import io.bindfirst.it.support.TestServer;
import io.bindfirst.server.core.BackupRequest;
import io.bindfirst.server.testsupport.Poll;

/**
 * bin/backup and bin/restore beside a real server: the backup extended operation is the root users' only; an
 * online backup taken while a writer adds entries restores every entry acknowledged before it started, and a
 * state that is one moment of that writer (no gap); restore refuses a damaged backup and a running server.
 * The tools run as separate processes, as a user runs them: only another process meets the JE lock.
 */
public class BackupRestoreTest {
    private static final Duration LIMIT = Duration.ofMinutes(3);
    private static final String BACKUP = "io.bindfirst.tools.Backup";
    private static final String RESTORE = "io.bindfirst.tools.Restore";

    private static ChildProcess.Result tool(String main, Path instance, String... args) throws Exception {
        List<String> all = new ArrayList<>(List.of("--instanceRoot", instance.toString()));
        all.addAll(List.of(args));
        return ChildProcess.java(main, all.toArray(String[]::new)).await(LIMIT);
    }

    private static ChildProcess.Result onlineBackup(TestServer ts, Path dir) throws Exception {
        return tool(BACKUP, ts.instance(), "-d", dir.toString(), "-p", Integer.toString(ts.port()),
                "-w", TestServer.ROOT_PASSWORD);
    }

    private static String writer(int n) {
        return "uid=writer." + n + "," + TestServer.PEOPLE;
    }

    private static ExtendedResult requestBackup(LDAPConnection c, Path dir) throws Exception {
        byte[] value = new BackupRequest("userRoot", dir.toString()).encode().toByteArray();
        return c.processExtendedOperation(new ExtendedRequest(BackupRequest.OID, new ASN1OctetString(value)));
    }

    private static List<Path> beforeRestoreDirs(Path instance) throws Exception {
        try (Stream<Path> s = Files.list(instance.resolve("db"))) {
            return s.filter(p -> p.getFileName().toString().startsWith("userRoot.before-restore-")).toList();
        }
    }

    @Test
    public void onlyRootUsersMayBackUp() throws Exception {
        try (TestServer ts = TestServer.start(5)) {
            Path dir = ts.instance().resolve("refused");
            try (LDAPConnection user = ts.bindAs(TestServer.user(2), TestServer.USER_PASSWORD);
                 LDAPConnection anonymous = ts.connect()) {
                for (LDAPConnection c : List.of(user, anonymous)) {
                    ExtendedResult r = requestBackup(c, dir);
                    assertEquals(r.getResultCode(), ResultCode.INSUFFICIENT_ACCESS_RIGHTS, r.toString());
                    assertEquals(r.getDiagnosticMessage(), "Only root users may back up a backend");
                }
            }
            assertFalse(Files.exists(dir), "a refused backup writes nothing");
            ChildProcess.Result asUser = tool(BACKUP, ts.instance(), "-d", dir.toString(), "-p",
                    Integer.toString(ts.port()), "-D", TestServer.user(2), "-w", TestServer.USER_PASSWORD);
            assertEquals(asUser.exitCode(), 1, asUser.said());
            assertTrue(asUser.output().contains("did not back up backend userRoot: Insufficient Access Rights: Only "
                    + "root users may back up a backend"), asUser.said());
            assertFalse(Files.exists(dir), "a refused backup writes nothing");
            try (LDAPConnection root = ts.bindAs(TestServer.ROOT_DN, TestServer.ROOT_PASSWORD)) {
                ExtendedResult r = requestBackup(root, dir);
                assertEquals(r.getResultCode(), ResultCode.SUCCESS, r.toString());
                assertTrue(Files.exists(dir.resolve("backup-manifest.txt")));
            }
        }
    }

    /**
     * A writer adds entries one after the other as fast as it can during the online backup. The restored
     * backend holds every entry acknowledged before the backup was requested, nothing the writer sent after
     * the backup ended, and no gap: a single moment of the writer's sequence, as a consistent copy must be.
     */
    @Test
    public void anOnlineBackupDuringWritesRestoresEveryAcknowledgedEntry() throws Exception {
        try (TestServer ts = TestServer.start(20)) {
            AtomicInteger acknowledged = new AtomicInteger(); // writer.0 .. writer.(n-1) are acknowledged
            AtomicBoolean stop = new AtomicBoolean();
            CompletableFuture<Void> writing;
            try (LDAPConnection root = ts.bindAs(TestServer.ROOT_DN, TestServer.ROOT_PASSWORD)) {
                writing = CompletableFuture.runAsync(() -> {
                    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(3);
                    try {
                        for (int n = 0; !stop.get() && System.nanoTime() < deadline; n++) {
                            root.add("dn: " + writer(n), "objectClass: inetOrgPerson", "uid: writer." + n,
                                    "cn: Writer " + n, "sn: " + n);
                            acknowledged.set(n + 1);
                        }
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                });
                Poll.until("the writer's first 50 adds", Duration.ofSeconds(60), () -> acknowledged.get() >= 50);
                Path dir = ts.instance().resolve("backup");
                ExtendedResult backup;
                int before;
                int sentAfter;
                // The request straight from here, not through bin/backup (the other tests run it): what was
                // acknowledged "before" is then read a moment before the server starts the backup, not a JVM
                // start earlier, so a backup that loses recent writes fails this test.
                try (LDAPConnection admin = ts.bindAs(TestServer.ROOT_DN, TestServer.ROOT_PASSWORD)) {
                    before = acknowledged.get();
                    backup = requestBackup(admin, dir);
                    sentAfter = acknowledged.get() + 1; // the add in flight when the backup ended may be in it
                }
                assertEquals(backup.getResultCode(), ResultCode.SUCCESS, backup.toString());
                assertTrue(backup.getDiagnosticMessage().startsWith("Backed up backend userRoot to " + dir + ": "),
                        backup.toString());
                int target = sentAfter + 20;
                Poll.until("20 adds after the backup", Duration.ofSeconds(60), () -> acknowledged.get() >= target);
                stop.set(true);
                writing.get(60, TimeUnit.SECONDS);
                int total = acknowledged.get();

                ts.server().close();
                ChildProcess.Result restore = tool(RESTORE, ts.instance(), "-d", dir.toString());
                assertEquals(restore.exitCode(), 0, restore.said());
                assertTrue(restore.output().startsWith("Restored backend userRoot from " + dir), restore.said());
                List<Path> aside = beforeRestoreDirs(ts.instance());
                assertEquals(aside.size(), 1, "the old database is kept: " + aside);
                assertTrue(restore.output().contains("is in " + aside.get(0)), restore.said());

                ts.restart();
                try (LDAPConnection c = ts.bindAs(TestServer.ROOT_DN, TestServer.ROOT_PASSWORD)) {
                    int restored = 0;
                    while (c.getEntry(writer(restored), "1.1") != null) {
                        restored++;
                    }
                    assertTrue(restored >= before, "acknowledged before the backup: " + before + ", restored: "
                            + restored);
                    assertTrue(restored <= sentAfter, "sent after the backup ended: from writer." + sentAfter
                            + ", restored up to writer." + (restored - 1));
                    for (int n = restored; n < total; n++) {
                        assertNull(c.getEntry(writer(n), "1.1"), "a gap: writer." + n + " without writer."
                                + restored);
                    }
                    assertNotNull(c.getEntry(TestServer.user(19), "1.1"), "the sample users are there");
                    System.out.printf("BACKUP acknowledged before %d, restored %d, sent after the backup from %d, "
                            + "written in all %d%n", before, restored, sentAfter, total);
                }
            }
        }
    }

    @Test
    public void restoreRefusesWhileTheServerRunsAndADamagedBackup() throws Exception {
        try (TestServer ts = TestServer.start(20)) {
            Path dir = ts.instance().resolve("backup");
            ChildProcess.Result backup = onlineBackup(ts, dir);
            assertEquals(backup.exitCode(), 0, backup.said());

            ChildProcess.Result running = tool(RESTORE, ts.instance(), "-d", dir.toString());
            assertEquals(running.exitCode(), 1, running.said());
            assertTrue(running.output().startsWith("restore: Backend userRoot: its database directory "
                    + ts.instance().resolve("db/userRoot") + " is in use by another process"), running.said());
            assertTrue(running.output().contains("restore works on a stopped server only"), running.said());
            assertFalse(running.output().contains("\tat "), "no stack trace: " + running.said());
            assertEquals(beforeRestoreDirs(ts.instance()), List.of());

            ts.server().close();
            Path damaged;
            try (Stream<Path> s = Files.list(dir)) {
                damaged = s.filter(p -> p.toString().endsWith(".jdb")).sorted().findFirst().orElseThrow();
            }
            byte[] bytes = Files.readAllBytes(damaged);
            bytes[bytes.length / 2] ^= 0x01;
            Files.write(damaged, bytes);
            ChildProcess.Result refused = tool(RESTORE, ts.instance(), "-d", dir.toString());
            assertEquals(refused.exitCode(), 1, refused.said());
            assertTrue(refused.output().contains("The backup in " + dir + " is damaged, nothing was changed: "
                    + damaged.getFileName() + " does not have the SHA-256 the manifest gives"), refused.said());
            assertEquals(beforeRestoreDirs(ts.instance()), List.of(), "nothing moved");
            ts.restart();
            try (LDAPConnection c = ts.bindAs(TestServer.user(7), TestServer.USER_PASSWORD)) {
                assertNotNull(c.getEntry(TestServer.user(7), "1.1"));
            }
        }
    }

    /** The bin scripts, offline: a backup of the stopped server, a change, the restore takes it back. */
    @Test
    public void theBinScriptsBackUpAndRestoreOffline() throws Exception {
        try (TestServer ts = TestServer.start(20)) {
            ts.server().close();
            Path bin = TestServer.repoRoot().resolve("bin");
            Path dir = ts.instance().resolve("offline-backup");
            ChildProcess.Result backup = ChildProcess.run(LIMIT, List.of(bin.resolve("backup").toString(),
                    "--instanceRoot", ts.instance().toString(), "-d", dir.toString(), "-p", "1"));
            assertEquals(backup.exitCode(), 0, backup.said());
            assertTrue(backup.output().contains("Backed up backend userRoot to " + dir), backup.said());
            assertTrue(backup.output().contains("(offline)"), backup.said());
            ChildProcess.Result again = ChildProcess.run(LIMIT, List.of(bin.resolve("backup").toString(),
                    "--instanceRoot", ts.instance().toString(), "-d", dir.toString(), "-p", "1"));
            assertEquals(again.exitCode(), 1, again.said());
            assertTrue(again.output().contains("The backup directory " + dir + " is not empty"), again.said());

            ts.restart();
            try (LDAPConnection root = ts.bindAs(TestServer.ROOT_DN, TestServer.ROOT_PASSWORD)) {
                root.delete(TestServer.user(7));
            }
            ts.server().close();
            ChildProcess.Result restore = ChildProcess.run(LIMIT, List.of(bin.resolve("restore").toString(),
                    "--instanceRoot", ts.instance().toString(), "-d", dir.toString()));
            assertEquals(restore.exitCode(), 0, restore.said());
            ts.restart();
            try (LDAPConnection c = ts.bindAs(TestServer.user(7), TestServer.USER_PASSWORD)) {
                assertNotNull(c.getEntry(TestServer.user(7), "1.1"), "the deleted user is back");
            }
            ChildProcess.Result usage = ChildProcess.run(LIMIT, List.of(bin.resolve("restore").toString(),
                    "--instanceRoot", ts.instance().toString()));
            assertEquals(usage.exitCode(), 2, usage.said());
        }
    }
}
