package io.bindfirst.it.access;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertFalse;
import static org.testng.Assert.assertNull;
import static org.testng.Assert.assertTrue;
import static org.testng.Assert.expectThrows;

import java.util.Set;
import java.util.TreeSet;

import org.forgerock.opendj.ldap.DN;
import org.testng.annotations.AfterClass;
import org.testng.annotations.BeforeClass;
import org.testng.annotations.Test;

import com.unboundid.ldap.sdk.Attribute;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.Modification;
import com.unboundid.ldap.sdk.ModificationType;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.SearchResult;
import com.unboundid.ldap.sdk.SearchResultEntry;
import com.unboundid.ldap.sdk.SearchScope;

import io.bindfirst.it.support.TestServer;
import io.bindfirst.server.config.ServerConfig;
import io.bindfirst.server.group.Groups;

/**
 * Static groups over LDAP: isMemberOf returned and tested by filters, nested groups, membership following member
 * adds and removes, group deletes and renames, referential integrity on user deletes and renames. Each test uses
 * its own groups and users, under {@code ou=Test Groups} (the sample users are in the sample groups too).
 */
public class GroupsTest {
    static final String BASE = "dc=example,dc=com";
    static final String GROUPS = "ou=Test Groups," + BASE;
    static final int LOOKTHROUGH = 20;

    private TestServer server;
    private LDAPConnection root;

    @BeforeClass
    public void start() throws Exception {
        // A lookthrough limit below the entry count: a search that walked the backend instead of taking the
        // group's members as its candidates would fail for a user (root users have no limit).
        server = TestServer.start(50, c -> c.withLimits(new ServerConfig.Limits(1000, 60, LOOKTHROUGH, 0)));
        root = server.bindAs(TestServer.ROOT_DN, TestServer.ROOT_PASSWORD);
        root.add("dn: " + GROUPS, "objectClass: top", "objectClass: organizationalUnit", "ou: Test Groups");
    }

    @AfterClass(alwaysRun = true)
    public void stop() {
        if (root != null) {
            root.close();
        }
        if (server != null) {
            server.close();
        }
    }

    static String group(String cn) {
        return "cn=" + cn + "," + GROUPS;
    }

    private void addGroup(String cn, String... members) throws LDAPException {
        root.add(new com.unboundid.ldap.sdk.Entry(group(cn), new Attribute("objectClass", "top", "groupOfNames"),
                new Attribute("cn", cn), new Attribute("member", members)));
    }

    private void addUniqueGroup(String cn, String... members) throws LDAPException {
        root.add(new com.unboundid.ldap.sdk.Entry(group(cn),
                new Attribute("objectClass", "top", "groupOfUniqueNames"), new Attribute("cn", cn),
                new Attribute("uniqueMember", members)));
    }

    private String addUser(String uid) throws Exception {
        String dn = "uid=" + uid + "," + TestServer.PEOPLE;
        root.add("dn: " + dn, "objectClass: top", "objectClass: person", "objectClass: organizationalPerson",
                "objectClass: inetOrgPerson", "uid: " + uid, "cn: " + uid, "sn: " + uid);
        return dn;
    }

    /** isMemberOf of {@code dn} as a client reads it, normalized for comparison. */
    private Set<String> isMemberOf(String dn, String... attributes) throws LDAPException {
        SearchResultEntry e = root.getEntry(dn, attributes.length == 0 ? new String[] {"isMemberOf"} : attributes);
        Set<String> out = new TreeSet<>();
        String[] values = e.getAttributeValues("isMemberOf");
        if (values != null) {
            for (String v : values) {
                out.add(DN.valueOf(v).toNormalizedUrlSafeString());
            }
        }
        return out;
    }

    private static Set<String> dns(String... dns) {
        Set<String> out = new TreeSet<>();
        for (String d : dns) {
            out.add(DN.valueOf(d).toNormalizedUrlSafeString());
        }
        return out;
    }

