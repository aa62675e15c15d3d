package io.bindfirst.backend.je;

import static io.bindfirst.backend.je.TestSupport.PEOPLE;
import static io.bindfirst.backend.je.TestSupport.dn;
import static io.bindfirst.backend.je.TestSupport.person;
import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertTrue;

import java.nio.file.Path;
import java.util.List;

import org.forgerock.opendj.ldap.DN;
import org.testng.annotations.AfterMethod;
import org.testng.annotations.BeforeMethod;
import org.testng.annotations.Test;

import com.sleepycat.je.Database;
import com.sleepycat.je.DatabaseEntry;

import io.bindfirst.server.backend.BackendException;
import io.bindfirst.server.backend.IndexType;

/**
 * {@code Backend.verify} on JE: nothing to say about a sound store, after writes of every kind; and each kind of
 * damage (written straight into the databases, as a torn write would leave them) named in a sentence.
 */
public class JeBackendVerifyTest {
    private Path dir;
    private JeBackend backend;

    @BeforeMethod
    public void open() throws BackendException {
        dir = TestSupport.tempDir().resolve("db");
        backend = TestSupport.open(dir);
        TestSupport.addTree(backend);
        for (int i = 1; i <= 5; i++) {
            backend.addEntry(person(i, PEOPLE));
        }
    }

    @AfterMethod(alwaysRun = true)
    public void close() {
        backend.close();
        TestSupport.delete(dir.getParent());
    }

    @Test
    public void aSoundStoreHasNoProblemsAfterWritesOfEveryKind() throws BackendException {
        assertEquals(backend.verify(), List.of());
        backend.renameEntry(dn(PEOPLE), dn("ou=Staff,dc=example,dc=com"),
                e -> TestSupport.renamed(e, "ou=Staff,dc=example,dc=com"));
        backend.modifyEntry(dn("uid=user.1,ou=Staff,dc=example,dc=com"),
                e -> TestSupport.with(e, "mail", "changed@example.com"));
        backend.deleteEntry(dn("uid=user.2,ou=Staff,dc=example,dc=com"), false);
        assertEquals(backend.verify(), List.of());
    }

    @Test
    public void aMissingDnKeyOrphansTheSubtreeAndLeavesEntriesUnnamed() throws BackendException {
        damage((dn2id, id2entry, uid) -> dn2id.delete(null, key(PEOPLE)));
        List<String> problems = backend.verify();
        assertTrue(problems.contains("uid=user.3," + PEOPLE + " has no parent entry: it cannot be reached from a "
                + "base DN"), problems.toString());
        assertTrue(problems.stream().anyMatch(p -> p.matches("id2entry holds entry \\d+ \\(" + PEOPLE
                + "\\), which no dn2id key names")), problems.toString());
    }

    @Test
    public void indexRecordsMissingOrStrayAreNamed() throws BackendException {
        damage((dn2id, id2entry, uid) -> {
            DatabaseEntry id = new DatabaseEntry();
            dn2id.get(null, key("uid=user.1," + PEOPLE), id, null);
            uid.delete(null, new DatabaseEntry(bytes("user.2")));
            uid.put(null, new DatabaseEntry(bytes("ghost")), id);
        });
        List<String> problems = backend.verify();
        assertTrue(problems.contains("index eq.uid lacks the value 'user.2' of uid=user.2," + PEOPLE),
                problems.toString());
        assertTrue(problems.stream().anyMatch(p -> p.matches("index eq\\.uid names entry \\d+ under 'ghost', a value "
                + "uid=user.1," + PEOPLE + " does not hold")), problems.toString());
        assertEquals(problems.size(), 2, problems.toString());
    }

    @Test
    public void aKeyNamingNoEntryIsNamed() throws BackendException {
        damage((dn2id, id2entry, uid) -> {
            DatabaseEntry id = new DatabaseEntry();
            dn2id.get(null, key("uid=user.4," + PEOPLE), id, null);
            id2entry.delete(null, id);
        });
        List<String> problems = backend.verify();
        assertTrue(problems.stream().anyMatch(p -> p.contains("names entry") && p.endsWith(
                "which id2entry does not hold")), problems.toString());
    }

    private interface Damage {
        void apply(Database dn2id, Database id2entry, Database uid);
    }

    /** Closes the backend, changes its databases directly, and opens it again. */
    private void damage(Damage damage) throws BackendException {
        backend.close();
        try (JeStorage storage = new JeStorage("damage", dir, 0)) {
            Database dn2id = storage.openDatabase(Entries.DN2ID, false);
            Database id2entry = storage.openDatabase(Entries.ID2ENTRY, false);
            Database uid = storage.openDatabase(AttributeIndex.dbName(IndexType.EQUALITY, "uid"), true);
            damage.apply(dn2id, id2entry, uid);
        }
        backend = TestSupport.open(dir);
    }

    private static DatabaseEntry key(String name) {
        DN canonical = dn(name);
        return new DatabaseEntry(DnKeys.keyOfCanonical(canonical));
    }

    private static byte[] bytes(String text) {
        return text.getBytes(java.nio.charset.StandardCharsets.UTF_8);
    }
}
