package io.bindfirst.backend.je;

import static io.bindfirst.backend.je.TestSupport.PEOPLE;
import static io.bindfirst.backend.je.TestSupport.SUFFIX;
import static io.bindfirst.backend.je.TestSupport.dn;
import static io.bindfirst.backend.je.TestSupport.norm;
import static io.bindfirst.backend.je.TestSupport.norms;
import static io.bindfirst.backend.je.TestSupport.person;
import static io.bindfirst.backend.je.TestSupport.search;
import static io.bindfirst.backend.je.TestSupport.with;
import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertFalse;
import static org.testng.Assert.assertNull;
import static org.testng.Assert.assertSame;
import static org.testng.Assert.assertTrue;
import static org.testng.Assert.expectThrows;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import org.forgerock.opendj.ldap.Entry;
import org.forgerock.opendj.ldap.LinkedHashMapEntry;
import org.forgerock.opendj.ldap.ResultCode;
import org.forgerock.opendj.ldap.SearchScope;
import org.testng.annotations.AfterMethod;
import org.testng.annotations.BeforeMethod;
import org.testng.annotations.Test;

import io.bindfirst.server.backend.BackendException;
import io.bindfirst.server.backend.EntryChange;
import io.bindfirst.server.backend.IndexType;

/** Modify and delete; renames are in {@link JeBackendRenameTest}. */
public class JeBackendWriteTest {
    private static final String USER1 = "uid=user.1," + PEOPLE;
    private static final String DEVICE = "cn=device," + USER1;

    private Path dir;
    private JeBackend backend;

    @BeforeMethod
    public void open() throws BackendException {
        dir = TestSupport.tempDir().resolve("db");
        backend = TestSupport.open(dir);
        TestSupport.addTree(backend);
        for (int i = 1; i <= 3; i++) {
            backend.addEntry(person(i, PEOPLE));
        }
        backend.addEntry(TestSupport.entry(DEVICE, "objectClass", "device", "cn", "device"));
    }

    @AfterMethod(alwaysRun = true)
    public void close() {
        backend.close();
        TestSupport.delete(dir.getParent());
    }

    @Test
    public void modifyReplacesValuesAndTheIndexFollows() throws BackendException {
        Entry original = person(2, PEOPLE);
        String user2 = "uid=user.2," + PEOPLE;
        EntryChange change = backend.modifyEntry(dn("UID=User.2,ou=people," + SUFFIX),
                current -> with(with(current, "mail", "renamed.2@example.com"), "description", "changed"));
        assertEquals(change.before(), original);
        assertEquals(change.after(), with(with(original, "mail", "renamed.2@example.com"), "description", "changed"));
        assertEquals(backend.getEntry(dn(user2)), change.after());

        for (int reopen = 0; reopen < 2; reopen++) {
            assertEquals(search(backend, SUFFIX, SearchScope.WHOLE_SUBTREE, "(mail=user.2@example.com)"), List.of(),
                    "old value left the index");
            assertEquals(search(backend, SUFFIX, SearchScope.WHOLE_SUBTREE, "(mail=RENAMED.2@example.com)"),
                    norms(user2), "new value is indexed");
            assertEquals(search(backend, SUFFIX, SearchScope.WHOLE_SUBTREE, "(uid=user.2)"), norms(user2),
                    "an unchanged attribute keeps its index record");
            assertEquals(backend.getEntry(dn(user2)), change.after());
            backend.close();
            assertEquals(StoreCheck.check(dir), 7);
            backend = TestSupport.open(dir);
        }
    }

    /** An update that edits its argument in place (against the contract) must not corrupt before or the index. */
    @Test
    public void anUpdateThatEditsItsArgumentCannotCorruptBefore() throws BackendException {
        EntryChange change = backend.modifyEntry(dn(USER1), current -> {
            Entry shallow = new LinkedHashMapEntry(current); // shares attribute objects with current
            shallow.replaceAttribute("uid", "user.one"); // clears and refills the shared attribute
            return shallow;
        });
        assertEquals(change.before(), person(1, PEOPLE));
        assertEquals(change.after().getAttribute("uid").firstValueAsString(), "user.one");
        assertEquals(search(backend, SUFFIX, SearchScope.WHOLE_SUBTREE, "(uid=user.1)"), List.of());
        assertEquals(search(backend, SUFFIX, SearchScope.WHOLE_SUBTREE, "(uid=user.one)"), norms(USER1));
        backend.close();
        StoreCheck.check(dir);
        backend = TestSupport.open(dir);
    }