    private Set<String> found(String filter) throws LDAPException {
        SearchResult r = root.search(BASE, SearchScope.SUB, filter, "1.1");
        Set<String> out = new TreeSet<>();
        for (SearchResultEntry e : r.getSearchEntries()) {
            out.add(DN.valueOf(e.getDN()).toNormalizedUrlSafeString());
        }
        return out;
    }

    @Test
    public void isMemberOfListsDirectAndNestedGroupsWhenAsked() throws Exception {
        String alice = addUser("alice.r");
        String bob = addUser("bob.r");
        addGroup("R-Inner", alice);
        addUniqueGroup("R-Unique", bob + "#'0101'B");
        addGroup("R-Outer", group("R-Inner"), group("R-Unique"));
        assertEquals(isMemberOf(alice), dns(group("R-Inner"), group("R-Outer")));
        assertEquals(isMemberOf(bob), dns(group("R-Unique"), group("R-Outer")));
        assertEquals(isMemberOf(alice, "+"), dns(group("R-Inner"), group("R-Outer")), "operational: with +");
        assertNull(root.getEntry(alice).getAttribute("isMemberOf"), "not a user attribute: * leaves it out");
        assertNull(root.getEntry(alice, "*").getAttribute("isMemberOf"));
        assertNull(root.getEntry(alice, "memberOf").getAttribute("memberOf"), "the alias is off by default");
        assertEquals(isMemberOf(group("R-Inner")), dns(group("R-Outer")), "a nested group is a member too");
        assertNull(root.getEntry(addUser("nobody.r"), "isMemberOf").getAttribute("isMemberOf"),
                "absent on an entry in no group");
        assertTrue(root.compare(alice, "isMemberOf", group("R-Outer")).compareMatched(), "compare sees it too");
        assertFalse(root.compare(alice, "isMemberOf", group("R-Unique")).compareMatched());
        SearchResultEntry typesOnly = root.search(alice, SearchScope.BASE, "(objectClass=*)", "isMemberOf")
                .getSearchEntries().get(0);
        assertTrue(typesOnly.hasAttribute("isMemberOf"));
    }

    @Test
    public void filtersTestIsMemberOf() throws Exception {
        String carol = addUser("carol.f");
        String dave = addUser("dave.f");
        addGroup("F-Team", carol, TestServer.user(7));
        addGroup("F-All", group("F-Team"), dave);
        assertEquals(found("(isMemberOf=" + group("F-Team") + ")"), dns(carol, TestServer.user(7)));
        assertEquals(found("(isMemberOf=" + group("F-All") + ")"),
                dns(carol, TestServer.user(7), dave, group("F-Team")), "nested members included");
        assertEquals(found("(&(isMemberOf=" + group("F-All") + ")(objectClass=inetOrgPerson)(uid=c*))"),
                dns(carol));
        assertEquals(found("(|(isMemberOf=" + group("F-Team") + ")(uid=dave.f))"),
                dns(carol, TestServer.user(7), dave), "in an OR, every candidate is tested");
        assertEquals(found("(&(uid=carol.f)(!(isMemberOf=" + group("F-All") + ")))"), dns());
        assertEquals(found("(isMemberOf=cn=No Such Group," + BASE + ")"), dns());
        // Scope still holds with the group's members as candidates.
        SearchResult one = root.search(GROUPS, SearchScope.ONE, "(isMemberOf=" + group("F-All") + ")", "1.1");
        assertEquals(one.getEntryCount(), 1, "only F-Team is below " + GROUPS);
        LDAPException missing = expectThrows(LDAPException.class, () -> root.search("ou=Nowhere," + BASE,
                SearchScope.SUB, "(isMemberOf=" + group("F-All") + ")"));
        assertEquals(missing.getResultCode(), ResultCode.NO_SUCH_OBJECT);
    }

