package io.bindfirst.server.access.aci;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertFalse;
import static org.testng.Assert.assertNotNull;
import static org.testng.Assert.assertNull;
import static org.testng.Assert.assertTrue;
import static org.testng.Assert.expectThrows;

import java.net.InetAddress;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.forgerock.opendj.ldap.AttributeDescription;
import org.forgerock.opendj.ldap.ByteString;
import org.forgerock.opendj.ldap.DN;
import org.forgerock.opendj.ldap.Entry;
import org.forgerock.opendj.ldap.LinkedAttribute;
import org.forgerock.opendj.ldap.LinkedHashMapEntry;
import org.forgerock.opendj.ldap.Modification;
import org.forgerock.opendj.ldap.ModificationType;
import org.forgerock.opendj.ldap.schema.AttributeType;
import org.forgerock.opendj.ldap.schema.Schema;
import org.testng.annotations.BeforeMethod;
import org.testng.annotations.Test;

import io.bindfirst.server.access.AccessDecision;
import io.bindfirst.server.access.Requester;
import io.bindfirst.server.auth.AuthenticationInfo;
import io.bindfirst.server.auth.Privileges;
import io.bindfirst.server.backend.EntryChange;
import io.bindfirst.server.commit.AfterAnswer;
import io.bindfirst.server.commit.Change;
import io.bindfirst.server.pwd.PasswordAttribute;
import io.bindfirst.server.pwd.PasswordSchemes;

/**
 * ACI evaluation, keyword by keyword, over entries held in memory (the directory a bind rule reads is a map here;
 * the integration tests run the same rules against the real server and its JE backend).
 */
public class AciPolicyTest {
    private static final Schema SCHEMA = TestSchema.load();
    private static final DN SUFFIX = DN.valueOf("dc=example,dc=com");
    private static final DN PEOPLE = DN.valueOf("ou=People,dc=example,dc=com");
    private static final DN ALICE = DN.valueOf("uid=alice,ou=People,dc=example,dc=com");
    private static final DN BOB = DN.valueOf("uid=bob,ou=People,dc=example,dc=com");
    private static final DN ADMINS = DN.valueOf("cn=Admins,ou=Groups,dc=example,dc=com");
    private static final DN OUTER = DN.valueOf("cn=Outer,ou=Groups,dc=example,dc=com");
    private static final AttributeType MAIL = SCHEMA.getAttributeType("mail");
    private static final AttributeType PASSWORD = SCHEMA.getAttributeType("userPassword");
    private static final AttributeType CN = SCHEMA.getAttributeType("cn");

    private final Map<DN, Entry> entries = new HashMap<>();
    /** Wednesday 2026-11-25 10:30 UTC. */
    private Clock clock = Clock.fixed(Instant.parse("2026-11-25T10:30:00Z"), ZoneOffset.UTC);
    private AciPolicy policy;

    @BeforeMethod
    public void directory() {
        entries.clear();
        put(person(ALICE, "alice"));
        Entry bob = person(BOB, "bob");
        bob.addAttribute(attr("manager", ALICE.toString()));
        put(bob);
        put(group(ADMINS, ALICE));
        put(group(OUTER, ADMINS)); // nested: alice is a member of Outer through Admins
        AciDirectory directory = new AciDirectory() {
            @Override
            public Entry entry(DN dn) {
                return entries.get(dn);
            }

            @Override
            public boolean isMember(DN user, DN group) {
                Entry g = entries.get(group);
                if (g == null || g.getAttribute("member") == null) {
                    return false;
                }
                for (ByteString v : g.getAttribute("member")) {
                    DN m = DN.valueOf(v.toString());
                    if (m.equals(user) || isMember(user, m)) {
                        return true;
                    }
                }
                return false;
            }

            @Override
            public Clock clock() {
                return clock;
            }
        };
        policy = new AciPolicy(SCHEMA, new PasswordAttribute(SCHEMA, new PasswordSchemes("SSHA", false)), directory,
                DN.valueOf("cn=config"), DN.valueOf("cn=monitor"), DN.valueOf("cn=schema"));
    }

