package io.bindfirst.server.cache;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertFalse;
import static org.testng.Assert.assertNotNull;
import static org.testng.Assert.assertNull;
import static org.testng.Assert.assertTrue;
import static org.testng.Assert.expectThrows;

import java.util.ArrayList;
import java.util.List;

import org.forgerock.opendj.ldap.ByteString;
import org.forgerock.opendj.ldap.DN;
import org.forgerock.opendj.ldap.Entry;
import org.forgerock.opendj.ldap.LinkedHashMapEntry;
import org.forgerock.opendj.ldap.SearchScope;
import org.forgerock.opendj.ldap.schema.AttributeType;
import org.forgerock.opendj.ldap.schema.Schema;
import org.testng.annotations.Test;

import io.bindfirst.server.commit.AfterAnswer;
import io.bindfirst.server.commit.Change;
import io.bindfirst.server.testsupport.ServerSchema;

public class LookupCacheTest {
    private static final DN PEOPLE = DN.valueOf("ou=People,dc=example,dc=com");
    private final Schema schema = ServerSchema.load();
    private final AttributeType uid = schema.getAttributeType("uid");

    private Entry user(String rdn, String uidValue) {
        Entry e = new LinkedHashMapEntry(DN.valueOf("uid=" + rdn + "," + PEOPLE));
        e.addAttribute("objectClass", "top", "person", "organizationalPerson", "inetOrgPerson");
        e.addAttribute("uid", uidValue);
        e.addAttribute("cn", rdn);
        e.addAttribute("sn", rdn);
        return e;
    }

    private LookupCache.Key key(String value) {
        return LookupCache.Key.of(uid, ByteString.valueOfUtf8(value));
    }

    /** A lookup missed twice, as the cache admits it (the first miss only notes it). */
    private static void keep(LookupCache cache, LookupCache.Key key, DN base, SearchScope scope, List<Entry> entries,
                             long seen) {
        cache.admit(key, base, scope, entries, seen);
        cache.admit(key, base, scope, entries, seen);
    }

    private static void commit(LookupCache cache, Change.Kind kind, Entry before, Entry after) {
        cache.committed(new Change(kind, before, after, 1, false), new AfterAnswer());
    }

    @Test
    public void keysFollowTheEqualityRule() {
        assertEquals(key("Alice"), key("alice"), "uid is caseIgnoreMatch");
        assertEquals(key("  alice "), key("alice"), "and insignificant spaces are not");
        assertFalse(key("alice").equals(key("bob")));
    }

    @Test
    public void whatWasAdmittedIsAnsweredForTheSameBaseAndScopeOnly() {
        LookupCache cache = new LookupCache(10);
        Entry alice = user("alice", "alice");
        keep(cache, key("alice"), PEOPLE, SearchScope.WHOLE_SUBTREE, List.of(alice), cache.generation());
        List<Entry> found = cache.get(key("ALICE"), PEOPLE, SearchScope.WHOLE_SUBTREE);
        assertNotNull(found);
        assertEquals(found.get(0).getName(), alice.getName());
        assertNull(cache.get(key("alice"), PEOPLE, SearchScope.SINGLE_LEVEL));
        assertNull(cache.get(key("alice"), DN.valueOf("dc=example,dc=com"), SearchScope.WHOLE_SUBTREE));
        assertTrue(cache.holds(key("alice")));
        expectThrows(UnsupportedOperationException.class,
                () -> found.get(0).addAttribute("description", "a shared entry is read-only"));
    }

    @Test
    public void aLookupReadBeforeAChangeIsNotKept() {
        LookupCache cache = new LookupCache(10);
        long seen = cache.generation();
        Entry old = user("alice", "alice");
        commit(cache, Change.Kind.MODIFY, old, user("alice", "alice2"));
        keep(cache, key("alice"), PEOPLE, SearchScope.WHOLE_SUBTREE, List.of(old), seen);
        assertNull(cache.get(key("alice"), PEOPLE, SearchScope.WHOLE_SUBTREE), "read before the write: stale");
    }