    @Test
    public void anUpdateErrorIsRethrownAndChangesNothing() throws BackendException {
        BackendException refusal = new BackendException(ResultCode.ATTRIBUTE_OR_VALUE_EXISTS, "value exists");
        BackendException thrown = expectThrows(BackendException.class, () -> backend.modifyEntry(dn(USER1),
                current -> {
                    with(current, "mail", "x@example.com");
                    throw refusal;
                }));
        assertSame(thrown, refusal);
        assertEquals(backend.getEntry(dn(USER1)), person(1, PEOPLE));
        backend.close();
        StoreCheck.check(dir);
        backend = TestSupport.open(dir);
    }

    @Test
    public void anUpdateBugIsAnInternalErrorNotAStorageError() throws BackendException {
        IllegalArgumentException bug = new IllegalArgumentException("bad value");
        BackendException e = expectThrows(BackendException.class, () -> backend.modifyEntry(dn(USER1), current -> {
            throw bug;
        }));
        assertEquals(e.resultCode(), ResultCode.OTHER);
        assertEquals(e.getMessage(), "Internal error: the update of " + USER1 + " failed");
        assertSame(e.getCause(), bug);
        assertEquals(backend.getEntry(dn(USER1)), person(1, PEOPLE));
    }

    @Test
    public void modifyOfAMissingEntryIsNoSuchObject() {
        AtomicInteger calls = new AtomicInteger();
        BackendException e = expectThrows(BackendException.class, () -> backend.modifyEntry(
                dn("uid=nobody," + PEOPLE), current -> {
                    calls.incrementAndGet();
                    return current;
                }));
        assertEquals(e.resultCode(), ResultCode.NO_SUCH_OBJECT);
        assertEquals(e.getMessage(), "The entry uid=nobody," + PEOPLE + " does not exist");
        assertEquals(calls.get(), 0);
    }

    @Test
    public void anUpdateThatChangesTheDnIsRefused() throws BackendException {
        for (String name : new String[] {"uid=user.9," + PEOPLE, "uid=user.1,ou=Groups," + SUFFIX}) {
            BackendException e = expectThrows(BackendException.class, () -> backend.modifyEntry(dn(USER1),
                    current -> with(current, "description", "x").setName(dn(name))));
            assertEquals(e.resultCode(), ResultCode.OTHER);
            assertTrue(e.getMessage().contains("instead of " + USER1), e.getMessage());
        }
        BackendException none = expectThrows(BackendException.class, () -> backend.modifyEntry(dn(USER1), c -> null));
        assertEquals(none.resultCode(), ResultCode.OTHER);
        assertEquals(backend.getEntry(dn(USER1)), person(1, PEOPLE));
        assertNull(backend.getEntry(dn("uid=user.9," + PEOPLE)));
    }

    @Test
    public void deleteALeaf() throws BackendException {
        String user2 = "uid=user.2," + PEOPLE;
        assertEquals(backend.deleteEntry(dn(user2.toUpperCase()), false), person(2, PEOPLE));
        assertNull(backend.getEntry(dn(user2)));
        assertFalse(backend.entryExists(dn(user2)));
        assertEquals(search(backend, SUFFIX, SearchScope.WHOLE_SUBTREE, "(uid=user.2)"), List.of());
        assertEquals(backend.entryCount(), 6);
        BackendException again = expectThrows(BackendException.class, () -> backend.deleteEntry(dn(user2), false));
        assertEquals(again.resultCode(), ResultCode.NO_SUCH_OBJECT);
        assertEquals(again.getMessage(), "The entry " + user2 + " does not exist");

        assertEquals(backend.deleteEntry(dn(DEVICE), true).getName(), dn(DEVICE), "subtree delete of a leaf");
        assertFalse(backend.hasSubordinates(dn(USER1)));
        backend.close();
        assertEquals(StoreCheck.check(dir), 5);
        backend = TestSupport.open(dir);
    }