    /** An attribute of the server's schema, as entries the backends decode carry. */
    private static LinkedAttribute attr(String name, Object... values) {
        return new LinkedAttribute(AttributeDescription.valueOf(name, SCHEMA), values);
    }

    private void put(Entry e) {
        entries.put(e.getName(), e);
    }

    private static Entry person(DN dn, String uid) {
        Entry e = new LinkedHashMapEntry(dn);
        e.addAttribute(attr("objectClass", "top", "person", "inetOrgPerson"));
        e.addAttribute(attr("uid", uid));
        e.addAttribute(attr("cn", uid));
        e.addAttribute(attr("sn", uid));
        e.addAttribute(attr("mail", uid + "@example.com"));
        return e;
    }

    private static Entry group(DN dn, DN member) {
        Entry e = new LinkedHashMapEntry(dn);
        e.addAttribute(attr("objectClass", "top", "groupOfNames"));
        e.addAttribute(attr("member", member.toString()));
        return e;
    }

    private void global(String... acis) throws Exception {
        policy.setGlobal(List.of(acis));
    }

    private static String aci(String targets, String clause) {
        return targets + "(version 3.0; acl \"test\"; " + clause + ";)";
    }

    private static Requester anonymous() {
        return new Requester(AuthenticationInfo.ANONYMOUS, InetAddress.getLoopbackAddress(), 0);
    }

    private static Requester as(DN dn) {
        return as(dn, "127.0.0.1", 0);
    }

    private static Requester as(DN dn, String address, int ssf) {
        try {
            return new Requester(new AuthenticationInfo(dn, false, -1, -1), InetAddress.getByName(address), ssf);
        } catch (java.net.UnknownHostException e) {
            throw new IllegalStateException(e);
        }
    }

    private static Requester root() {
        return new Requester(AuthenticationInfo.rootUser(DN.valueOf("cn=Directory Manager")),
                InetAddress.getLoopbackAddress(), 0);
    }

    private boolean reads(Requester who, DN dn, AttributeType type) {
        return policy.mayRead(who, entries.get(dn), type).allowed();
    }

    @Test
    public void nothingIsAllowedWithoutAnAciButRootUsersBypassThem() {
        assertFalse(policy.maySee(anonymous(), entries.get(BOB)).allowed());
        assertFalse(reads(as(ALICE), BOB, MAIL));
        AccessDecision d = policy.mayDelete(as(ALICE), entries.get(BOB));
        assertEquals(d.message(), "The requester has no delete access to the entry " + BOB);
        assertTrue(policy.maySee(root(), entries.get(BOB)).allowed());
        assertTrue(policy.mayDelete(root(), entries.get(BOB)).allowed());
    }

    @Test
    public void anyoneAllowsAnonymousAndAllOnlyAuthenticatedUsers() throws Exception {
        global(aci("(targetattr=\"mail\")", "allow (read) userdn=\"ldap:///anyone\""),
                aci("(targetattr=\"cn\")", "allow (read) userdn=\"ldap:///all\""));
        assertTrue(reads(anonymous(), BOB, MAIL));
        assertFalse(reads(anonymous(), BOB, CN));
        assertTrue(reads(as(ALICE), BOB, CN));
        assertTrue(policy.maySee(anonymous(), entries.get(BOB)).allowed(), "reading some attribute shows the entry");
    }

