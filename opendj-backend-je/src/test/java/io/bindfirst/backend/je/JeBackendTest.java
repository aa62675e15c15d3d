package io.bindfirst.backend.je;

import static io.bindfirst.backend.je.TestSupport.PEOPLE;
import static io.bindfirst.backend.je.TestSupport.SUFFIX;
import static io.bindfirst.backend.je.TestSupport.dn;
import static io.bindfirst.backend.je.TestSupport.norms;
import static io.bindfirst.backend.je.TestSupport.person;
import static io.bindfirst.backend.je.TestSupport.search;
import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertFalse;
import static org.testng.Assert.assertNotNull;
import static org.testng.Assert.assertNull;
import static org.testng.Assert.assertTrue;
import static org.testng.Assert.expectThrows;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import org.forgerock.opendj.ldap.DN;
import org.forgerock.opendj.ldap.Entry;
import org.forgerock.opendj.ldap.Filter;
import org.forgerock.opendj.ldap.ResultCode;
import org.forgerock.opendj.ldap.SearchScope;
import org.forgerock.opendj.ldap.schema.Schema;
import org.testng.annotations.AfterMethod;
import org.testng.annotations.BeforeMethod;
import org.testng.annotations.Test;

import com.sleepycat.je.Environment;
import com.sleepycat.je.EnvironmentConfig;

import io.bindfirst.server.backend.BackendException;
import io.bindfirst.server.backend.IndexType;

public class JeBackendTest {
    private Path dir;
    private JeBackend backend;

    @BeforeMethod
    public void open() throws BackendException {
        dir = TestSupport.tempDir().resolve("db");
        backend = TestSupport.open(dir);
    }

    @AfterMethod(alwaysRun = true)
    public void close() {
        backend.close();
        TestSupport.delete(dir.getParent());
    }

    /** The suffix, People with user.1..3, Peoplex (a prefix sibling) with user.9, Groups, and a nested entry. */
    private void addSampleTree() throws BackendException {
        TestSupport.addTree(backend);
        backend.addEntry(TestSupport.ou("ou=Peoplex," + SUFFIX));
        for (int i = 1; i <= 3; i++) {
            backend.addEntry(person(i, PEOPLE));
        }
        backend.addEntry(person(9, "ou=Peoplex," + SUFFIX));
        backend.addEntry(TestSupport.entry("cn=device,uid=user.1," + PEOPLE, "objectClass", "device", "cn", "device"));
    }

    @Test
    public void addGetAndSurviveReopen() throws BackendException {
        addSampleTree();
        Entry expected = person(2, PEOPLE);
        assertEquals(backend.getEntry(dn("UID=USER.2,ou=people,dc=EXAMPLE,dc=com")), expected);
        assertNull(backend.getEntry(dn("uid=user.4," + PEOPLE)));
        assertEquals(backend.entryCount(), 9);

        backend.close();
        expectThrows(BackendException.class, () -> backend.getEntry(dn(SUFFIX)));
        backend = TestSupport.open(dir);

        assertEquals(backend.entryCount(), 9);
        assertEquals(backend.getEntry(dn("uid=user.2," + PEOPLE)), expected);
        assertEquals(search(backend, SUFFIX, SearchScope.WHOLE_SUBTREE, "(mail=USER.2@EXAMPLE.COM)"),
                norms("uid=user.2," + PEOPLE), "indexes survive too");
        // ids continue after the highest one: a new entry must not overwrite an old one
        backend.addEntry(person(4, PEOPLE));
        assertEquals(backend.getEntry(dn("uid=user.2," + PEOPLE)), expected);
        assertEquals(backend.getEntry(dn("uid=user.4," + PEOPLE)), person(4, PEOPLE));
        assertEquals(backend.entryCount(), 10);
    }

    @Test
    public void baseDnsAreAsConfigured() {
        assertEquals(backend.baseDNs(), List.of(dn(SUFFIX)));
    }

