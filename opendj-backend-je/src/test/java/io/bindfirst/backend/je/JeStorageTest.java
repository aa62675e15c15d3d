package io.bindfirst.backend.je;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertFalse;
import static org.testng.Assert.assertNotNull;
import static org.testng.Assert.assertTrue;
import static org.testng.Assert.expectThrows;

import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.forgerock.opendj.ldap.ResultCode;
import org.testng.annotations.AfterMethod;
import org.testng.annotations.BeforeMethod;
import org.testng.annotations.Test;

import com.sleepycat.je.Database;
import com.sleepycat.je.DatabaseConfig;
import com.sleepycat.je.DatabaseEntry;
import com.sleepycat.je.Environment;
import com.sleepycat.je.EnvironmentConfig;
import com.sleepycat.je.LockMode;
import com.sleepycat.je.OperationStatus;

import io.bindfirst.server.backend.BackendConfig;
import io.bindfirst.server.backend.BackendException;

public class JeStorageTest {
    private Path dir;
    private JeStorage storage;

    @BeforeMethod
    public void open() throws BackendException {
        dir = TestSupport.tempDir().resolve("nested/dirs");
        storage = new JeStorage("test", dir, 0);
    }

    @AfterMethod(alwaysRun = true)
    public void close() {
        storage.close();
        TestSupport.delete(dir.getParent().getParent());
    }

    @Test
    public void writesCommitAndAreVisibleToReads() throws BackendException {
        Database db = storage.openDatabase("t", false);
        storage.write(txn -> db.put(txn, key("a"), key("1")));
        DatabaseEntry data = new DatabaseEntry();
        assertEquals(storage.read(() -> db.get(null, key("a"), data, LockMode.READ_COMMITTED)),
                OperationStatus.SUCCESS);
        assertEquals(new String(data.getData()), "1");
        assertTrue(storage.databaseNames().contains("t"));
    }

    @Test
    public void databasesKeyTheirNodesByPrefix() throws BackendException {
        assertTrue(storage.openDatabase("plain", false).getConfig().getKeyPrefixing());
        assertTrue(storage.openDatabase("dups", true).getConfig().getKeyPrefixing());
        assertTrue(storage.openEntryDatabase("entries").getConfig().getKeyPrefixing());
    }

    @Test
    public void aDatabaseMadeWithoutKeyPrefixingGetsItAndKeepsItsRecords() throws BackendException {
        storage.close();
        // as a build before key prefixing left it
        try (Environment env = new Environment(dir.toFile(), new EnvironmentConfig().setTransactional(true))) {
            DatabaseConfig old = new DatabaseConfig().setAllowCreate(true).setTransactional(true);
            try (Database db = env.openDatabase(null, "old", old)) {
                assertFalse(db.getConfig().getKeyPrefixing());
                for (int i = 0; i < 1_000; i++) {
                    db.put(null, key("dc=com,dc=example,ou=people,uid=user." + i), key(Integer.toString(i)));
                }
            }
        }
        storage = new JeStorage("test", dir, 0);
        Database db = storage.openDatabase("old", false);
        assertTrue(db.getConfig().getKeyPrefixing());
        storage.write(txn -> db.put(txn, key("dc=com,dc=example,ou=people,uid=new"), key("new")));
        for (int i = 0; i < 1_000; i++) {
            DatabaseEntry data = new DatabaseEntry();
            String dn = "dc=com,dc=example,ou=people,uid=user." + i;
            assertEquals(storage.read(() -> db.get(null, key(dn), data,
                    LockMode.READ_COMMITTED)), OperationStatus.SUCCESS, "record " + i);
            assertEquals(new String(data.getData()), Integer.toString(i));
        }
        assertEquals(db.count(), 1_001);
    }

    @Test
    public void aFailedWorkIsRolledBack() throws BackendException {
        Database db = storage.openDatabase("t", false);
        BackendException e = expectThrows(BackendException.class, () -> storage.write(txn -> {
            db.put(txn, key("a"), key("1"));
            throw new BackendException(ResultCode.ENTRY_ALREADY_EXISTS, "nope");
        }));
        assertEquals(e.resultCode(), ResultCode.ENTRY_ALREADY_EXISTS);
        assertEquals(storage.read(() -> db.get(null, key("a"), new DatabaseEntry(), null)), OperationStatus.NOTFOUND);
    }