    @Test
    public void denyWinsOverAllow() throws Exception {
        global(aci("(targetattr=\"*\")", "allow (read) userdn=\"ldap:///all\""),
                aci("(targetattr=\"mail\")", "deny (read) userdn=\"ldap:///uid=alice,ou=People,dc=example,dc=com\""));
        assertFalse(reads(as(ALICE), BOB, MAIL));
        assertTrue(reads(as(ALICE), BOB, CN));
        assertTrue(reads(as(BOB), BOB, MAIL));
        assertTrue(policy.maySee(as(ALICE), entries.get(BOB)).allowed(), "denying one attribute keeps the entry");
        global(aci("(targetattr=\"*\")", "allow (read) userdn=\"ldap:///all\""),
                aci("(targetattr=\"*\")", "deny (read) userdn=\"ldap:///uid=alice,ou=People,dc=example,dc=com\""));
        assertFalse(policy.maySee(as(ALICE), entries.get(BOB)).allowed(), "denying them all hides it");
    }

    @Test
    public void selfParentAndDnPatterns() throws Exception {
        global(aci("(targetattr=\"mail\")", "allow (write) userdn=\"ldap:///self\""),
                aci("(targetattr=\"cn\")", "allow (read) userdn=\"ldap:///uid=*,ou=People,dc=example,dc=com\""),
                aci("(targetattr=\"sn\")", "allow (read) userdn=\"ldap:///ou=People,dc=example,dc=com??one?"
                        + "(mail=alice@*)\""));
        List<Modification> mail = List.of(new Modification(ModificationType.REPLACE, attr("mail", "x")));
        assertTrue(policy.mayModify(as(BOB), entries.get(BOB), mail).allowed());
        assertFalse(policy.mayModify(as(ALICE), entries.get(BOB), mail).allowed());
        assertTrue(reads(as(ALICE), BOB, CN));
        assertFalse(reads(as(DN.valueOf("uid=x,ou=Other,dc=example,dc=com")), BOB, CN));
        assertTrue(reads(as(ALICE), BOB, SCHEMA.getAttributeType("sn")), "alice's entry matches the URL's filter");
        assertFalse(reads(as(BOB), BOB, SCHEMA.getAttributeType("sn")));
    }

    @Test
    public void groupDnFollowsNestedGroups() throws Exception {
        global(aci("(targetattr=\"*\")", "allow (read) groupdn=\"ldap:///" + OUTER + "\""));
        assertTrue(reads(as(ALICE), BOB, MAIL));
        assertFalse(reads(as(BOB), BOB, MAIL));
        assertFalse(reads(anonymous(), BOB, MAIL));
    }

    @Test
    public void userAttrRelatesTheRequesterToTheEntry() throws Exception {
        global(aci("(targetattr=\"mail\")", "allow (write) userattr=\"manager#USERDN\""),
                aci("(targetattr=\"cn\")", "allow (write) userattr=\"manager#GROUPDN\""),
                aci("(targetattr=\"sn\")", "allow (read) userattr=\"uid#bob\""));
        List<Modification> mail = List.of(new Modification(ModificationType.REPLACE, attr("mail", "x")));
        assertTrue(policy.mayModify(as(ALICE), entries.get(BOB), mail).allowed(), "alice is bob's manager");
        assertFalse(policy.mayModify(as(BOB), entries.get(ALICE), mail).allowed());
        entries.get(BOB).replaceAttribute(attr("manager", ADMINS.toString()));
        List<Modification> cn = List.of(new Modification(ModificationType.REPLACE, attr("cn", "x")));
        assertTrue(policy.mayModify(as(ALICE), entries.get(BOB), cn).allowed(), "alice is in the managing group");
        assertTrue(reads(as(BOB), BOB, SCHEMA.getAttributeType("sn")));
        assertTrue(reads(as(BOB), ALICE, SCHEMA.getAttributeType("sn")), "the requester's entry decides");
        assertFalse(reads(as(ALICE), BOB, SCHEMA.getAttributeType("sn")));
    }