    @Test
    public void existsAndSubordinates() throws BackendException {
        addSampleTree();
        assertTrue(backend.entryExists(dn(SUFFIX)));
        assertTrue(backend.entryExists(dn("uid=USER.1," + PEOPLE)));
        assertFalse(backend.entryExists(dn("uid=user.1,ou=Groups," + SUFFIX)));
        assertTrue(backend.hasSubordinates(dn(SUFFIX)));
        assertTrue(backend.hasSubordinates(dn(PEOPLE)));
        assertTrue(backend.hasSubordinates(dn("uid=user.1," + PEOPLE)));
        assertFalse(backend.hasSubordinates(dn("uid=user.2," + PEOPLE)));
        assertFalse(backend.hasSubordinates(dn("ou=Groups," + SUFFIX)));
        assertFalse(backend.hasSubordinates(dn("ou=Peopl," + SUFFIX)), "no such entry");
    }

    @Test
    public void addErrors() throws BackendException {
        BackendException noParent =
                expectThrows(BackendException.class, () -> backend.addEntry(TestSupport.ou(PEOPLE)));
        assertEquals(noParent.resultCode(), ResultCode.NO_SUCH_OBJECT);
        assertEquals(noParent.getMessage(), "The entry " + PEOPLE
                + " cannot be added because its parent entry " + SUFFIX + " does not exist");

        BackendException outside = expectThrows(BackendException.class,
                () -> backend.addEntry(TestSupport.domain("dc=other,dc=org")));
        assertEquals(outside.resultCode(), ResultCode.NO_SUCH_OBJECT);
        assertTrue(outside.getMessage().contains("not under a base DN"), outside.getMessage());
        expectThrows(BackendException.class, () -> backend.addEntry(TestSupport.domain("dc=com")));

        TestSupport.addTree(backend);
        BackendException duplicate = expectThrows(BackendException.class,
                () -> backend.addEntry(TestSupport.ou("OU=PEOPLE," + SUFFIX)));
        assertEquals(duplicate.resultCode(), ResultCode.ENTRY_ALREADY_EXISTS);
        assertEquals(duplicate.getMessage(), "The entry OU=PEOPLE,dc=example,dc=com already exists");
        assertEquals(backend.entryCount(), 3, "failed adds leave nothing behind");
        assertEquals(search(backend, SUFFIX, SearchScope.WHOLE_SUBTREE, "(objectClass=organizationalUnit)").size(), 2,
                "no index entries from the failed add");
    }

    @Test
    public void searchOnAMissingBaseIsNoSuchObject() throws BackendException {
        addSampleTree();
        BackendException e = expectThrows(BackendException.class,
                () -> search(backend, "ou=Missing," + SUFFIX, SearchScope.WHOLE_SUBTREE, "(objectClass=*)"));
        assertEquals(e.resultCode(), ResultCode.NO_SUCH_OBJECT);
        assertEquals(e.getMessage(), "The entry ou=Missing,dc=example,dc=com does not exist");
    }

    /**
     * An indexed search reads its base only when no candidate is in scope (a candidate in scope proves the base
     * exists): a missing base is still noSuchObject, whether candidates lie elsewhere or there are none.
     */
    @Test
    public void anIndexedSearchTellsAMissingBaseFromAnEmptyResult() throws BackendException {
        addSampleTree();
        assertNotNull(backend.candidates(Filter.valueOf("(uid=user.9)")), "the test needs the indexed path");
        for (String filter : List.of("(uid=user.9)", "(uid=nobody)")) {
            BackendException e = expectThrows(BackendException.class,
                    () -> search(backend, "ou=Missing," + SUFFIX, SearchScope.WHOLE_SUBTREE, filter));
            assertEquals(e.resultCode(), ResultCode.NO_SUCH_OBJECT, filter);
            assertEquals(e.getMessage(), "The entry ou=Missing,dc=example,dc=com does not exist");
        }
        assertEquals(search(backend, PEOPLE, SearchScope.WHOLE_SUBTREE, "(uid=user.9)"), List.of(),
                "user.9 is under ou=Peoplex: an empty result, the base exists");
        assertEquals(search(backend, PEOPLE, SearchScope.WHOLE_SUBTREE, "(uid=user.2)"),
                norms("uid=user.2," + PEOPLE));
        assertEquals(search(backend, "uid=user.2," + PEOPLE, SearchScope.SINGLE_LEVEL, "(uid=user.2)"), List.of(),
                "the base itself is not in a one-level scope");
    }