    @Test
    public void deleteOfANonLeafWithoutSubtreeIsRefused() throws BackendException {
        for (String parent : new String[] {USER1, PEOPLE, SUFFIX}) {
            BackendException e = expectThrows(BackendException.class, () -> backend.deleteEntry(dn(parent), false));
            assertEquals(e.resultCode(), ResultCode.NOT_ALLOWED_ON_NONLEAF, parent);
            assertEquals(e.getMessage(),
                    "The entry " + parent + " cannot be deleted because it has subordinate entries");
        }
        assertEquals(backend.entryCount(), 7);
        assertEquals(search(backend, SUFFIX, SearchScope.WHOLE_SUBTREE, "(objectClass=*)").size(), 7);
        assertEquals(backend.getEntry(dn(USER1)), person(1, PEOPLE));
    }

    /** About a thousand entries in one transaction; a sibling whose name extends the branch's is left alone. */
    @Test
    public void subtreeDeleteRemovesEveryEntryAndIndexRecord() throws BackendException {
        List<Entry> big = TestSupport.branch("Big", PEOPLE, 20, 50);
        List<Entry> sibling = TestSupport.branch("Bigger", PEOPLE, 2, 3);
        backend.importEntries(big.iterator());
        backend.importEntries(sibling.iterator());
        long before = backend.entryCount();
        assertEquals(before, 7 + big.size() + sibling.size());

        long start = System.nanoTime();
        Entry deleted = backend.deleteEntry(dn("ou=big," + PEOPLE), true);
        long millis = (System.nanoTime() - start) / 1_000_000;
        System.out.println("TIMING subtree delete of " + big.size() + " entries: " + millis + " ms");

        assertEquals(deleted, big.get(0));
        assertEquals(backend.entryCount(), before - big.size());
        assertNull(backend.getEntry(dn("uid=Big.7.7,ou=Team7,ou=Big," + PEOPLE)));
        assertFalse(backend.entryExists(dn("ou=Big," + PEOPLE)));
        assertEquals(search(backend, PEOPLE, SearchScope.SINGLE_LEVEL, "(objectClass=*)"),
                norms(USER1, "uid=user.2," + PEOPLE, "uid=user.3," + PEOPLE, "ou=Bigger," + PEOPLE));
        assertEquals(search(backend, SUFFIX, SearchScope.WHOLE_SUBTREE, "(objectClass=*)").size(),
                7 + sibling.size());
        assertEquals(search(backend, SUFFIX, SearchScope.WHOLE_SUBTREE, "(sn=Member)").size(), 6, "Bigger's people");
        assertEquals(search(backend, SUFFIX, SearchScope.WHOLE_SUBTREE, "(mail=big.3.3@example.com)"), List.of());
        assertEquals(search(backend, "ou=Bigger," + PEOPLE, SearchScope.WHOLE_SUBTREE, "(objectClass=*)").size(),
                sibling.size());
        backend.close();
        assertEquals(StoreCheck.check(dir), 7 + sibling.size(), "no stale index ids, no orphans");
        backend = TestSupport.open(dir);
        assertEquals(backend.entryCount(), before - big.size());
    }

    @Test
    public void deletingTheSuffixWithItsSubtreeEmptiesTheBackend() throws BackendException {
        assertEquals(backend.deleteEntry(dn(SUFFIX), true), TestSupport.domain(SUFFIX));
        assertEquals(backend.entryCount(), 0);
        expectThrows(BackendException.class, () -> search(backend, SUFFIX, SearchScope.WHOLE_SUBTREE, "(uid=*)"));
        TestSupport.addTree(backend); // and it can be filled again
        assertEquals(backend.entryCount(), 3);
        backend.close();
        StoreCheck.check(dir);
        backend = TestSupport.open(dir);
    }

    @Test
    public void storeCheckCatchesAStaleIndexRecord() throws BackendException {
        // The checker used by these tests must itself be able to fail: plant an index record for a deleted id.
        backend.close();
        try (JeStorage storage = new JeStorage("plant", dir, 0)) {
            var index = storage.openDatabase(AttributeIndex.dbName(IndexType.EQUALITY, "uid"), true);
            storage.write(txn -> index.put(txn, new com.sleepycat.je.DatabaseEntry(new byte[] {'z'}), Ids.entry(999)));
        }
        AssertionError e = expectThrows(AssertionError.class, () -> StoreCheck.check(dir));
        assertTrue(e.getMessage().contains("index eq.uid: stale"), e.getMessage());
        backend = TestSupport.open(dir);
        assertEquals(norm(backend.getEntry(dn(USER1)).getName()), norm(dn(USER1)));
    }
}