    @Test
    public void theGroupsMembersAreTheCandidates() throws Exception {
        String[] members = new String[LOOKTHROUGH / 2];
        for (int i = 0; i < members.length; i++) {
            members[i] = TestServer.user(10 + i);
        }
        addGroup("C-Group", members);
        try (LDAPConnection user = server.bindAs(TestServer.user(1), TestServer.USER_PASSWORD)) {
            LDAPException walked = expectThrows(LDAPException.class,
                    () -> user.search(BASE, SearchScope.SUB, "(objectClass=inetOrgPerson)", "1.1"));
            assertEquals(walked.getResultCode(), ResultCode.ADMIN_LIMIT_EXCEEDED, "the limit is low enough");
            SearchResult r = user.search(BASE, SearchScope.SUB,
                    "(&(objectClass=inetOrgPerson)(isMemberOf=" + group("C-Group") + "))", "1.1");
            assertEquals(r.getEntryCount(), members.length);
        }
    }

    @Test
    public void membershipFollowsMemberAddsAndRemoves() throws Exception {
        String erin = addUser("erin.m");
        String other = addUser("other.m");
        addGroup("M-Group", other);
        addGroup("M-Outer", group("M-Group"));
        assertEquals(isMemberOf(erin), dns());
        root.modify(group("M-Group"), new Modification(ModificationType.ADD, "member", erin));
        assertEquals(isMemberOf(erin), dns(group("M-Group"), group("M-Outer")), "right after the acknowledgement");
        assertEquals(found("(isMemberOf=" + group("M-Outer") + ")"), dns(erin, other, group("M-Group")));
        root.modify(group("M-Group"), new Modification(ModificationType.DELETE, "member", erin));
        assertEquals(isMemberOf(erin), dns());
        root.modify(group("M-Outer"), new Modification(ModificationType.REPLACE, "member", erin));
        assertEquals(isMemberOf(erin), dns(group("M-Outer")));
        assertEquals(isMemberOf(other), dns(group("M-Group")), "M-Group left M-Outer");
    }

    @Test
    public void groupDeleteAndRename() throws Exception {
        String frank = addUser("frank.g");
        addGroup("G-Old", frank);
        addGroup("G-Outer", group("G-Old"));
        root.modifyDN(group("G-Old"), "cn=G-New", true);
        // Referential integrity renamed G-Outer's value too, so the nesting holds under the new name.
        assertEquals(isMemberOf(frank), dns(group("G-New"), group("G-Outer")));
        assertEquals(found("(isMemberOf=" + group("G-New") + ")"), dns(frank));
        assertEquals(found("(isMemberOf=" + group("G-Old") + ")"), dns());
        root.delete(group("G-New"));
        assertEquals(isMemberOf(frank), dns());
        assertFalse(root.getEntry(group("G-Outer"), "member").hasAttribute("member"),
                "referential integrity removed the deleted group from G-Outer");
    }

    @Test
    public void referentialIntegrityOnUserDeleteAndRename() throws Exception {
        String gina = addUser("gina.ri");
        String hank = addUser("hank.ri");
        addGroup("RI-Names", gina, hank, TestServer.user(2));
        addUniqueGroup("RI-Unique", gina + "#'01'B", hank);
        root.modifyDN(gina, "uid=gina.renamed", true);
        String renamed = "uid=gina.renamed," + TestServer.PEOPLE;
        // Read right after the rename's acknowledgement: no wait, the plugin ran before it.
        assertEquals(Set.of(root.getEntry(group("RI-Names")).getAttributeValues("member")),
                Set.of(renamed, hank, TestServer.user(2)));
        assertEquals(Set.of(root.getEntry(group("RI-Unique")).getAttributeValues("uniqueMember")),
                Set.of(renamed + "#'01'B", hank), "the UID is kept");
        assertEquals(isMemberOf(renamed), dns(group("RI-Names"), group("RI-Unique")));
        root.delete(hank);
        assertEquals(Set.of(root.getEntry(group("RI-Names")).getAttributeValues("member")),
                Set.of(renamed, TestServer.user(2)));
        assertEquals(Set.of(root.getEntry(group("RI-Unique")).getAttributeValues("uniqueMember")),
                Set.of(renamed + "#'01'B"));
        // A user re-created with the deleted DN is in no group.
        addUser("hank.ri");
        assertEquals(isMemberOf(hank), dns());
    }