    @Test
    public void scopesNeverLeakIntoSiblings() throws BackendException {
        addSampleTree();
        String user1 = "uid=user.1," + PEOPLE;
        String device = "cn=device," + user1;
        String[] people = {"uid=user.1," + PEOPLE, "uid=user.2," + PEOPLE, "uid=user.3," + PEOPLE};
        assertEquals(search(backend, PEOPLE, SearchScope.BASE_OBJECT, "(objectClass=*)"), norms(PEOPLE));
        assertEquals(search(backend, PEOPLE, SearchScope.SINGLE_LEVEL, "(objectClass=*)"), norms(people));
        List<String> subtree = new ArrayList<>(List.of(people));
        subtree.add(device);
        assertEquals(search(backend, PEOPLE, SearchScope.SUBORDINATES, "(objectClass=*)"),
                norms(subtree.toArray(String[]::new)));
        subtree.add(PEOPLE);
        assertEquals(search(backend, PEOPLE, SearchScope.WHOLE_SUBTREE, "(objectClass=*)"),
                norms(subtree.toArray(String[]::new)));
        assertEquals(search(backend, SUFFIX, SearchScope.SINGLE_LEVEL, "(objectClass=*)"),
                norms(PEOPLE, "ou=Peoplex," + SUFFIX, "ou=Groups," + SUFFIX));
        assertEquals(search(backend, SUFFIX, SearchScope.WHOLE_SUBTREE, "(objectClass=*)").size(), 9);
        assertEquals(search(backend, SUFFIX, SearchScope.SUBORDINATES, "(objectClass=*)").size(), 8);
        assertEquals(search(backend, user1, SearchScope.SINGLE_LEVEL, "(objectClass=*)"), norms(device));
        assertEquals(search(backend, "ou=Groups," + SUFFIX, SearchScope.SINGLE_LEVEL, "(objectClass=*)"), List.of());
    }

    @Test
    public void indexedSearchesReturnOnlyInScopeEntries() throws BackendException {
        addSampleTree();
        // user.9 lives under ou=Peoplex: an indexed filter must not let it into ou=People's results.
        String filter = "(|(mail=USER.1@example.com)(mail=user.9@EXAMPLE.com)(uid=user.3))";
        assertEquals(search(backend, PEOPLE, SearchScope.WHOLE_SUBTREE, filter),
                norms("uid=user.1," + PEOPLE, "uid=user.3," + PEOPLE));
        assertEquals(search(backend, SUFFIX, SearchScope.WHOLE_SUBTREE, filter),
                norms("uid=user.1," + PEOPLE, "uid=user.3," + PEOPLE, "uid=user.9,ou=Peoplex," + SUFFIX));
        assertEquals(search(backend, "ou=Peoplex," + SUFFIX, SearchScope.SINGLE_LEVEL, "(objectClass=inetOrgPerson)"),
                norms("uid=user.9,ou=Peoplex," + SUFFIX));
        assertEquals(search(backend, SUFFIX, SearchScope.SINGLE_LEVEL, "(objectClass=inetOrgPerson)"), List.of());
        assertEquals(search(backend, "uid=user.1," + PEOPLE, SearchScope.SUBORDINATES, "(uid=user.1)"), List.of());
    }

