package io.bindfirst.backend.je;

import static io.bindfirst.backend.je.TestSupport.PEOPLE;
import static io.bindfirst.backend.je.TestSupport.SUFFIX;
import static io.bindfirst.backend.je.TestSupport.dn;
import static io.bindfirst.backend.je.TestSupport.norm;
import static io.bindfirst.backend.je.TestSupport.norms;
import static io.bindfirst.backend.je.TestSupport.person;
import static io.bindfirst.backend.je.TestSupport.renamed;
import static io.bindfirst.backend.je.TestSupport.search;
import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertFalse;
import static org.testng.Assert.assertNotNull;
import static org.testng.Assert.assertNull;
import static org.testng.Assert.assertSame;
import static org.testng.Assert.assertTrue;
import static org.testng.Assert.expectThrows;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import org.forgerock.opendj.ldap.DN;
import org.forgerock.opendj.ldap.Entry;
import org.forgerock.opendj.ldap.Filter;
import org.forgerock.opendj.ldap.LinkedHashMapEntry;
import org.forgerock.opendj.ldap.ResultCode;
import org.forgerock.opendj.ldap.SearchScope;
import org.testng.annotations.AfterMethod;
import org.testng.annotations.BeforeMethod;
import org.testng.annotations.Test;

import io.bindfirst.server.backend.BackendException;
import io.bindfirst.server.backend.EntryChange;
import io.bindfirst.server.backend.EntryUpdate;

public class JeBackendRenameTest {
    private static final String USER1 = "uid=user.1," + PEOPLE;
    private static final String DEVICE = "cn=device," + USER1;
    private static final String GROUPS = "ou=Groups," + SUFFIX;

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

    /** The update a server would pass: the new name, and the RDN attribute holding the new RDN value. */
    private static EntryUpdate renameTo(String newDn) {
        return current -> renamed(current, newDn);
    }

    private EntryChange rename(String dn, String newDn) throws BackendException {
        return backend.renameEntry(dn(dn), dn(newDn), renameTo(newDn));
    }

    @Test
    public void renameALeafWithANewRdnValue() throws BackendException {
        String user2 = "uid=user.2," + PEOPLE;
        String newDn = "uid=user.200," + PEOPLE;
        EntryChange change = rename(user2, newDn);
        assertEquals(change.before(), person(2, PEOPLE));
        Entry expected = renamed(person(2, PEOPLE), newDn);
        assertEquals(change.after(), expected);
        assertNull(backend.getEntry(dn(user2)));
        assertEquals(backend.getEntry(dn(newDn)), expected);
        assertEquals(search(backend, SUFFIX, SearchScope.WHOLE_SUBTREE, "(uid=user.2)"), List.of());
        assertEquals(search(backend, SUFFIX, SearchScope.WHOLE_SUBTREE, "(uid=user.200)"), norms(newDn));
        assertEquals(search(backend, SUFFIX, SearchScope.WHOLE_SUBTREE, "(mail=user.2@example.com)"), norms(newDn),
                "an index record of an unchanged value now leads to the new DN");
        assertEquals(backend.entryCount(), 7);
        backend.close();
        assertEquals(StoreCheck.check(dir), 7);
        backend = TestSupport.open(dir);
        assertEquals(backend.getEntry(dn(newDn)), expected);
    }

    /** A few hundred entries under a new superior and a new RDN, in one transaction. */
    @Test
    public void moveASubtreeUnderANewSuperior() throws BackendException {
        List<Entry> branch = TestSupport.branch("Branch", PEOPLE, 12, 25);
        backend.importEntries(branch.iterator());
        backend.addEntry(TestSupport.entry("cn=phone,uid=Branch.3.3,ou=Team3,ou=Branch," + PEOPLE,
                "objectClass", "device", "cn", "phone"));
        List<Entry> originals = new ArrayList<>(branch);
        originals.add(backend.getEntry(dn("cn=phone,uid=Branch.3.3,ou=Team3,ou=Branch," + PEOPLE)));
        DN from = dn("ou=Branch," + PEOPLE);
        DN to = dn("ou=Moved," + GROUPS);

        long start = System.nanoTime();
        EntryChange change = rename(from.toString(), to.toString());
        long millis = (System.nanoTime() - start) / 1_000_000;
        System.out.println("TIMING subtree move of " + originals.size() + " entries: " + millis + " ms");
        assertEquals(change.before(), branch.get(0));
        assertEquals(change.after(), renamed(branch.get(0), to.toString()));

        for (int reopen = 0; reopen < 2; reopen++) {
            checkMoved(originals, from, to);
            backend.close();
            assertEquals(StoreCheck.check(dir), 7 + originals.size());
            backend = TestSupport.open(dir);
        }
    }