    @Test
    public void connectionRules() throws Exception {
        global(aci("(targetattr=\"mail\")", "allow (read) userdn=\"ldap:///all\" and ip=\"10.1.0.0/16,192.168.*\""),
                aci("(targetattr=\"cn\")", "allow (read) userdn=\"ldap:///all\" and ssf>=\"128\""),
                aci("(targetattr=\"sn\")", "allow (read) authmethod=\"ssl\""));
        assertTrue(reads(as(ALICE, "10.1.2.3", 0), BOB, MAIL));
        assertTrue(reads(as(ALICE, "192.168.7.1", 0), BOB, MAIL));
        assertFalse(reads(as(ALICE, "10.2.0.1", 0), BOB, MAIL));
        assertFalse(reads(as(ALICE, "::1", 0), BOB, MAIL));
        assertTrue(reads(as(ALICE, "127.0.0.1", 256), BOB, CN));
        assertFalse(reads(as(ALICE, "127.0.0.1", 0), BOB, CN));
        Requester external = new Requester(new AuthenticationInfo(ALICE, false, -1, -1).withAuthMethod("ssl"),
                InetAddress.getLoopbackAddress(), 128);
        assertTrue(reads(external, BOB, SCHEMA.getAttributeType("sn")));
        assertFalse(reads(as(ALICE), BOB, SCHEMA.getAttributeType("sn")));
    }

    @Test
    public void timeRulesReadTheClock() throws Exception {
        global(aci("(targetattr=\"mail\")", "allow (read) dayofweek=\"mon,wed\" and timeofday>=\"0800\" and "
                + "timeofday<\"1800\""));
        assertTrue(reads(anonymous(), BOB, MAIL));
        clock = Clock.fixed(Instant.parse("2026-11-25T19:00:00Z"), ZoneOffset.UTC);
        assertFalse(reads(anonymous(), BOB, MAIL));
        clock = Clock.fixed(Instant.parse("2026-11-26T10:00:00Z"), ZoneOffset.UTC); // a Thursday
        assertFalse(reads(anonymous(), BOB, MAIL));
    }

    @Test
    public void targetsNarrowWhereAnAciApplies() throws Exception {
        global(aci("(target=\"ldap:///uid=bob,ou=People,dc=example,dc=com\")(targetattr=\"mail\")",
                        "allow (read) userdn=\"ldap:///anyone\""),
                aci("(targetattr=\"cn\")(targetfilter=\"(uid=alice)\")", "allow (read) userdn=\"ldap:///anyone\""),
                aci("(targetattr=\"sn\")(targetfilter!=\"(uid=alice)\")", "allow (read) userdn=\"ldap:///anyone\""));
        assertTrue(reads(anonymous(), BOB, MAIL));
        assertFalse(reads(anonymous(), ALICE, MAIL));
        assertTrue(reads(anonymous(), ALICE, CN));
        assertFalse(reads(anonymous(), BOB, CN));
        assertTrue(reads(anonymous(), BOB, SCHEMA.getAttributeType("sn")));
        assertFalse(reads(anonymous(), ALICE, SCHEMA.getAttributeType("sn")));
    }

    /** Tells the policy of a change as the commit path does. */
    private void committed(EntryChange change) {
        policy.committed(Change.of(change, Change.NO_CONNECTION), new AfterAnswer());
    }

    @Test
    public void anEntrysAcisApplyToItsSubtreeWithinTheirScopeAndFollowWrites() {
        Entry people = new LinkedHashMapEntry(PEOPLE);
        people.addAttribute(attr("objectClass", "top", "organizationalUnit"));
        people.addAttribute(attr("aci", aci("(targetattr=\"mail\")(targetscope=\"onelevel\")",
                "allow (read) userdn=\"ldap:///anyone\"")));
        committed(new EntryChange(null, people));
        assertEquals(policy.size(), 1);
        assertTrue(reads(anonymous(), BOB, MAIL));
        assertFalse(policy.mayRead(anonymous(), people, MAIL).allowed(), "onelevel: not the holder itself");

        Entry moved = person(DN.valueOf("uid=bob,ou=Other,dc=example,dc=com"), "bob");
        assertFalse(policy.mayRead(anonymous(), moved, MAIL).allowed(), "outside the holder's subtree");

        Entry renamed = new LinkedHashMapEntry(people);
        renamed.setName(DN.valueOf("ou=Staff,dc=example,dc=com"));
        committed(new EntryChange(people, renamed));
        assertFalse(reads(anonymous(), BOB, MAIL), "the rule moved with its entry");
        Entry staffBob = person(DN.valueOf("uid=bob,ou=Staff,dc=example,dc=com"), "bob");
        assertTrue(policy.mayRead(anonymous(), staffBob, MAIL).allowed());

        Entry cleared = new LinkedHashMapEntry(renamed);
        cleared.removeAttribute(AttributeDescription.valueOf("aci", SCHEMA));
        committed(new EntryChange(renamed, cleared));
        assertEquals(policy.size(), 0);
        assertFalse(policy.mayRead(anonymous(), staffBob, MAIL).allowed(), "a removed rule no longer allows");

        committed(new EntryChange(null, people));
        committed(new EntryChange(new LinkedHashMapEntry(SUFFIX), null)); // a subtree delete above it
        assertEquals(policy.size(), 0);
    }

