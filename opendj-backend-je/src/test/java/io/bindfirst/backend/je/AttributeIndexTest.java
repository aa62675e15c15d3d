package io.bindfirst.backend.je;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertFalse;
import static org.testng.Assert.assertNotNull;
import static org.testng.Assert.assertNull;
import static org.testng.Assert.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import org.forgerock.opendj.ldap.ConditionResult;
import org.forgerock.opendj.ldap.Entry;
import org.forgerock.opendj.ldap.Filter;
import org.forgerock.opendj.ldap.SearchScope;
import org.forgerock.opendj.ldap.schema.Schema;
import org.forgerock.opendj.ldap.schema.SchemaBuilder;
import org.testng.annotations.AfterMethod;
import org.testng.annotations.BeforeMethod;
import org.testng.annotations.Test;

import io.bindfirst.server.backend.BackendConfig;
import io.bindfirst.server.backend.BackendException;
import io.bindfirst.server.backend.IndexType;
import io.bindfirst.server.filter.FilterMatcher;

/**
 * Presence, substring and ordering indexes: their candidates always hold every entry the filter matches
 * (checked against the filter evaluation itself), they narrow, and they follow adds, modifies, deletes,
 * renames and a rebuild when an index is added to a backend that already holds entries.
 */
public class AttributeIndexTest {
    private static final Schema SCHEMA = new SchemaBuilder(TestSupport.SCHEMA)
            .addAttributeType("( 1.3.6.1.1.1.1.0 NAME 'uidNumber' EQUALITY integerMatch ORDERING integerOrderingMatch "
                    + "SYNTAX 1.3.6.1.4.1.1466.115.121.1.27 SINGLE-VALUE )", true)
            .addObjectClass("( 1.3.6.1.4.1.1466.101.120.111 NAME 'extensibleObject' SUP top AUXILIARY )", true)
            .toSchema();
    private static final String[] NAMES = {"Smith", "Smythe", "Ångström", "Müller", "Straße", "van der Berg",
        "O'Brien", "Ana Smith", "smith jr"};
    private static final int COUNT = 60;

    private Path dir;
    private JeBackend backend;

    @BeforeMethod
    public void open() throws BackendException {
        dir = TestSupport.tempDir();
        backend = JeBackend.open(config(true), SCHEMA);
        backend.addEntry(TestSupport.domain(TestSupport.SUFFIX));
        backend.addEntry(TestSupport.entry(TestSupport.PEOPLE, "objectClass", "organizationalUnit", "ou", "People"));
        for (int i = 0; i < COUNT; i++) {
            backend.addEntry(person(i));
        }
    }

    @AfterMethod(alwaysRun = true)
    public void close() {
        backend.close();
        TestSupport.delete(dir);
    }

    private BackendConfig config(boolean withOthers) {
        BackendConfig c = TestSupport.config(dir, Set.of("objectclass", "uid"));
        if (withOthers) {
            c = c.withIndex(IndexType.PRESENCE, "mail").withIndex(IndexType.SUBSTRING, "cn")
                    .withIndex(IndexType.SUBSTRING, "mail").withIndex(IndexType.ORDERING, "uidNumber");
        }
        return c;
    }

    private static Entry person(int i) {
        Entry e = TestSupport.entry("uid=u" + i + "," + TestSupport.PEOPLE, "objectClass", "person",
                "objectClass", "extensibleObject", "uid", "u" + i, "sn", "s" + i,
                "cn", NAMES[i % NAMES.length] + " " + i, "uidNumber", String.valueOf(i * 10 - 100));
        if (i % 3 == 0) {
            e.addAttribute("mail", "u" + i + "@Example.com");
        }
        return e;
    }

    private static final List<String> FILTERS = List.of("(mail=*)", "(cn=smi*)", "(cn=*smith*)", "(cn=*ström*)",
            "(cn=*STRASSE*)", "(cn=van*berg*)", "(cn=*th 1*)", "(cn=*jr 2*)", "(cn=smith*)", "(cn=*h 18)",
            "(cn=*ana*ith*)", "(mail=*@example.COM)", "(mail=u1*)", "(uidNumber>=200)", "(uidNumber<=-50)",
            "(uidNumber>=-100)", "(uidNumber<=490)", "(&(uidNumber>=100)(uidNumber<=150))",
            "(&(cn=*smith*)(uidNumber>=0))", "(|(mail=*)(uidNumber<=-90))");