    private void checkMoved(List<Entry> originals, DN from, DN to) throws BackendException {
        List<String> expectedSubtree = new ArrayList<>();
        for (Entry original : originals) {
            DN newName = original.getName().rename(from, to);
            expectedSubtree.add(norm(newName));
            Entry stored = backend.getEntry(newName);
            assertNotNull(stored, newName.toString());
            assertEquals(stored.getName(), newName);
            if (!original.getName().equals(from)) {
                // content unchanged but for the DN, whose RDNs below the moved entry keep their spelling
                assertEquals(stored, new LinkedHashMapEntry(original).setName(newName));
                assertTrue(stored.getName().toString().endsWith(",ou=Moved," + GROUPS), stored.getName().toString());
            }
            assertNull(backend.getEntry(original.getName()));
        }
        expectedSubtree.sort(null);
        assertEquals(search(backend, to.toString(), SearchScope.WHOLE_SUBTREE, "(objectClass=*)"), expectedSubtree);
        assertEquals(search(backend, to.toString(), SearchScope.WHOLE_SUBTREE, "(objectClass=inetOrgPerson)").size(),
                300, "indexed");
        List<String> teams = new ArrayList<>();
        for (int t = 0; t < 12; t++) {
            teams.add("ou=Team" + t + "," + to);
        }
        assertEquals(search(backend, to.toString(), SearchScope.SINGLE_LEVEL, "(objectClass=*)"),
                norms(teams.toArray(String[]::new)));
        List<DN> found = new ArrayList<>();
        backend.search(dn(SUFFIX), SearchScope.WHOLE_SUBTREE, Filter.valueOf("(uid=Branch.5.7)"),
                e -> found.add(e.getName()));
        assertEquals(found, List.of(dn("uid=Branch.5.7,ou=Team5," + to)), "index lookup gives the new DN");
        assertEquals(backend.getEntry(to), renamed(originals.get(0), to.toString()), "the moved entry itself");
        assertEquals(search(backend, PEOPLE, SearchScope.WHOLE_SUBTREE, "(objectClass=*)").size(), 5,
                "the old range is empty");
        assertFalse(backend.entryExists(from));
        BackendException gone = expectThrows(BackendException.class,
                () -> search(backend, from.toString(), SearchScope.SUBORDINATES, "(objectClass=*)"));
        assertEquals(gone.resultCode(), ResultCode.NO_SUCH_OBJECT);
        assertEquals(backend.entryCount(), 7 + originals.size());
    }

    /** The new keys sort right after the old range (and then right before it): the walk must not meet them. */
    @Test
    public void moveToAnAdjacentKeyRange() throws BackendException {
        List<Entry> branch = TestSupport.branch("Branch", PEOPLE, 3, 10);
        backend.importEntries(branch.iterator());
        rename("ou=Branch," + PEOPLE, "ou=Branch0," + PEOPLE);
        assertEquals(search(backend, "ou=Branch0," + PEOPLE, SearchScope.WHOLE_SUBTREE, "(objectClass=*)").size(),
                branch.size());
        rename("ou=Branch0," + PEOPLE, "ou=Branc," + PEOPLE);
        assertEquals(search(backend, "ou=Branc," + PEOPLE, SearchScope.WHOLE_SUBTREE, "(objectClass=*)").size(),
                branch.size());
        assertEquals(search(backend, PEOPLE, SearchScope.WHOLE_SUBTREE, "(objectClass=*)").size(), 5 + branch.size());
        backend.close();
        StoreCheck.check(dir);
        backend = TestSupport.open(dir);
    }

    @Test
    public void aCaseOnlyRenameRewritesTheStoredDns() throws BackendException {
        String newDn = "uid=USER.1,ou=PEOPLE," + SUFFIX;
        EntryChange change = rename(USER1, newDn);
        assertEquals(change.after().getName().toString(), newDn);
        Entry stored = backend.getEntry(dn(USER1));
        assertEquals(stored.getName().toString(), newDn, "the DN's spelling is the new one");
        assertEquals(stored.getAttribute("uid").firstValueAsString(), "USER.1");
        assertEquals(backend.getEntry(dn(DEVICE)).getName().toString(), "cn=device," + newDn, "and below it");
        assertEquals(search(backend, SUFFIX, SearchScope.WHOLE_SUBTREE, "(uid=user.1)"), norms(USER1));
        assertEquals(backend.entryCount(), 7);
        backend.close();
        assertEquals(StoreCheck.check(dir), 7);
        backend = TestSupport.open(dir);
        assertEquals(backend.getEntry(dn(DEVICE)).getName().toString(), "cn=device," + newDn);
    }

    @Test
    public void renameOntoAnExistingEntryIsRefused() throws BackendException {
        BackendException e = expectThrows(BackendException.class, () -> rename(USER1, "UID=USER.2," + PEOPLE));
        assertEquals(e.resultCode(), ResultCode.ENTRY_ALREADY_EXISTS);
        assertEquals(e.getMessage(), "The entry UID=USER.2," + PEOPLE + " already exists");
        // onto its own parent, an ancestor: the parent exists
        assertEquals(expectThrows(BackendException.class, () -> rename(DEVICE, PEOPLE)).resultCode(),
                ResultCode.ENTRY_ALREADY_EXISTS);
        assertUnchanged();
    }