    @Test
    public void invalidRulesAreNamedAndAnInvalidStoredAciIsIgnored() {
        Entry e = new LinkedHashMapEntry(PEOPLE);
        e.addAttribute(attr("aci", "(version 3.0; acl \"x\"; allow (fly) userdn=\"ldap:///anyone\";)"));
        String why = policy.invalidRules(e);
        assertNotNull(why);
        assertTrue(why.contains("unknown right fly"), why);
        assertNull(policy.invalidRules(entries.get(BOB)));
        policy.load(e);
        assertEquals(policy.size(), 0);
        expectThrows(AciParser.AciSyntaxException.class, () -> global("(targetattr=\"mail\")"));
    }

    @Test
    public void selfWriteLetsAUserAddOrRemoveOnlyThemself() throws Exception {
        global(aci("(targetattr=\"member\")", "allow (selfwrite) userdn=\"ldap:///all\""));
        Entry admins = entries.get(ADMINS);
        assertTrue(policy.mayModify(as(BOB), admins, List.of(new Modification(ModificationType.ADD,
                attr("member", BOB.toString())))).allowed());
        assertFalse(policy.mayModify(as(BOB), admins, List.of(new Modification(ModificationType.ADD,
                attr("member", ALICE.toString())))).allowed());
        assertFalse(policy.mayModify(as(BOB), admins, List.of(new Modification(ModificationType.REPLACE,
                attr("member", BOB.toString())))).allowed());
    }

    @Test
    public void addDeleteAndMovesAreEntryRights() throws Exception {
        global(aci("(target=\"ldap:///ou=People,dc=example,dc=com\")", "allow (add,delete) groupdn=\"ldap:///"
                + ADMINS + "\""), aci("(targetattr=\"uid\")", "allow (write) userdn=\"ldap:///all\""),
                aci("(target=\"ldap:///ou=People,dc=example,dc=com\")", "allow (export) userdn=\"ldap:///all\""));
        Entry carol = person(DN.valueOf("uid=carol,ou=People,dc=example,dc=com"), "carol");
        assertTrue(policy.mayAdd(as(ALICE), carol).allowed());
        assertFalse(policy.mayAdd(as(BOB), carol).allowed());
        assertTrue(policy.mayDelete(as(ALICE), entries.get(BOB)).allowed());
        assertTrue(policy.mayRename(as(BOB), entries.get(BOB), DN.valueOf("uid=robert,ou=People,dc=example,dc=com"))
                .allowed());
        assertFalse(policy.mayRename(as(BOB), entries.get(BOB), DN.valueOf("uid=bob,ou=Gone,dc=example,dc=com"))
                .allowed(), "no import right where it would go");
    }

