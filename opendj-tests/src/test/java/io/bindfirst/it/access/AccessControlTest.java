package io.bindfirst.it.access;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertFalse;
import static org.testng.Assert.assertNull;
import static org.testng.Assert.assertTrue;
import static org.testng.Assert.expectThrows;

import java.util.List;

import org.testng.annotations.AfterClass;
import org.testng.annotations.BeforeClass;
import org.testng.annotations.Test;

import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.Modification;
import com.unboundid.ldap.sdk.ModificationType;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.SearchResultEntry;
import com.unboundid.ldap.sdk.SearchScope;

import io.bindfirst.it.support.LdapTools;
import io.bindfirst.it.support.TestServer;
import io.bindfirst.server.config.AccessControlConfig;

/**
 * ACIs end to end, one permission at a time, through OpenLDAP's tools where they have a command for it: an ACI
 * written by a root user over LDAP decides the next operation, and the shipped global ACIs give what a fresh
 * OpenDJ gives (anonymous reads all but passwords; users change their own password and nothing else).
 */
public class AccessControlTest {
    private static final String GROUPS = "ou=Groups,dc=example,dc=com";
    private static final String HELPDESK = "cn=Helpdesk," + GROUPS;
    private TestServer server;
    private String url;
    private LDAPConnection root;