    @Test
    public void caseInsensitiveMailAndAndWithOneIndexedComponent() throws BackendException {
        addSampleTree();
        assertEquals(search(backend, SUFFIX, SearchScope.WHOLE_SUBTREE, "(mail=USER.2@EXAMPLE.COM)"),
                norms("uid=user.2," + PEOPLE));
        // description is not indexed: the AND uses uid's index; the caller re-filters the rest
        List<String> and = search(backend, SUFFIX, SearchScope.WHOLE_SUBTREE,
                "(&(description=Test user 3)(uid=USER.3))");
        assertEquals(and, norms("uid=user.3," + PEOPLE));
        assertEquals(search(backend, SUFFIX, SearchScope.WHOLE_SUBTREE, "(mail=nobody@example.com)"), List.of());
    }

    @Test
    public void unindexedFiltersWalkTheScope() throws BackendException {
        addSampleTree();
        // The backend need not filter exactly: every entry in scope may come back, but nothing outside.
        List<String> found = search(backend, PEOPLE, SearchScope.SINGLE_LEVEL, "(description=Test user 2)");
        assertTrue(found.contains(norms("uid=user.2," + PEOPLE).get(0)));
        assertTrue(norms("uid=user.1," + PEOPLE, "uid=user.2," + PEOPLE, "uid=user.3," + PEOPLE).containsAll(found));
    }

    /** The tricky DNs of {@link DnKeysTest}, stored in JE: every scope agrees with the SDK's DN relations. */
    @Test
    public void scopesOverTrickyDnsMatchTheSdk() throws BackendException {
        backend.close();
        backend = JeBackend.open(new io.bindfirst.server.backend.BackendConfig("userRoot", "je",
                List.of(dn("dc=com")), dir, TestSupport.SERVER_INDEXES, 0,
                io.bindfirst.server.backend.BackendConfig.DEFAULT_BIND_CACHE_ENTRIES), TestSupport.SCHEMA);
        List<DN> all = new ArrayList<>();
        for (String name : DnKeysTest.TREE) {
            backend.addEntry(TestSupport.entry(name, "objectClass", "extensibleObject"));
            all.add(dn(name));
        }
        for (DN base : all) {
            for (SearchScope scope : List.of(SearchScope.SINGLE_LEVEL, SearchScope.WHOLE_SUBTREE,
                    SearchScope.SUBORDINATES)) {
                List<String> expected = new ArrayList<>();
                for (DN other : all) {
                    if (other.isInScopeOf(base, scope)) {
                        expected.add(TestSupport.norm(other));
                    }
                }
                expected.sort(null);
                assertEquals(search(backend, base.toString(), scope, "(objectClass=*)"), expected, scope + " " + base);
                assertEquals(search(backend, base.toString(), scope, "(objectClass=extensibleObject)"), expected,
                        "indexed " + scope + " " + base);
            }
            assertEquals(backend.hasSubordinates(base), all.stream().anyMatch(other -> other.isChildOf(base)),
                    "hasSubordinates " + base);
        }
    }

    @Test
    public void visitorCanStopTheSearch() throws BackendException {
        addSampleTree();
        for (int i = 10; i < 700; i++) { // more than one read chunk
            backend.addEntry(person(i, PEOPLE));
        }
        for (String filter : new String[] {"(objectClass=*)", "(objectClass=inetOrgPerson)"}) {
            List<DN> seen = new ArrayList<>();
            backend.search(dn(SUFFIX), SearchScope.WHOLE_SUBTREE, Filter.valueOf(filter), entry -> {
                seen.add(entry.getName());
                return seen.size() < 5;
            });
            assertEquals(seen.size(), 5, filter);
        }
        List<DN> all = new ArrayList<>();
        backend.search(dn(PEOPLE), SearchScope.SINGLE_LEVEL, Filter.objectClassPresent(), e -> all.add(e.getName()));
        assertEquals(all.size(), 3 + 690);
        assertEquals(Set.copyOf(all).size(), all.size(), "no entry twice across chunks");
    }