    @Test
    public void configurationAndMonitorAreRootOnlyAndTheRootDseIsPublic() throws Exception {
        global(aci("(targetattr=\"*\")", "allow (read,search) userdn=\"ldap:///anyone\""));
        assertFalse(policy.maySearchUnder(as(ALICE), DN.valueOf("cn=config")).allowed());
        assertFalse(policy.maySee(as(ALICE), new LinkedHashMapEntry("cn=JVM,cn=monitor")).allowed());
        assertTrue(policy.maySearchUnder(root(), DN.valueOf("cn=monitor")).allowed());
        global();
        assertTrue(policy.maySee(anonymous(), new LinkedHashMapEntry(DN.rootDN())).allowed());
        assertTrue(policy.mayRead(anonymous(), new LinkedHashMapEntry("cn=schema"), CN).allowed());
    }

    private static Requester withPrivileges(DN dn, int privileges) {
        return new Requester(new AuthenticationInfo(dn, false, -1, -1, false, AuthenticationInfo.SIMPLE, privileges),
                InetAddress.getLoopbackAddress(), 0);
    }

    @Test
    public void privilegesOpenWhatAcisCannot() throws Exception {
        global(aci("(targetattr=\"userPassword\")", "allow (write) userdn=\"ldap:///all\""),
                aci("", "allow (proxy) userdn=\"ldap:///" + ALICE + "\""));
        Requester helpdesk = withPrivileges(ALICE, Privileges.PASSWORD_RESET);
        assertTrue(policy.mayChangePassword(helpdesk, entries.get(BOB)).allowed());
        List<Modification> reset = List.of(new Modification(ModificationType.REPLACE, attr("userPassword", "x")));
        assertTrue(policy.mayModify(helpdesk, entries.get(BOB), reset).allowed());
        assertFalse(policy.mayModify(as(ALICE), entries.get(BOB), reset).allowed(), "write alone is not enough");
        assertTrue(policy.mayModify(as(BOB), entries.get(BOB), reset).allowed());
        assertEquals(policy.mayChangePassword(as(ALICE), entries.get(BOB)).message(),
                "Changing another user's password needs the password-reset privilege");
        assertFalse(policy.mayProxyAs(as(ALICE), entries.get(BOB)).allowed(), "the right without the privilege");
        assertTrue(policy.mayProxyAs(withPrivileges(ALICE, Privileges.PROXIED_AUTH), entries.get(BOB)).allowed());
        assertFalse(policy.mayProxyAs(withPrivileges(BOB, Privileges.PROXIED_AUTH), entries.get(ALICE)).allowed(),
                "the privilege without the right");
        Entry config = new LinkedHashMapEntry("cn=Directory Manager,cn=Root DNs,cn=config");
        Requester reader = withPrivileges(BOB, Privileges.CONFIG_READ | Privileges.MONITOR_READ);
        assertTrue(policy.maySearchUnder(reader, DN.valueOf("cn=config")).allowed());
        assertTrue(policy.maySee(reader, config).allowed());
        assertTrue(policy.mayRead(reader, config, CN).allowed());
        assertFalse(policy.mayRead(reader, config, PASSWORD).allowed(), "root users' passwords stay theirs");
        assertTrue(policy.maySee(reader, new LinkedHashMapEntry("cn=JVM,cn=monitor")).allowed());
        assertFalse(policy.maySee(withPrivileges(BOB, Privileges.MONITOR_READ), config).allowed());
    }

    @Test
    public void passwordsChangeBySelfWithWriteAndOthersByRootOnly() throws Exception {
        global(aci("(targetattr=\"userPassword\")", "allow (write) userdn=\"ldap:///self\""));
        assertTrue(policy.mayChangePassword(as(BOB), entries.get(BOB)).allowed());
        assertFalse(policy.mayChangePassword(as(ALICE), entries.get(BOB)).allowed());
        assertTrue(policy.mayChangePassword(root(), entries.get(BOB)).allowed());
        assertFalse(reads(as(BOB), BOB, PASSWORD));
        assertFalse(policy.mayProxyAs(as(ALICE), entries.get(BOB)).allowed());
        assertTrue(policy.mayProxyAs(root(), entries.get(BOB)).allowed());
    }
}