    /** Two transactions lock two records in opposite orders: JE picks a deadlock victim, which is retried. */
    @Test
    public void deadlocksAreRetried() throws Exception {
        Database db = storage.openDatabase("t", false);
        CountDownLatch bothLocked = new CountDownLatch(2);
        AtomicInteger attempts = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            Future<?> ab = pool.submit(() -> lockBoth(db, "a", "b", bothLocked, attempts));
            Future<?> ba = pool.submit(() -> lockBoth(db, "b", "a", bothLocked, attempts));
            ab.get(30, TimeUnit.SECONDS);
            ba.get(30, TimeUnit.SECONDS);
        } finally {
            pool.shutdownNow();
        }
        System.out.println("deadlock test: attempts=" + attempts.get());
        assertTrue(attempts.get() >= 3, "one of the two must have been retried, attempts=" + attempts.get());
        assertEquals(storage.read(() -> db.get(null, key("a"), new DatabaseEntry(), null)), OperationStatus.SUCCESS);
        assertEquals(storage.read(() -> db.get(null, key("b"), new DatabaseEntry(), null)), OperationStatus.SUCCESS);
    }

    private Void lockBoth(Database db, String first, String second, CountDownLatch bothLocked,
            AtomicInteger attempts) throws Exception {
        storage.write(txn -> {
            attempts.incrementAndGet();
            db.put(txn, key(first), key(first));
            bothLocked.countDown();
            try {
                bothLocked.await(5, TimeUnit.SECONDS); // only the first attempts meet here
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            db.put(txn, key(second), key(first));
            return null;
        });
        return null;
    }

    @Test
    public void engineErrorsKeepTheirTextInTheCauseOnly() throws BackendException {
        Database db = storage.openDatabase("t", false);
        db.close(); // using a closed handle makes JE throw
        BackendException e = expectThrows(BackendException.class,
                () -> storage.read(() -> db.get(null, key("a"), new DatabaseEntry(), null)));
        assertEquals(e.resultCode(), ResultCode.OTHER);
        assertEquals(e.getMessage(), "Storage error in backend test");
        assertNotNull(e.getCause());
        assertFalse(e.getCause() instanceof BackendException);
    }

    @Test
    public void closedStorageRefusesWork() throws BackendException {
        storage.close();
        storage.close(); // idempotent
        BackendException e = expectThrows(BackendException.class, () -> storage.read(() -> 1));
        assertEquals(e.resultCode(), ResultCode.UNAVAILABLE);
        assertEquals(e.getMessage(), "Backend test is closed");
    }

    @Test
    public void reopensWhatWasWrittenBeforeClose() throws BackendException {
        Database db = storage.openDatabase("t", false);
        storage.write(txn -> db.put(txn, key("a"), key("1")));
        storage.close();
        storage = new JeStorage("test", dir, 8L << 20);
        Database again = storage.openDatabase("t", false);
        assertEquals(storage.read(() -> again.get(null, key("a"), new DatabaseEntry(), null)), OperationStatus.SUCCESS);
    }

    /**
     * A bulk load's entry database logs each record as it is stored and keeps none of their data in the cache,
     * unlike its other deferred-write databases; what it stored reads back after the write-out and once reopened.
     */
    @Test
    public void aBulkLoadKeepsNoEntryDataInTheCache() throws BackendException {
        storage.close();
        storage = new JeStorage("test", dir, 64L << 20, true, BackendConfig.DEFAULT_FREE_DISK_BYTES);
        Database entries = storage.openEntryDatabase("entries");
        Database other = storage.openDatabase("other", false);
        long before = cacheBytes(entries);
        fill(entries);
        long afterEntries = cacheBytes(entries);
        fill(other);
        long afterOther = cacheBytes(entries);
        // 2,000 records of 4 KiB: 8 MiB of data. The B-tree's own nodes for them take well under 1 MiB.
        assertTrue(afterEntries - before < (1 << 20), "the entry database's data stayed in the cache: "
                + (afterEntries - before) + " bytes more");
        assertTrue(afterOther - afterEntries > (6 << 20), "the other database should keep its data until the "
                + "write-out (else this test shows nothing): " + (afterOther - afterEntries) + " bytes more");
        storage.writeOutBulkLoad();
        DatabaseEntry data = new DatabaseEntry();
        assertEquals(storage.read(() -> entries.get(null, key("r1999"), data, null)), OperationStatus.SUCCESS);
        assertEquals(data.getSize(), 4096);
        storage.close();
        storage = new JeStorage("test", dir, 0);
        Database reopened = storage.openDatabase("entries", false);
        assertEquals(storage.read(() -> reopened.count()), 2_000L);
    }

    private void fill(Database db) throws BackendException {
        byte[] value = new byte[4096];
        storage.write(txn -> {
            for (int i = 0; i < 2_000; i++) {
                value[0] = (byte) i;
                db.put(txn, key("r" + i), new DatabaseEntry(value));
            }
            return null;
        });
    }

    private static long cacheBytes(Database db) {
        return db.getEnvironment().getStats(null).getCacheTotalBytes();
    }

    private static DatabaseEntry key(String s) {
        return new DatabaseEntry(s.getBytes());
    }
}