    @Test
    public void referentialIntegrityFollowsSubtrees() throws Exception {
        String unit = "ou=RI Unit," + BASE;
        root.add("dn: " + unit, "objectClass: top", "objectClass: organizationalUnit", "ou: RI Unit");
        String inUnit = "uid=ivan.ri," + unit;
        root.add("dn: " + inUnit, "objectClass: top", "objectClass: person", "objectClass: organizationalPerson",
                "objectClass: inetOrgPerson", "uid: ivan.ri", "cn: ivan", "sn: ivan");
        String innerGroup = "cn=Unit Group," + unit;
        root.add(new com.unboundid.ldap.sdk.Entry(innerGroup, new Attribute("objectClass", "top", "groupOfNames"),
                new Attribute("cn", "Unit Group"), new Attribute("member", inUnit)));
        addGroup("RI-Sub", inUnit, innerGroup);
        root.modifyDN(unit, "ou=RI Moved", true);
        String moved = "uid=ivan.ri,ou=RI Moved," + BASE;
        String movedGroup = "cn=Unit Group,ou=RI Moved," + BASE;
        assertEquals(Set.of(root.getEntry(group("RI-Sub")).getAttributeValues("member")), Set.of(moved, movedGroup));
        assertEquals(Set.of(root.getEntry(movedGroup).getAttributeValues("member")), Set.of(moved),
                "a group moved with the subtree names the moved entry");
        assertEquals(isMemberOf(moved), dns(movedGroup, group("RI-Sub")));
    }

    @Test
    public void isMemberOfCannotBeWritten() throws Exception {
        String jill = addUser("jill.w");
        LDAPException mod = expectThrows(LDAPException.class, () -> root.modify(jill,
                new Modification(ModificationType.ADD, "isMemberOf", group("Whatever"))));
        assertEquals(mod.getResultCode(), ResultCode.CONSTRAINT_VIOLATION, mod.getMessage());
        LDAPException add = expectThrows(LDAPException.class, () -> root.add("dn: uid=kim.w," + TestServer.PEOPLE,
                "objectClass: top", "objectClass: person", "objectClass: organizationalPerson",
                "objectClass: inetOrgPerson", "uid: kim.w", "cn: kim", "sn: kim", "isMemberOf: " + group("X")));
        assertEquals(add.getResultCode(), ResultCode.CONSTRAINT_VIOLATION, add.getMessage());
    }

    @Test
    public void theServiceAnswersAsTheAttributeDoes() throws Exception {
        String lena = addUser("lena.s");
        addGroup("S-Inner", lena);
        addGroup("S-Outer", group("S-Inner"));
        Groups groups = server.server().context().groups();
        DN user = DN.valueOf(lena, server.server().context().schema());
        assertTrue(groups.isMember(user, DN.valueOf(group("S-Outer"))));
        assertTrue(groups.isMember(user, DN.valueOf(group("S-Inner"))));
        assertFalse(groups.isMember(user, DN.valueOf(TestServer.user(1))));
        assertEquals(groups.groupsOf(user), Set.of(DN.valueOf(group("S-Inner")), DN.valueOf(group("S-Outer"))));
    }

    @Test
    public void groupsAreLoadedAtStart() throws Exception {
        addGroup("L-Persisted", TestServer.user(4));
        server.restart();
        root.close();
        root = server.bindAs(TestServer.ROOT_DN, TestServer.ROOT_PASSWORD);
        assertTrue(isMemberOf(TestServer.user(4)).contains(dns(group("L-Persisted")).iterator().next()));
        assertEquals(found("(isMemberOf=" + group("L-Persisted") + ")"), dns(TestServer.user(4)));
    }
}