    @Test
    public void aChangeDropsTheLookupsOfTheValuesBeforeAndAfter() {
        LookupCache cache = new LookupCache(10);
        Entry alice = user("alice", "alice");
        Entry bob = user("bob", "bob");
        keep(cache, key("alice"), PEOPLE, SearchScope.WHOLE_SUBTREE, List.of(alice), cache.generation());
        keep(cache, key("bob"), PEOPLE, SearchScope.WHOLE_SUBTREE, List.of(bob), cache.generation());
        keep(cache, key("carol"), PEOPLE, SearchScope.WHOLE_SUBTREE, List.of(), cache.generation());

        commit(cache, Change.Kind.MODIFY, alice, user("alice", "carol"));
        assertNull(cache.get(key("alice"), PEOPLE, SearchScope.WHOLE_SUBTREE), "the value it held");
        assertNull(cache.get(key("carol"), PEOPLE, SearchScope.WHOLE_SUBTREE), "the value it holds now");
        assertNotNull(cache.get(key("bob"), PEOPLE, SearchScope.WHOLE_SUBTREE), "another user's lookup stays");

        commit(cache, Change.Kind.ADD, null, user("bob2", "bob"));
        assertNull(cache.get(key("bob"), PEOPLE, SearchScope.WHOLE_SUBTREE), "a second holder of the value");
    }

    @Test
    public void aChangeToAnAttributeNoKeyNamesStillDropsTheEntrysLookups() {
        LookupCache cache = new LookupCache(10);
        Entry alice = user("alice", "alice");
        keep(cache, key("alice"), PEOPLE, SearchScope.WHOLE_SUBTREE, List.of(alice), cache.generation());
        Entry locked = user("alice", "alice");
        locked.addAttribute("pwdAccountLockedTime", "20261207000000Z");
        commit(cache, Change.Kind.MODIFY, alice, locked);
        assertNull(cache.get(key("alice"), PEOPLE, SearchScope.WHOLE_SUBTREE), "the cached entry is the old one");
    }

    @Test
    public void aDeleteOrARenameDropsEverything() {
        for (Change.Kind kind : List.of(Change.Kind.DELETE, Change.Kind.MODIFY_DN)) {
            LookupCache cache = new LookupCache(10);
            keep(cache, key("alice"), PEOPLE, SearchScope.WHOLE_SUBTREE, List.of(user("alice", "alice")),
                    cache.generation());
            Entry unrelated = new LinkedHashMapEntry(DN.valueOf("ou=Groups,dc=example,dc=com"));
            unrelated.addAttribute("objectClass", "organizationalUnit");
            Entry renamed = new LinkedHashMapEntry(DN.valueOf("ou=Teams,dc=example,dc=com"));
            renamed.addAttribute("objectClass", "organizationalUnit");
            commit(cache, kind, unrelated, kind == Change.Kind.DELETE ? null : renamed);
            assertEquals(cache.size(), 0, kind + " may move a subtree whose entries the change does not list");
        }
    }

    @Test
    public void aLookupIsKeptTheSecondTimeItIsMissed() {
        LookupCache cache = new LookupCache(10);
        List<Entry> alice = List.of(user("alice", "alice"));
        cache.admit(key("alice"), PEOPLE, SearchScope.WHOLE_SUBTREE, alice, cache.generation());
        assertNull(cache.get(key("alice"), PEOPLE, SearchScope.WHOLE_SUBTREE), "a one-off lookup churns nothing");
        cache.admit(key("alice"), PEOPLE, SearchScope.WHOLE_SUBTREE, alice, cache.generation());
        assertNotNull(cache.get(key("alice"), PEOPLE, SearchScope.WHOLE_SUBTREE));
    }

    @Test
    public void aValueHeldByTooManyEntriesIsNotKept() {
        LookupCache cache = new LookupCache(10);
        List<Entry> many = new ArrayList<>();
        for (int i = 0; i <= LookupCache.MOST_ENTRIES; i++) {
            many.add(user("u" + i, "shared"));
        }
        keep(cache, key("shared"), PEOPLE, SearchScope.WHOLE_SUBTREE, many, cache.generation());
        assertNull(cache.get(key("shared"), PEOPLE, SearchScope.WHOLE_SUBTREE));
    }

    @Test
    public void boundedInLookups() {
        LookupCache cache = new LookupCache(3);
        for (int i = 0; i < 10; i++) {
            keep(cache, key("u" + i), PEOPLE, SearchScope.WHOLE_SUBTREE, List.of(user("u" + i, "u" + i)),
                    cache.generation());
        }
        assertEquals(cache.size(), 3);
        assertNotNull(cache.get(key("u9"), PEOPLE, SearchScope.WHOLE_SUBTREE), "the latest stays");
        assertNull(cache.get(key("u0"), PEOPLE, SearchScope.WHOLE_SUBTREE), "the first admitted left first");
    }
}