    @Test
    public void callerDnsParsedWithAnotherSchemaStillMatch() throws BackendException {
        TestSupport.addTree(backend);
        backend.addEntry(TestSupport.entry("mail=Admin@Example.com," + SUFFIX, "objectClass", "extensibleObject",
                "mail", "Admin@Example.com"));
        DN coreParsed = DN.valueOf("mail=ADMIN@EXAMPLE.COM,dc=example,dc=com", Schema.getCoreSchema());
        assertNotNull(backend.getEntry(coreParsed));
        List<DN> found = new ArrayList<>();
        backend.search(coreParsed, SearchScope.BASE_OBJECT, Filter.objectClassPresent(), e -> found.add(e.getName()));
        assertEquals(found.size(), 1);
    }

    @Test
    public void anIndexAddedLaterIsBuiltFromTheStoredEntries() throws BackendException {
        backend.close();
        backend = JeBackend.open(TestSupport.config(dir, Set.of("objectclass")), TestSupport.SCHEMA);
        addSampleTree();
        backend.close();

        backend = TestSupport.open(dir); // now with uid, mail, cn, sn, givenname as well
        assertEquals(search(backend, SUFFIX, SearchScope.WHOLE_SUBTREE, "(mail=user.9@example.com)"),
                norms("uid=user.9,ou=Peoplex," + SUFFIX));
        assertEquals(search(backend, SUFFIX, SearchScope.WHOLE_SUBTREE, "(&(description=x)(uid=user.2))"),
                norms("uid=user.2," + PEOPLE));
        backend.close();

        // dropped, then re-added: the index must not come back stale
        backend = JeBackend.open(TestSupport.config(dir, Set.of("objectclass")), TestSupport.SCHEMA);
        backend.addEntry(person(5, PEOPLE));
        backend.close();
        backend = TestSupport.open(dir);
        assertEquals(search(backend, SUFFIX, SearchScope.WHOLE_SUBTREE, "(uid=user.5)"), norms("uid=user.5," + PEOPLE));
    }

    /**
     * An index emptied behind the backend's back (its ready marker still there) answers searches wrongly until
     * rebuilt; the rebuild indexes every entry again, reporting its progress, and refuses a name that is not an
     * index, naming those there are.
     */
    @Test
    public void rebuildIndexesRefillsAnEmptiedIndex() throws Exception {
        addSampleTree();
        long entries = backend.entryCount();
        backend.close();
        try (Environment env = new Environment(dir.toFile(), new EnvironmentConfig().setTransactional(true))) {
            env.truncateDatabase(null, AttributeIndex.dbName(IndexType.EQUALITY, "mail"), false);
        }
        backend = TestSupport.open(dir);
        assertEquals(search(backend, SUFFIX, SearchScope.WHOLE_SUBTREE, "(mail=user.2@example.com)"), List.of(),
                "the emptied index is trusted: nothing found");

        List<Long> progress = new ArrayList<>();
        assertEquals(backend.rebuildIndexes(Set.of("MAIL", "commonName"), progress::add), entries);
        assertEquals(progress.get(progress.size() - 1), Long.valueOf(entries));
        assertEquals(search(backend, SUFFIX, SearchScope.WHOLE_SUBTREE, "(mail=user.2@example.com)"),
                norms("uid=user.2," + PEOPLE));
        assertEquals(search(backend, SUFFIX, SearchScope.WHOLE_SUBTREE, "(cn=User 3)"), norms("uid=user.3," + PEOPLE),
                "commonName names the cn index");

        BackendException e = expectThrows(BackendException.class,
                () -> backend.rebuildIndexes(Set.of("description"), done -> { }));
        assertEquals(e.resultCode(), ResultCode.UNWILLING_TO_PERFORM);
        assertEquals(e.getMessage(), "There is no index of 'description' in this backend; its indexed attributes are: "
                + "cn, givenname, mail, objectclass, sn, uid");
        backend.close();
        backend = TestSupport.open(dir); // marked ready again: not rebuilt at open, and right
        assertEquals(search(backend, SUFFIX, SearchScope.WHOLE_SUBTREE, "(mail=user.9@example.com)"),
                norms("uid=user.9,ou=Peoplex," + SUFFIX));
    }
}
