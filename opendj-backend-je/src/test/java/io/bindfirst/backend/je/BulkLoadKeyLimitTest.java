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

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.forgerock.opendj.ldap.ByteString;
import org.forgerock.opendj.ldap.Entry;
import org.forgerock.opendj.ldap.SearchScope;
import org.testng.annotations.AfterMethod;
import org.testng.annotations.BeforeMethod;
import org.testng.annotations.Test;

import io.bindfirst.server.backend.BackendException;

/**
 * A bulk load keeps a key with more ids than its limit as one marker record: searches must find every entry all
 * the same (by walking the scope), later writes must leave such a key alone, and the store must check clean.
 */
public class BulkLoadKeyLimitTest {
    private static final int LIMIT = 1_000;
    private static final int PEOPLE_COUNT = 2_500;

    private Path dir;

    @BeforeMethod
    public void dir() {
        dir = TestSupport.tempDir();
    }

    @AfterMethod(alwaysRun = true)
    public void delete() {
        TestSupport.delete(dir);
    }

    @Test
    public void keysOverTheLimitAreKeptAsMarkersAndSearchesStillFindEveryEntry() throws BackendException {
        List<Entry> load = new ArrayList<>(List.of(TestSupport.domain(SUFFIX), TestSupport.ou(PEOPLE)));
        for (int i = 0; i < PEOPLE_COUNT; i++) {
            load.add(person(i, PEOPLE));
        }
        try (JeBackend bulk = JeBackend.open(TestSupport.config(dir, TestSupport.SERVER_INDEXES), TestSupport.SCHEMA,
                true, LIMIT)) {
            assertEquals(bulk.importEntries(load.iterator()), PEOPLE_COUNT + 2);
        }
        assertEquals(StoreCheck.check(dir), PEOPLE_COUNT + 2);
        withIndex("eq.objectclass", index -> {
            ByteString person = index.normalize(ByteString.valueOfUtf8("person"));
            assertTrue(index.holds(person, Ids.OVER_LIMIT), "2,500 ids over a limit of 1,000");
            assertFalse(index.holds(person, 3), "its ids are not kept");
            assertNull(index.read(person, IndexQuery.ENTRY_LIMIT), "read as too broad to narrow a search");
            assertEquals(index.estimate(person), Long.MAX_VALUE, "the last AND component to read");
            // four values every person has, kept as markers; domain and organizationalUnit as their ids
            assertEquals(index.records(), 6);
        });
        withIndex("eq.uid", index -> assertNotNull(index.read(index.normalize(ByteString.valueOfUtf8("user.7")),
                IndexQuery.ENTRY_LIMIT), "a key within the limit keeps its ids"));

        List<String> people = new ArrayList<>();
        for (int i = 0; i < PEOPLE_COUNT; i++) {
            people.add(TestSupport.norm(dn("uid=user." + i + "," + PEOPLE)));
        }
        try (JeBackend backend = TestSupport.open(dir)) {
            assertEquals(backend.verify(), List.of(), "what verify-index reports");
            // The backend gives candidates (the core filters them): a walk of the scope's entries, every person in it.
            assertEquals(search(backend, SUFFIX, SearchScope.WHOLE_SUBTREE, "(objectClass=person)").size(),
                    PEOPLE_COUNT + 2, "walked");
            assertTrue(search(backend, SUFFIX, SearchScope.WHOLE_SUBTREE, "(givenName=user)").containsAll(people));
            assertEquals(search(backend, SUFFIX, SearchScope.WHOLE_SUBTREE, "(&(objectClass=person)(uid=user.42))"),
                    norms("uid=user.42," + PEOPLE), "narrowed by the key within the limit");
            backend.addEntry(person(PEOPLE_COUNT, PEOPLE));
            backend.deleteEntry(dn("uid=user.3," + PEOPLE), false);
            assertEquals(search(backend, SUFFIX, SearchScope.WHOLE_SUBTREE, "(&(objectClass=person)(uid=user."
                    + PEOPLE_COUNT + "))"), norms("uid=user." + PEOPLE_COUNT + "," + PEOPLE));
            List<String> after = search(backend, SUFFIX, SearchScope.WHOLE_SUBTREE, "(objectClass=inetOrgPerson)");
            assertTrue(after.contains(TestSupport.norm(dn("uid=user." + PEOPLE_COUNT + "," + PEOPLE))));
            assertFalse(after.contains(people.get(3)));
            assertEquals(backend.verify(), List.of());
        }
        // the add left the markers alone (StoreCheck wants a marked key to hold its marker only)
        assertEquals(StoreCheck.check(dir), PEOPLE_COUNT + 2);
        withIndex("eq.objectclass", index -> assertEquals(index.records(), 6));
    }

    private interface IndexCheck {
        void check(AttributeIndex index) throws BackendException;
    }

    private void withIndex(String name, IndexCheck check) throws BackendException {
        try (OpenIndexes open = OpenIndexes.open(dir, false)) {
            check.check(open.indexes().all().get(open.indexes().names().indexOf(name)));
        }
    }
}