    @Test
    public void candidatesHoldEveryMatchAndNarrow() throws BackendException {
        for (String f : FILTERS) {
            Filter filter = Filter.valueOf(f);
            assertFalse(backend.isUnindexed(filter), f + " should use an index");
            long[] ids = backend.candidates(filter);
            assertNotNull(ids, f);
            assertTrue(ids.length < COUNT + 2, f + " gave " + ids.length + " candidates");
            assertEquals(found(f), matches(f), f);
        }
        assertEquals(backend.candidates(Filter.valueOf("(mail=*)")).length, COUNT / 3);
        assertEquals(found("(uidNumber>=480)"), Set.of("u58", "u59"));
    }

    @Test
    public void whatTheIndexesCannotNarrowStillWalks() throws BackendException {
        for (String f : List.of("(cn=*th*)", "(cn=*8)", "(sn=*5*)", "(uid>=u5)", "(cn=*)", "(!(mail=*))")) {
            assertNull(backend.candidates(Filter.valueOf(f)), f);
            assertEquals(found(f), matches(f), f);
        }
    }

    @Test
    public void writesKeepTheIndexesTrue() throws Exception {
        backend.deleteEntry(TestSupport.dn("uid=u3," + TestSupport.PEOPLE), false);
        backend.modifyEntry(TestSupport.dn("uid=u4," + TestSupport.PEOPLE), e -> {
            Entry c = new org.forgerock.opendj.ldap.LinkedHashMapEntry(e);
            c.replaceAttribute("cn", "Zebra Crossing");
            c.replaceAttribute("uidNumber", "99999");
            c.addAttribute("mail", "new@example.com");
            return c;
        });
        String renamed = "uid=u5b," + TestSupport.PEOPLE;
        backend.renameEntry(TestSupport.dn("uid=u5," + TestSupport.PEOPLE), TestSupport.dn(renamed),
                e -> TestSupport.renamed(e, renamed));
        for (String f : List.of("(mail=*)", "(cn=*zebra*)", "(cn=*ström*)", "(uidNumber>=99999)", "(cn=*smith*)")) {
            assertEquals(found(f), matches(f), f);
        }
        assertEquals(found("(cn=*zebra*)"), Set.of("u4"));
        assertEquals(found("(uidNumber>=99999)"), Set.of("u4"));
        assertTrue(found("(mail=*)").contains("u4"));
        assertFalse(found("(mail=*)").contains("u3"));
        StoreCheck.check(dir, SCHEMA, config(true).indexes());
    }

    @Test
    public void anIndexAddedLaterIsBuiltFromTheEntries() throws Exception {
        backend.close();
        backend = JeBackend.open(config(false), SCHEMA);
        assertTrue(backend.isUnindexed(Filter.valueOf("(cn=*smith*)")));
        backend.close();
        backend = JeBackend.open(config(true), SCHEMA);
        assertFalse(backend.isUnindexed(Filter.valueOf("(cn=*smith*)")));
        for (String f : FILTERS) {
            assertEquals(found(f), matches(f), f);
        }
        StoreCheck.check(dir, SCHEMA, config(true).indexes());
    }

    /** The uids the backend's search passes on for {@code filter} under People, re-filtered. */
    private Set<String> found(String f) throws BackendException {
        FilterMatcher matcher = new FilterMatcher(Filter.valueOf(f), SCHEMA);
        Set<String> out = new TreeSet<>();
        backend.search(TestSupport.dn(TestSupport.PEOPLE), SearchScope.SINGLE_LEVEL, Filter.valueOf(f), e -> {
            if (matcher.matches(e) == ConditionResult.TRUE) {
                out.add(e.parseAttribute("uid").asString());
            }
            return true;
        });
        return out;
    }

    /** The uids of the stored people {@code filter} matches, decided without any index. */
    private Set<String> matches(String f) throws BackendException {
        FilterMatcher matcher = new FilterMatcher(Filter.valueOf(f), SCHEMA);
        List<Entry> all = new ArrayList<>();
        backend.search(TestSupport.dn(TestSupport.PEOPLE), SearchScope.SINGLE_LEVEL, Filter.alwaysTrue(), all::add);
        Set<String> out = new TreeSet<>();
        for (Entry e : all) {
            if (matcher.matches(e) == ConditionResult.TRUE) {
                out.add(e.parseAttribute("uid").asString());
            }
        }
        return out;
    }

    @Test
    public void trigramsCountCodePoints() {
        Set<org.forgerock.opendj.ldap.ByteString> grams = new java.util.HashSet<>();
        AttributeIndex.grams(" 田中x ", grams);
        assertEquals(grams.size(), 3, grams.toString());
    }
}