    @BeforeClass
    public void start() throws Exception {
        LdapTools.require("ldapsearch", "ldapmodify", "ldapdelete", "ldapcompare", "ldapmodrdn");
        server = TestServer.start(50);
        url = "ldap://127.0.0.1:" + server.port();
        root = server.bindAs(TestServer.ROOT_DN, TestServer.ROOT_PASSWORD);
        // ou=Groups comes with the sample data.
        root.add("dn: " + HELPDESK, "objectClass: top", "objectClass: groupOfNames", "cn: Helpdesk",
                "member: " + TestServer.user(30), "member: " + TestServer.ROOT_DN);
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

    private LdapTools.Run as(String dn, String stdin, String tool, String... args) throws Exception {
        String[] cmd = new String[args.length + 8];
        cmd[0] = tool;
        cmd[1] = "-x";
        cmd[2] = "-H";
        cmd[3] = url;
        cmd[4] = "-D";
        cmd[5] = dn;
        cmd[6] = "-w";
        cmd[7] = dn.equals(TestServer.ROOT_DN) ? TestServer.ROOT_PASSWORD : TestServer.USER_PASSWORD;
        System.arraycopy(args, 0, cmd, 8, args.length);
        return LdapTools.runWithInput(stdin, cmd);
    }

    private LdapTools.Run anonymously(String tool, String... args) throws Exception {
        String[] cmd = new String[args.length + 4];
        cmd[0] = tool;
        cmd[1] = "-x";
        cmd[2] = "-H";
        cmd[3] = url;
        System.arraycopy(args, 0, cmd, 4, args.length);
        return LdapTools.run(cmd);
    }

    private void addAci(String dn, String aci) throws LDAPException {
        root.modify(dn, new Modification(ModificationType.ADD, "aci", aci));
    }

    private void removeAci(String dn, String aci) throws LDAPException {
        root.modify(dn, new Modification(ModificationType.DELETE, "aci", aci));
    }

    @Test
    public void theShippedAcisLetEveryoneReadAllButPasswords() throws Exception {
        LdapTools.Run r = anonymously("ldapsearch", "-LLL", "-b", TestServer.user(1), "-s", "base", "(objectClass=*)",
                "*", "userPassword");
        assertEquals(r.exit(), 0, r.output());
        assertTrue(r.output().contains("mail: user.1@example.com"), r.output());
        assertFalse(r.output().contains("userPassword"), r.output());
        LdapTools.Run pw = anonymously("ldapcompare", TestServer.user(1), "userPassword:password");
        assertEquals(pw.exit(), 50, pw.output()); // insufficientAccessRights
        LdapTools.Run mail = anonymously("ldapcompare", TestServer.user(1), "mail:user.1@example.com");
        assertEquals(mail.exit(), 6, mail.output()); // compareTrue
        // Operational attributes: the user-visible ones only; the password policy's state is not for others.
        SearchResultEntry ops = server.connect().getEntry(TestServer.user(1), "+");
        assertTrue(ops.hasAttribute("entryUUID"));
        assertFalse(ops.hasAttribute("aci"));
    }

    @Test
    public void usersChangeTheirOwnPasswordAndNothingElseByDefault() throws Exception {
        String dn = TestServer.user(2);
        LdapTools.Run mine = as(dn, "dn: " + dn + "\nchangetype: modify\nreplace: description\ndescription: x\n",
                "ldapmodify");
        assertEquals(mine.exit(), 50, mine.output());
        LdapTools.Run other = as(dn, "dn: " + TestServer.user(3) + "\nchangetype: modify\nreplace: userPassword\n"
                + "userPassword: hijack\n", "ldapmodify");
        assertEquals(other.exit(), 50, other.output());
        LdapTools.Run own = as(dn, "dn: " + dn + "\nchangetype: modify\nreplace: userPassword\nuserPassword: new-2\n",
                "ldapmodify");
        assertEquals(own.exit(), 0, own.output());
        root.modify(dn, new Modification(ModificationType.REPLACE, "userPassword", TestServer.USER_PASSWORD));
    }

    @Test
    public void readAndSearchRightsDecideWhatASearchShowsAndMatches() throws Exception {
        String hide = "(targetattr=\"mail\")(version 3.0; acl \"hide mail from users\"; deny (read,search) "
                + "userdn=\"ldap:///all\";)";
        addAci(TestServer.PEOPLE, hide);
        try {
            LdapTools.Run r = as(TestServer.user(4), null, "ldapsearch", "-LLL", "-b", TestServer.PEOPLE,
                    "(uid=user.5)", "cn", "mail");
            assertEquals(r.exit(), 0, r.output());
            assertTrue(r.output().contains("cn: User 5"), r.output());
            assertFalse(r.output().contains("mail:"), r.output());
            LdapTools.Run byMail = as(TestServer.user(4), null, "ldapsearch", "-LLL", "-b", TestServer.PEOPLE,
                    "(mail=user.5@example.com)", "cn");
            assertEquals(byMail.exit(), 0, byMail.output());
            assertFalse(byMail.output().contains("dn:"), "a filter on an attribute it may not search matches nothing: "
                    + byMail.output());
            LdapTools.Run anonymous = anonymously("ldapsearch", "-LLL", "-b", TestServer.PEOPLE,
                    "(mail=user.5@example.com)", "mail");
            assertTrue(anonymous.output().contains("mail: user.5@example.com"), "the deny names users only: "
                    + anonymous.output());
        } finally {
            removeAci(TestServer.PEOPLE, hide);
        }
        LdapTools.Run after = as(TestServer.user(4), null, "ldapsearch", "-LLL", "-b", TestServer.PEOPLE,
                "(mail=user.5@example.com)", "mail");
        assertTrue(after.output().contains("mail: user.5@example.com"), "removing the ACI takes effect: "
                + after.output());
    }

    @Test
    public void writeToOwnEntryOnceAnAciAllowsIt() throws Exception {
        String self = "(targetattr=\"description||telephoneNumber\")(version 3.0; acl \"self edit\"; allow (write) "
                + "userdn=\"ldap:///self\";)";
        addAci(TestServer.PEOPLE, self);
        try {
            String dn = TestServer.user(6);
            LdapTools.Run mine = as(dn, "dn: " + dn + "\nchangetype: modify\nreplace: description\ndescription: mine\n",
                    "ldapmodify");
            assertEquals(mine.exit(), 0, mine.output());
            LdapTools.Run other = as(dn, "dn: " + TestServer.user(7) + "\nchangetype: modify\nreplace: description\n"
                    + "description: not mine\n", "ldapmodify");
            assertEquals(other.exit(), 50, other.output());
            LdapTools.Run mail = as(dn, "dn: " + dn + "\nchangetype: modify\nreplace: mail\nmail: me@x\n",
                    "ldapmodify");
            assertEquals(mail.exit(), 50, "mail is not in the ACI's targetattr: " + mail.output());
        } finally {
            removeAci(TestServer.PEOPLE, self);
        }
    }

    @Test
    public void addAndDeleteForAGroupsMembers() throws Exception {
        String helpdesk = "(version 3.0; acl \"helpdesk adds and deletes people\"; allow (add,delete) "
                + "groupdn=\"ldap:///" + HELPDESK + "\";)";
        addAci(TestServer.PEOPLE, helpdesk);
        String newUser = "uid=temp.1," + TestServer.PEOPLE;
        String ldif = "dn: " + newUser + "\nobjectClass: top\nobjectClass: person\nobjectClass: organizationalPerson\n"
                + "objectClass: inetOrgPerson\nuid: temp.1\ncn: Temp\nsn: One\n";
        try {
            LdapTools.Run outsider = as(TestServer.user(31), ldif, "ldapmodify", "-a");
            assertEquals(outsider.exit(), 50, outsider.output());
            LdapTools.Run member = as(TestServer.user(30), ldif, "ldapmodify", "-a");
            assertEquals(member.exit(), 0, member.output());
            LdapTools.Run outsiderDelete = as(TestServer.user(31), null, "ldapdelete", newUser);
            assertEquals(outsiderDelete.exit(), 50, outsiderDelete.output());
            LdapTools.Run delete = as(TestServer.user(30), null, "ldapdelete", newUser);
            assertEquals(delete.exit(), 0, delete.output());
            // Membership is read when decided: removed from the group, the same user may no longer add.
            root.modify(HELPDESK, new Modification(ModificationType.DELETE, "member", TestServer.user(30)));
            LdapTools.Run removed = as(TestServer.user(30), ldif, "ldapmodify", "-a");
            assertEquals(removed.exit(), 50, removed.output());
        } finally {
            removeAci(TestServer.PEOPLE, helpdesk);
            root.modify(HELPDESK, new Modification(ModificationType.REPLACE, "member", TestServer.user(30),
                    TestServer.ROOT_DN));
        }
    }

    @Test
    public void renameNeedsWriteOnTheNamingAttribute() throws Exception {
        String rename = "(targetattr=\"uid\")(version 3.0; acl \"rename self\"; allow (write) "
                + "userdn=\"ldap:///self\";)";
        String dn = TestServer.user(8);
        LdapTools.Run refused = as(dn, null, "ldapmodrdn", dn, "uid=user.8b");
        assertEquals(refused.exit(), 50, refused.output());
        addAci(TestServer.PEOPLE, rename);
        try {
            LdapTools.Run renamed = as(dn, null, "ldapmodrdn", "-r", dn, "uid=user.8b");
            assertEquals(renamed.exit(), 0, renamed.output());
        } finally {
            removeAci(TestServer.PEOPLE, rename);
        }
    }

    @Test
    public void selfWriteLetsUsersJoinButNotAddOthers() throws Exception {
        String open = "cn=Open," + GROUPS;
        root.add("dn: " + open, "objectClass: top", "objectClass: groupOfNames", "cn: Open",
                "member: " + TestServer.ROOT_DN, "aci: (targetattr=\"member\")(version 3.0; acl \"join\"; "
                        + "allow (selfwrite) userdn=\"ldap:///all\";)");
        String me = TestServer.user(9);
        LdapTools.Run join = as(me, "dn: " + open + "\nchangetype: modify\nadd: member\nmember: " + me + "\n",
                "ldapmodify");
        assertEquals(join.exit(), 0, join.output());
        LdapTools.Run other = as(me, "dn: " + open + "\nchangetype: modify\nadd: member\nmember: "
                + TestServer.user(10) + "\n", "ldapmodify");
        assertEquals(other.exit(), 50, other.output());
    }

    @Test
    public void aMalformedAciIsRefusedSayingWhy() throws Exception {
        LDAPException e = expectThrows(LDAPException.class, () -> addAci(TestServer.PEOPLE,
                "(targetattr=\"mail\")(version 3.0; acl \"bad\"; allow (fly) userdn=\"ldap:///anyone\";)"));
        assertEquals(e.getResultCode(), ResultCode.INVALID_ATTRIBUTE_SYNTAX);
        assertTrue(e.getDiagnosticMessage().contains("unknown right fly"), e.getDiagnosticMessage());
        LdapTools.Run tool = as(TestServer.ROOT_DN, "dn: " + TestServer.PEOPLE + "\nchangetype: modify\nadd: aci\n"
                + "aci: (targetattr=\"mail\")(version 3.0; acl \"bad\"; allow (read) userdn=\"anyone\";)\n",
                "ldapmodify");
        assertEquals(tool.exit(), 21, tool.output());
        assertTrue(tool.output().contains("ldap:///"), tool.output());
    }

    @Test
    public void usersCannotWriteAcis() throws Exception {
        String me = TestServer.user(11);
        LdapTools.Run r = as(me, "dn: " + me + "\nchangetype: modify\nadd: aci\naci: (targetattr=\"*\")(version 3.0; "
                + "acl \"mine\"; allow (all) userdn=\"ldap:///self\";)\n", "ldapmodify");
        assertEquals(r.exit(), 50, r.output());
    }

    @Test
    public void unindexedSearchesCanRequireThePrivilege() throws Exception {
        AccessControlConfig handler = new AccessControlConfig(true, List.of("(targetattr!=\"userPassword\")"
                + "(version 3.0; acl \"read\"; allow (read,search,compare) userdn=\"ldap:///anyone\";)"), true);
        try (TestServer strict = TestServer.start(20, c -> c.withAccessControl(handler));
             LDAPConnection rootUser = strict.bindAs(TestServer.ROOT_DN, TestServer.ROOT_PASSWORD);
             LDAPConnection user = strict.bindAs(TestServer.user(3), TestServer.USER_PASSWORD)) {
            String unindexed = "(description=*)";
            LDAPException refused = expectThrows(LDAPException.class,
                    () -> user.search(TestServer.PEOPLE, SearchScope.SUB, unindexed));
            assertEquals(refused.getResultCode(), ResultCode.INSUFFICIENT_ACCESS_RIGHTS);
            assertTrue(refused.getDiagnosticMessage().contains("unindexed-search privilege"),
                    refused.getDiagnosticMessage());
            assertEquals(user.search(TestServer.PEOPLE, SearchScope.SUB, "(uid=user.4)").getEntryCount(), 1,
                    "an indexed search needs no privilege");
            assertEquals(rootUser.search(TestServer.PEOPLE, SearchScope.SUB, unindexed).getResultCode(),
                    ResultCode.SUCCESS, "root users hold every privilege");
            rootUser.modify(TestServer.user(3), new Modification(ModificationType.ADD, "ds-privilege-name",
                    "unindexed-search"));
            // The bound connection's identity is refreshed from its entry before the modify's answer (the
            // registry's listener on the commit path): its next request has the privilege.
            assertEquals(user.search(TestServer.PEOPLE, SearchScope.SUB, unindexed).getResultCode(),
                    ResultCode.SUCCESS, "the granted privilege reached the bound connection");
            try (LDAPConnection rebound = strict.bindAs(TestServer.user(3), TestServer.USER_PASSWORD)) {
                assertEquals(rebound.search(TestServer.PEOPLE, SearchScope.SUB, unindexed).getResultCode(),
                        ResultCode.SUCCESS, "a new bind holds the privilege");
            }
        }
        LdapTools.Run shipped = anonymously("ldapsearch", "-LLL", "-b", TestServer.PEOPLE, "(description=*)", "dn");
        assertEquals(shipped.exit(), 0, "as shipped, unindexed searches run for anyone: " + shipped.output());
    }

    @Test
    public void aNarrowGlobalAciLeavesTheServiceAccountItsReadAccess() throws Exception {
        AccessControlConfig handler = new AccessControlConfig(true, List.of("(targetattr=\"objectClass||uid||cn\")"
                + "(version 3.0; acl \"safe\"; allow (read,search,compare) userdn=\"ldap:///anyone\";)"), false);
        try (TestServer narrow = TestServer.start(20, c -> c.withAccessControl(handler));
             LDAPConnection anonymous = narrow.connect();
             LDAPConnection app = narrow.bindAs(TestServer.SERVICE_ACCOUNT, TestServer.USER_PASSWORD)) {
            SearchResultEntry seen = anonymous.searchForEntry(TestServer.PEOPLE, SearchScope.ONE, "(uid=user.3)");
            assertTrue(seen.hasAttribute("cn"));
            assertNull(seen.getAttribute("mail"));
            assertEquals(anonymous.search(TestServer.PEOPLE, SearchScope.ONE, "(mail=user.3@example.com)")
                    .getEntryCount(), 0);
            SearchResultEntry full = app.searchForEntry(TestServer.PEOPLE, SearchScope.ONE,
                    "(mail=user.3@example.com)");
            assertEquals(full.getAttributeValue("mail"), "user.3@example.com");
            assertNull(full.getAttribute("userPassword"));
            assertEquals(app.search(TestServer.PEOPLE, SearchScope.ONE, "(objectClass=person)").getEntryCount(), 20);
        }
    }
}