    @Test
    public void renameUnderAMissingParentIsNoSuchObject() throws BackendException {
        BackendException e = expectThrows(BackendException.class,
                () -> rename(USER1, "uid=user.1,ou=Missing," + SUFFIX));
        assertEquals(e.resultCode(), ResultCode.NO_SUCH_OBJECT);
        assertEquals(e.getMessage(), "The entry " + USER1 + " cannot be moved to uid=user.1,ou=Missing," + SUFFIX
                + " because the new parent entry ou=Missing," + SUFFIX + " does not exist");
        BackendException missing = expectThrows(BackendException.class,
                () -> rename("uid=nobody," + PEOPLE, "uid=somebody," + PEOPLE));
        assertEquals(missing.resultCode(), ResultCode.NO_SUCH_OBJECT);
        assertEquals(missing.getMessage(), "The entry uid=nobody," + PEOPLE + " does not exist");
        assertUnchanged();
    }

    @Test
    public void moveBelowItselfOrOutOfTheBackendIsRefused() throws BackendException {
        for (String target : new String[] {"ou=Inner," + PEOPLE, "uid=x,cn=device," + USER1}) {
            String source = target.startsWith("ou=") ? PEOPLE : USER1;
            BackendException e = expectThrows(BackendException.class, () -> rename(source, target));
            assertEquals(e.resultCode(), ResultCode.UNWILLING_TO_PERFORM, target);
            assertTrue(e.getMessage().endsWith("cannot move an entry below itself"), e.getMessage());
        }
        BackendException outside = expectThrows(BackendException.class, () -> rename(USER1, "uid=user.1,dc=org"));
        assertEquals(outside.resultCode(), ResultCode.UNWILLING_TO_PERFORM);
        assertTrue(outside.getMessage().contains("not under a base DN"), outside.getMessage());
        BackendException base = expectThrows(BackendException.class, () -> rename(SUFFIX, "dc=other,dc=com"));
        assertEquals(base.resultCode(), ResultCode.UNWILLING_TO_PERFORM);
        assertUnchanged();
    }

    @Test
    public void anUpdateErrorOrWrongNameLeavesTheSubtreeWhereItWas() throws BackendException {
        backend.importEntries(TestSupport.branch("Branch", PEOPLE, 2, 5).iterator());
        BackendException refusal = new BackendException(ResultCode.CONSTRAINT_VIOLATION, "no");
        AtomicInteger calls = new AtomicInteger();
        BackendException thrown = expectThrows(BackendException.class, () -> backend.renameEntry(
                dn("ou=Branch," + PEOPLE), dn("ou=Elsewhere," + GROUPS), current -> {
                    calls.incrementAndGet();
                    throw refusal;
                }));
        assertSame(thrown, refusal);
        assertEquals(calls.get(), 1);
        BackendException wrongName = expectThrows(BackendException.class, () -> backend.renameEntry(
                dn("ou=Branch," + PEOPLE), dn("ou=Elsewhere," + GROUPS), renameTo("ou=Other," + GROUPS)));
        assertEquals(wrongName.resultCode(), ResultCode.OTHER);
        assertEquals(search(backend, "ou=Branch," + PEOPLE, SearchScope.WHOLE_SUBTREE, "(objectClass=*)").size(), 13);
        assertFalse(backend.entryExists(dn("ou=Elsewhere," + GROUPS)));
        assertFalse(backend.entryExists(dn("ou=Other," + GROUPS)));
        assertFalse(backend.hasSubordinates(dn(GROUPS)));
        backend.close();
        StoreCheck.check(dir);
        backend = TestSupport.open(dir);
    }

    @Test
    public void aMovedSubtreeCanMoveBackAndBeDeleted() throws BackendException {
        List<Entry> branch = TestSupport.branch("Branch", PEOPLE, 4, 10);
        backend.importEntries(branch.iterator());
        rename("ou=Branch," + PEOPLE, "ou=Branch," + GROUPS);
        rename("ou=Branch," + GROUPS, "ou=Branch," + PEOPLE);
        for (Entry original : branch) {
            assertEquals(backend.getEntry(original.getName()), original);
        }
        assertEquals(backend.deleteEntry(dn("ou=Branch," + PEOPLE), true), branch.get(0));
        assertEquals(backend.entryCount(), 7);
        backend.close();
        assertEquals(StoreCheck.check(dir), 7);
        backend = TestSupport.open(dir);
    }

    private void assertUnchanged() throws BackendException {
        assertEquals(backend.entryCount(), 7);
        assertEquals(backend.getEntry(dn(USER1)), person(1, PEOPLE));
        assertEquals(search(backend, SUFFIX, SearchScope.WHOLE_SUBTREE, "(objectClass=*)").size(), 7);
        backend.close();
        assertEquals(StoreCheck.check(dir), 7);
        backend = TestSupport.open(dir);
    }
}
