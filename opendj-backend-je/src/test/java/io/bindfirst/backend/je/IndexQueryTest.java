package io.bindfirst.backend.je;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertNull;

import java.nio.file.Path;
import java.util.Set;

import org.forgerock.opendj.ldap.ByteString;
import org.forgerock.opendj.ldap.Entry;
import org.forgerock.opendj.ldap.Filter;
import org.testng.annotations.AfterClass;
import org.testng.annotations.BeforeClass;
import org.testng.annotations.Test;

import io.bindfirst.server.backend.BackendException;

/** The filter planner and the equality indexes it reads, on a real JE environment. */
public class IndexQueryTest {
    private Path dir;
    private JeStorage storage;
    private Indexes indexes;
    private IndexQuery query;

    @BeforeClass
    public void setUp() throws BackendException {
        dir = TestSupport.tempDir();
        storage = new JeStorage("test", dir, 0);
        EntryCodec codec = new EntryCodec(TestSupport.SCHEMA);
        indexes = Indexes.open(storage, storage.openDatabase("meta", false), storage.openDatabase("id2entry", false),
                codec, Set.of("objectclass", "mail", "cn", "uid", "sn"), TestSupport.SCHEMA);
        query = new IndexQuery(TestSupport.SCHEMA, indexes, storage);
        // ids 1..40: even ones are inetOrgPersons, odd ones only persons; sn repeats every 10.
        for (int i = 1; i <= 40; i++) {
            Entry entry = TestSupport.entry("uid=u" + i + ",dc=example,dc=com",
                    "objectClass", "person", "uid", "u" + i, "cn", "Common " + (i % 3), "sn", "S" + (i % 10),
                    "mail", "User." + i + "@Example.COM", "description", "d" + i);
            if (i % 2 == 0) {
                entry.addAttribute("objectClass", "inetOrgPerson");
            }
            long id = i;
            storage.write(txn -> {
                indexes.insert(txn, indexes.keys(entry), id);
                return null;
            });
        }
    }

    @AfterClass(alwaysRun = true)
    public void tearDown() {
        storage.close();
        TestSupport.delete(dir);
    }

    private long[] candidates(String filter) throws BackendException {
        return query.candidates(Filter.valueOf(filter));
    }

    @Test
    public void equalityUsesTheMatchingRuleNormalization() throws BackendException {
        assertEquals(candidates("(mail=USER.42@EXAMPLE.COM)"), new long[0]);
        assertEquals(candidates("(mail=USER.12@EXAMPLE.COM)"), new long[] {12});
        assertEquals(candidates("(mail=user.12@example.com)"), new long[] {12});
        assertEquals(candidates("(cn=COMMON   0)"), new long[] {3, 6, 9, 12, 15, 18, 21, 24, 27, 30, 33, 36, 39});
        // objectIdentifierMatch: a name and its OID are the same key
        assertEquals(candidates("(objectClass=2.16.840.1.113730.3.2.2)").length, 20);
        assertEquals(candidates("(objectclass=INETORGPERSON)").length, 20);
        assertEquals(candidates("(objectClass=person)").length, 40);
    }

    @Test
    public void optionsInTheFilterStillUseTheTypesIndex() throws BackendException {
        assertEquals(candidates("(uid;x-opt=U7)"), new long[] {7});
    }

    @Test
    public void unindexedFiltersGiveNoCandidates() throws BackendException {
        assertNull(candidates("(description=d1)"));
        assertNull(candidates("(objectClass=*)"));
        assertNull(candidates("(cn=Com*)"));
        assertNull(candidates("(!(uid=u1))"));
        assertNull(candidates("(uid>=u1)"));
        assertNull(candidates("(uid~=u1)"));
        assertNull(candidates("(givenName=x)"), "givenName is not indexed here");
        assertNull(candidates("(|(uid=u1)(description=d2))"), "an OR needs every branch indexed");
        assertNull(candidates("(&(description=d1)(!(uid=u1)))"));
    }

    @Test
    public void andUsesItsIndexedComponents() throws BackendException {
        assertEquals(candidates("(&(objectClass=person)(uid=u5))"), new long[] {5});
        assertEquals(candidates("(&(description=d5)(uid=u5))"), new long[] {5});
        assertEquals(candidates("(&(objectClass=inetOrgPerson)(sn=S4))"), new long[] {4, 14, 24, 34});
        // Broad components are intersected until few candidates remain (the caller re-filters those).
        long[] both = candidates("(&(objectClass=inetOrgPerson)(cn=Common 1))");
        assertSubset(new long[] {4, 10, 16, 22, 28, 34, 40}, both);
        assertSubset(both, candidates("(cn=Common 1)"));
        long[] small = candidates("(&(sn=S4)(cn=Common 1))");
        assertSubset(new long[] {4, 34}, small);
        assertSubset(small, new long[] {4, 14, 24, 34});
        long[] none = candidates("(&(uid=u5)(uid=u6))");
        assertSubset(none, new long[] {5, 6});
        assertEquals(none.length <= 1, true);
    }

    private static void assertSubset(long[] subset, long[] superset) {
        Set<Long> all = new java.util.HashSet<>();
        for (long id : superset) {
            all.add(id);
        }
        for (long id : subset) {
            assertEquals(all.contains(id), true, id + " missing from " + java.util.Arrays.toString(superset));
        }
    }

    @Test
    public void orUnitesWhenEveryBranchIsIndexed() throws BackendException {
        assertEquals(candidates("(|(uid=u5)(mail=USER.3@example.com)(uid=u5))"), new long[] {3, 5});
        long[] nested = candidates("(|(&(sn=S1)(cn=Common 2))(uid=u40))");
        assertSubset(new long[] {11, 40}, nested);
        assertSubset(nested, new long[] {1, 11, 21, 31, 40});
    }

    @Test
    public void invalidAssertionValuesFallBackToAWalk() throws BackendException {
        // mail is IA5: a non-ASCII assertion value cannot be normalized
        assertNull(candidates("(mail=caf\u00e9@example.com)"));
    }

    @Test
    public void broadKeysAreTreatedAsUnindexed() throws BackendException {
        AttributeIndex objectClass = indexes.byOid().get("2.5.4.0");
        ByteString person = objectClass.normalize(ByteString.valueOfUtf8("person"));
        assertEquals(storage.read(() -> objectClass.read(person, 40)).length, 40);
        assertNull(storage.read(() -> objectClass.read(person, 39)));
        assertEquals(storage.read(() -> objectClass.estimate(person)) > 0, true);
    }

    @Test
    public void sortedSetOperations() {
        assertEquals(IndexQuery.intersect(new long[] {1, 3, 5, 7}, new long[] {2, 3, 4, 7, 9}), new long[] {3, 7});
        assertEquals(IndexQuery.intersect(new long[] {}, new long[] {1}), new long[0]);
        assertEquals(IndexQuery.union(new long[] {1, 3, 5}, new long[] {2, 3, 6}), new long[] {1, 2, 3, 5, 6});
        assertEquals(IndexQuery.union(new long[] {}, new long[] {4}), new long[] {4});
    }
}
