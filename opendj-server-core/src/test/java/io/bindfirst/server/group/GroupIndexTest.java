package io.bindfirst.server.group;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertFalse;
import static org.testng.Assert.assertNull;
import static org.testng.Assert.assertTrue;
import static org.testng.Assert.fail;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.forgerock.opendj.ldap.AttributeDescription;
import org.forgerock.opendj.ldap.DN;
import org.forgerock.opendj.ldap.Entry;
import org.forgerock.opendj.ldap.LinkedAttribute;
import org.forgerock.opendj.ldap.LinkedHashMapEntry;
import org.forgerock.opendj.ldap.schema.Schema;
import org.testng.annotations.BeforeClass;
import org.testng.annotations.Test;

import io.bindfirst.server.schema.SchemaLoader;

/** The group index alone, over entries held in a map: membership direct, nested, through cycles; updates. */
public class GroupIndexTest {
    private Schema schema;

    @BeforeClass
    public void loadSchema() throws Exception {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            Path candidate = dir.resolve("config").resolve("schema");
            if (Files.isRegularFile(candidate.resolve("05-groups.ldif"))) {
                schema = SchemaLoader.load(candidate);
                return;
            }
        }
        fail("config/schema not found above " + Path.of("").toAbsolutePath());
    }

    private DN dn(String s) {
        return DN.valueOf(s, schema);
    }

    private Entry entry(String dn, String objectClass, String attribute, String... values) {
        Entry e = new LinkedHashMapEntry(dn(dn));
        e.addAttribute(new LinkedAttribute(AttributeDescription.valueOf("objectClass", schema), "top", objectClass));
        e.addAttribute(new LinkedAttribute(AttributeDescription.valueOf("cn", schema), "x"));
        if (values.length > 0) {
            e.addAttribute(new LinkedAttribute(AttributeDescription.valueOf(attribute, schema), (Object[]) values));
        }
        return e;
    }

    private Entry group(String dn, String... members) {
        return entry(dn, "groupOfNames", "member", members);
    }

    private Entry uniqueGroup(String dn, String... members) {
        return entry(dn, "groupOfUniqueNames", "uniqueMember", members);
    }

    /** An index over {@code stored}, which {@link GroupIndex#refresh} reads as a backend. */
    private static final class Store {
        final Map<DN, Entry> stored = new ConcurrentHashMap<>();
        final GroupIndex index;

        Store(Schema schema) {
            index = new GroupIndex(schema);
        }

        void put(Entry e) {
            stored.put(e.getName(), e);
            index.refresh(List.of(e.getName()), stored::get, Map.of());
        }

        void remove(DN dn) {
            stored.remove(dn);
            index.refresh(List.of(dn), stored::get, Map.of());
        }
    }

    @Test
    public void directMembersOfBothKindsOfGroup() {
        Store s = new Store(schema);
        s.put(group("cn=A,ou=Groups,dc=example,dc=com", "uid=u1,ou=People,dc=example,dc=com"));
        // A uniqueMember value may carry a UID (RFC 4517 nameAndOptionalUID): membership goes by the DN.
        s.put(uniqueGroup("cn=U,ou=Groups,dc=example,dc=com", "uid=u2,ou=People,dc=example,dc=com#'0101'B",
                "UID=U1, OU=people,DC=Example,DC=com"));
        assertTrue(s.index.isMember(dn("uid=u1,ou=People,dc=example,dc=com"), dn("cn=A,ou=Groups,dc=example,dc=com")));
        assertTrue(s.index.isMember(dn("uid=u2,ou=People,dc=example,dc=com"), dn("cn=U,ou=Groups,dc=example,dc=com")));
        assertTrue(s.index.isMember(dn("uid=u1,ou=people,dc=example,dc=com"), dn("cn=u,ou=groups,dc=example,dc=com")),
                "DNs compare normalized");
        assertFalse(s.index.isMember(dn("uid=u2,ou=People,dc=example,dc=com"), dn("cn=A,ou=Groups,dc=example,dc=com")));
        assertFalse(s.index.isMember(dn("uid=u1,ou=People,dc=example,dc=com"),
                dn("uid=u2,ou=People,dc=example,dc=com")),
                "an entry that is not a group has no members");
        assertEquals(s.index.groupsOf(dn("uid=u1,ou=People,dc=example,dc=com")),
                Set.of(dn("cn=A,ou=Groups,dc=example,dc=com"), dn("cn=U,ou=Groups,dc=example,dc=com")));
        assertEquals(s.index.groupsOf(dn("uid=nobody,dc=example,dc=com")), Set.of());
    }

    @Test
    public void nestedGroupsAndCyclesEnd() {
        Store s = new Store(schema);
        DN user = dn("uid=u,dc=example,dc=com");
        DN a = dn("cn=A,dc=example,dc=com");
        DN b = dn("cn=B,dc=example,dc=com");
        DN c = dn("cn=C,dc=example,dc=com");
        DN other = dn("cn=Other,dc=example,dc=com");
        s.put(group("cn=A,dc=example,dc=com", "cn=B,dc=example,dc=com"));
        s.put(group("cn=B,dc=example,dc=com", "cn=C,dc=example,dc=com"));
        s.put(group("cn=C,dc=example,dc=com", "uid=u,dc=example,dc=com", "cn=A,dc=example,dc=com"));
        s.put(group("cn=Other,dc=example,dc=com", "uid=someone,dc=example,dc=com"));
        assertTrue(s.index.isMember(user, a), "through B and C");
        assertTrue(s.index.isMember(user, b));
        assertTrue(s.index.isMember(user, c));
        assertFalse(s.index.isMember(user, other), "the walk through the cycle A-B-C ends");
        assertEquals(s.index.groupsOf(user), Set.of(a, b, c));
        assertEquals(s.index.groupsOf(a), Set.of(a, b, c), "in a cycle each group is a member of each, itself too");
        assertEquals(new HashSet<>(s.index.membersOf(a)), Set.of(a, b, c, user));
        assertEquals(new HashSet<>(s.index.membersOf(other)), Set.of(dn("uid=someone,dc=example,dc=com")));
        // A group naming itself.
        s.put(group("cn=Self,dc=example,dc=com", "cn=Self,dc=example,dc=com", "uid=u,dc=example,dc=com"));
        assertTrue(s.index.isMember(user, dn("cn=Self,dc=example,dc=com")));

        // Cut the cycle: C no longer names A, and B leaves A.
        s.put(group("cn=A,dc=example,dc=com", "uid=x,dc=example,dc=com"));
        assertFalse(s.index.isMember(user, a));
        assertTrue(s.index.isMember(user, b));
        assertEquals(s.index.groupsOf(user), Set.of(b, c, dn("cn=Self,dc=example,dc=com")));
    }

    @Test
    public void updatesFollowWhatIsStored() {
        Store s = new Store(schema);
        DN user = dn("uid=u,dc=example,dc=com");
        DN g = dn("cn=G,dc=example,dc=com");
        s.put(group("cn=G,dc=example,dc=com", "uid=u,dc=example,dc=com"));
        assertTrue(s.index.isMember(user, g));
        s.put(group("cn=G,dc=example,dc=com", "uid=v,dc=example,dc=com"));
        assertFalse(s.index.isMember(user, g), "member replaced");
        s.put(group("cn=G,dc=example,dc=com", "uid=v,dc=example,dc=com", "uid=u,dc=example,dc=com"));
        assertTrue(s.index.isMember(user, g), "member added");
        // No longer a group (its object class changed): no members.
        Entry plain = entry("cn=G,dc=example,dc=com", "device", "cn");
        s.put(plain);
        assertFalse(s.index.isGroup(g));
        assertFalse(s.index.isMember(user, g));
        assertEquals(s.index.groupsOf(user), Set.of());
        s.put(group("cn=G,dc=example,dc=com", "uid=u,dc=example,dc=com"));
        s.remove(g);
        assertFalse(s.index.isMember(user, g), "deleted");
        assertEquals(s.index.size(), 0);
        assertEquals(s.index.groupsNamingAtOrBelow(user), Set.of(), "no member left behind");
    }

    @Test
    public void whatAWriteReadsWinsOverTheOrderItArrivesIn() {
        // Two writes of G commit in one order and reach the index in the other: each refresh reads the store,
        // so the index ends with the last committed state.
        Store s = new Store(schema);
        DN g = dn("cn=G,dc=example,dc=com");
        s.stored.put(g, group("cn=G,dc=example,dc=com", "uid=first,dc=example,dc=com"));
        s.stored.put(g, group("cn=G,dc=example,dc=com", "uid=second,dc=example,dc=com"));
        Entry firstAsWritten = group("cn=G,dc=example,dc=com", "uid=first,dc=example,dc=com");
        s.index.refresh(List.of(g), s.stored::get, Map.of()); // the second write's refresh
        s.index.refresh(List.of(g), s.stored::get, Map.of(g, firstAsWritten)); // the first's, late
        assertTrue(s.index.isMember(dn("uid=second,dc=example,dc=com"), g));
        assertFalse(s.index.isMember(dn("uid=first,dc=example,dc=com"), g));
        // A store that cannot be read: the entry as the write left it.
        s.index.refresh(List.of(g), x -> {
            throw new IllegalStateException("storage gone");
        }, Map.of(g, firstAsWritten));
        assertTrue(s.index.isMember(dn("uid=first,dc=example,dc=com"), g));
    }

    @Test(timeOut = 30_000)
    public void aRefreshWaitingForTheBackendDoesNotHoldUpReaders() throws Exception {
        // The backend read may wait for another write's transaction, which may be asking the index (access
        // control inside an update): readers must not wait for that read.
        Store s = new Store(schema);
        DN g = dn("cn=G,dc=example,dc=com");
        DN user = dn("uid=u,dc=example,dc=com");
        s.put(group("cn=G,dc=example,dc=com", "uid=u,dc=example,dc=com"));
        CountDownLatch reading = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        Thread writer = new Thread(() -> s.index.refresh(List.of(g), x -> {
            reading.countDown();
            release.await();
            return group("cn=G,dc=example,dc=com", "uid=other,dc=example,dc=com");
        }, Map.of()));
        writer.setDaemon(true);
        writer.start();
        try {
            assertTrue(reading.await(10, TimeUnit.SECONDS));
            CompletableFuture<Boolean> answer = CompletableFuture.supplyAsync(() -> s.index.isMember(user, g));
            assertTrue(answer.get(10, TimeUnit.SECONDS), "answered from the state before the refresh");
        } finally {
            release.countDown();
        }
        writer.join();
        assertFalse(s.index.isMember(user, g));
    }

    @Test
    public void subtreesAreKeyRanges() {
        Store s = new Store(schema);
        s.put(group("cn=G1,ou=Groups,dc=example,dc=com", "uid=a,ou=People,dc=example,dc=com",
                "uid=b,ou=Staff,ou=People,dc=example,dc=com"));
        s.put(group("cn=G2,ou=Groups,dc=example,dc=com", "uid=c,ou=Peoplex,dc=example,dc=com"));
        s.put(group("cn=\u00e9t\u00e9,ou=Groups,dc=example,dc=com", "uid=\u00ff,ou=People,dc=example,dc=com"));
        s.put(group("cn=G3,ou=Groups2,dc=example,dc=com", "uid=d,dc=example,dc=com"));
        assertEquals(Set.copyOf(s.index.groupsAtOrBelow(dn("ou=Groups,dc=example,dc=com"))),
                Set.of(dn("cn=G1,ou=Groups,dc=example,dc=com"), dn("cn=G2,ou=Groups,dc=example,dc=com"),
                        dn("cn=\u00e9t\u00e9,ou=Groups,dc=example,dc=com")),
                "not ou=Groups2, a sibling whose name starts the same; non-ASCII keys stay inside");
        assertEquals(s.index.groupsNamingAtOrBelow(dn("ou=People,dc=example,dc=com")),
                Set.of(dn("cn=G1,ou=Groups,dc=example,dc=com"), dn("cn=\u00e9t\u00e9,ou=Groups,dc=example,dc=com")));
        assertEquals(s.index.groupsNamingAtOrBelow(dn("uid=b,ou=Staff,ou=People,dc=example,dc=com")),
                Set.of(dn("cn=G1,ou=Groups,dc=example,dc=com")));
    }

    @Test
    public void uidSuffixes() {
        assertEquals(GroupEntry.withoutUid("uid=a,dc=x#'0101'B"), "uid=a,dc=x");
        assertEquals(GroupEntry.withoutUid("uid=a,dc=x#''B"), "uid=a,dc=x");
        assertEquals(GroupEntry.withoutUid("uid=a,dc=x"), "uid=a,dc=x");
        assertEquals(GroupEntry.withoutUid("cn=a\\#'01'B,dc=x"), "cn=a\\#'01'B,dc=x");
        assertEquals(GroupEntry.withoutUid("cn=a\\#'01'B"), "cn=a\\#'01'B", "an escaped # is part of the value");
        assertEquals(GroupEntry.withoutUid("uid=a#'012'B"), "uid=a#'012'B", "not a bit string");
        assertNull(GroupEntry.parse("not a DN", schema));
    }

    @Test
    public void tenThousandGroupsLoadInSeconds() {
        List<Entry> groups = new ArrayList<>();
        for (int g = 0; g < 10_000; g++) {
            String[] members = new String[20];
            for (int m = 0; m < members.length; m++) {
                members[m] = "uid=user." + ((g * 7 + m * 131) % 10_000) + ",ou=People,dc=example,dc=com";
            }
            groups.add(group("cn=group." + g + ",ou=Groups,dc=example,dc=com", members));
        }
        GroupIndex index = new GroupIndex(schema);
        long t0 = System.nanoTime();
        index.load(groups);
        long ms = (System.nanoTime() - t0) / 1_000_000;
        System.out.printf("GroupIndex.load: 10,000 groups of 20 members in %d ms%n", ms);
        long t1 = System.nanoTime();
        new GroupIndex(schema).load(groups);
        System.out.printf("GroupIndex.load again (warm): %d ms%n", (System.nanoTime() - t1) / 1_000_000);
        assertEquals(index.size(), 10_000);
        assertTrue(ms < 10_000, ms + " ms");
        DN user = dn("uid=user.131,ou=People,dc=example,dc=com");
        assertTrue(index.isMember(user, dn("cn=group.0,ou=Groups,dc=example,dc=com")));
        DN group0 = dn("cn=group.0,ou=Groups,dc=example,dc=com");
        int n = 0;
        for (int i = 0; i < 100_000; i++) { // warm-up
            n += index.isMember(user, group0) ? 1 : 0;
        }
        long q0 = System.nanoTime();
        for (int i = 0; i < 100_000; i++) {
            n += index.isMember(user, group0) ? 1 : 0;
        }
        System.out.printf("GroupIndex.isMember: %.2f us per call%n", (System.nanoTime() - q0) / 1e3 / 100_000);
        assertEquals(n, 200_000);
    }
}
