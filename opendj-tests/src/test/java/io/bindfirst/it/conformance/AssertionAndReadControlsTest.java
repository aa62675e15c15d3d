package io.bindfirst.it.conformance;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertFalse;
import static org.testng.Assert.assertNotNull;
import static org.testng.Assert.assertNull;
import static org.testng.Assert.assertTrue;
import static org.testng.Assert.fail;

import java.util.List;

import org.testng.annotations.AfterClass;
import org.testng.annotations.BeforeClass;
import org.testng.annotations.Test;

import com.unboundid.ldap.sdk.AddRequest;
import com.unboundid.ldap.sdk.CompareRequest;
import com.unboundid.ldap.sdk.Control;
import com.unboundid.ldap.sdk.DeleteRequest;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.LDAPRequest;
import com.unboundid.ldap.sdk.LDAPResult;
import com.unboundid.ldap.sdk.LDAPSearchException;
import com.unboundid.ldap.sdk.Modification;
import com.unboundid.ldap.sdk.ModificationType;
import com.unboundid.ldap.sdk.ModifyDNRequest;
import com.unboundid.ldap.sdk.ModifyRequest;
import com.unboundid.ldap.sdk.ReadOnlyEntry;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.SearchRequest;
import com.unboundid.ldap.sdk.SearchScope;
import com.unboundid.ldap.sdk.controls.AssertionRequestControl;
import com.unboundid.ldap.sdk.controls.PostReadRequestControl;
import com.unboundid.ldap.sdk.controls.PostReadResponseControl;
import com.unboundid.ldap.sdk.controls.PreReadRequestControl;
import com.unboundid.ldap.sdk.controls.PreReadResponseControl;

import io.bindfirst.it.support.LdapTools;
import io.bindfirst.it.support.TestServer;

/**
 * The Assertion control (RFC 4528) on search, compare and every write, and the Pre-Read and Post-Read controls
 * (RFC 4527), through the UnboundID SDK and OpenLDAP's {@code -e assert=}, {@code -e preread=} and
 * {@code -e postread=}; a critical control on an operation it does not apply to is refused.
 */
public class AssertionAndReadControlsTest {
    private static final String BASE = "ou=Controls,dc=example,dc=com";
    private TestServer server;
    private String url;
    private LDAPConnection root;

    @BeforeClass
    public void start() throws Exception {
        server = TestServer.start(5);
        url = "ldap://127.0.0.1:" + server.port();
        root = server.bindAs(TestServer.ROOT_DN, TestServer.ROOT_PASSWORD);
        root.add("dn: " + BASE, "objectClass: organizationalUnit", "ou: Controls");
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

    private String person(String name) throws Exception {
        String dn = "cn=" + name + "," + BASE;
        root.add("dn: " + dn, "objectClass: person", "cn: " + name, "sn: before", "description: first");
        return dn;
    }

    private static ResultCode codeOf(LDAPConnection c, LDAPRequest request) {
        try {
            if (request instanceof ModifyRequest m) {
                return c.modify(m).getResultCode();
            } else if (request instanceof DeleteRequest d) {
                return c.delete(d).getResultCode();
            } else if (request instanceof ModifyDNRequest r) {
                return c.modifyDN(r).getResultCode();
            } else if (request instanceof AddRequest a) {
                return c.add(a).getResultCode();
            } else if (request instanceof CompareRequest cr) {
                return c.compare(cr).getResultCode();
            }
            throw new IllegalArgumentException(request.toString());
        } catch (LDAPException e) {
            return e.getResultCode();
        }
    }

    // --- Assertion ---

    @Test
    public void modifyGoesOnOnlyWhenTheAssertionMatchesTheStoredEntry() throws Exception {
        String dn = person("assert-modify");
        ModifyRequest mod = new ModifyRequest(dn, new Modification(ModificationType.REPLACE, "sn", "after"));
        mod.addControl(new AssertionRequestControl("(sn=elsewhere)"));
        assertEquals(codeOf(root, mod), ResultCode.ASSERTION_FAILED);
        assertEquals(root.getEntry(dn).getAttributeValue("sn"), "before");

        mod.setControls(new AssertionRequestControl("(&(sn=before)(description=first))"));
        assertEquals(codeOf(root, mod), ResultCode.SUCCESS);
        assertEquals(root.getEntry(dn).getAttributeValue("sn"), "after");
        // The same request again: the stored entry no longer matches.
        assertEquals(codeOf(root, mod), ResultCode.ASSERTION_FAILED);
    }

    @Test
    public void deleteAndRenameGoOnOnlyWhenTheAssertionMatches() throws Exception {
        String dn = person("assert-delete");
        DeleteRequest delete = new DeleteRequest(dn);
        delete.addControl(new AssertionRequestControl("(sn=other)"));
        assertEquals(codeOf(root, delete), ResultCode.ASSERTION_FAILED);
        assertNotNull(root.getEntry(dn));

        ModifyDNRequest rename = new ModifyDNRequest(dn, "cn=assert-renamed", true);
        rename.addControl(new AssertionRequestControl("(description=other)"));
        assertEquals(codeOf(root, rename), ResultCode.ASSERTION_FAILED);
        assertNotNull(root.getEntry(dn));
        rename.setControls(new AssertionRequestControl("(description=first)"));
        assertEquals(codeOf(root, rename), ResultCode.SUCCESS);
        String renamed = "cn=assert-renamed," + BASE;

        DeleteRequest deleteRenamed = new DeleteRequest(renamed);
        deleteRenamed.addControl(new AssertionRequestControl("(cn=assert-renamed)"));
        assertEquals(codeOf(root, deleteRenamed), ResultCode.SUCCESS);
        assertNull(root.getEntry(renamed));
    }

    @Test
    public void addEvaluatesTheAssertionAgainstTheEntryToAdd() throws Exception {
        AddRequest add = new AddRequest("cn=assert-add," + BASE, List.of(
                new com.unboundid.ldap.sdk.Attribute("objectClass", "person"),
                new com.unboundid.ldap.sdk.Attribute("cn", "assert-add"),
                new com.unboundid.ldap.sdk.Attribute("sn", "added")));
        add.addControl(new AssertionRequestControl("(sn=not-this)"));
        assertEquals(codeOf(root, add), ResultCode.ASSERTION_FAILED);
        assertNull(root.getEntry("cn=assert-add," + BASE));
        add.setControls(new AssertionRequestControl("(sn=added)"));
        assertEquals(codeOf(root, add), ResultCode.SUCCESS);
    }

    @Test
    public void compareAndSearchTestTheAssertionAgainstTheirTarget() throws Exception {
        String dn = person("assert-read");
        CompareRequest compare = new CompareRequest(dn, "sn", "before");
        compare.addControl(new AssertionRequestControl("(description=nope)"));
        assertEquals(codeOf(root, compare), ResultCode.ASSERTION_FAILED);
        compare.setControls(new AssertionRequestControl("(description=first)"));
        assertEquals(codeOf(root, compare), ResultCode.COMPARE_TRUE);

        // A search's assertion is about its base entry, not the entries it returns.
        SearchRequest search = new SearchRequest(BASE, SearchScope.SUB, "(cn=assert-read)", "cn");
        search.addControl(new AssertionRequestControl("(ou=Controls)"));
        assertEquals(root.search(search).getEntryCount(), 1);
        search.setControls(new AssertionRequestControl("(cn=assert-read)"));
        try {
            root.search(search);
            fail("the assertion on the base was not checked");
        } catch (LDAPSearchException e) {
            assertEquals(e.getResultCode(), ResultCode.ASSERTION_FAILED);
            assertEquals(e.getEntryCount(), 0);
        }
    }

    @Test
    public void anAssertionCannotProbeWhatTheRequesterMayNotSearch() throws Exception {
        CompareRequest compare = new CompareRequest(TestServer.user(1), "uid", "user.1");
        compare.addControl(new AssertionRequestControl("(userPassword=*)"));
        try (LDAPConnection user = server.bindAs(TestServer.user(1), TestServer.USER_PASSWORD)) {
            assertEquals(codeOf(user, compare), ResultCode.ASSERTION_FAILED);
        }
        assertEquals(codeOf(root, compare), ResultCode.COMPARE_TRUE);
    }

    // --- Pre-Read and Post-Read ---

    @Test
    public void modifyAndRenameReturnTheEntryBeforeAndAfter() throws Exception {
        String dn = person("read-modify");
        ModifyRequest mod = new ModifyRequest(dn, new Modification(ModificationType.REPLACE, "sn", "after"));
        mod.addControl(new PreReadRequestControl("sn", "description"));
        mod.addControl(new PostReadRequestControl("sn", "modifyTimestamp"));
        LDAPResult result = root.modify(mod);
        ReadOnlyEntry before = PreReadResponseControl.get(result).getEntry();
        ReadOnlyEntry after = PostReadResponseControl.get(result).getEntry();
        assertEquals(before.getAttributeValue("sn"), "before");
        assertEquals(before.getAttributeValue("description"), "first");
        assertEquals(after.getAttributeValue("sn"), "after");
        assertNotNull(after.getAttributeValue("modifyTimestamp"));
        assertNull(after.getAttribute("description"), "not asked for");

        ModifyDNRequest rename = new ModifyDNRequest(dn, "cn=read-renamed", true);
        rename.addControl(new PreReadRequestControl("cn"));
        rename.addControl(new PostReadRequestControl("cn"));
        result = root.modifyDN(rename);
        assertEquals(PreReadResponseControl.get(result).getEntry().getAttributeValue("cn"), "read-modify");
        ReadOnlyEntry renamed = PostReadResponseControl.get(result).getEntry();
        assertEquals(renamed.getDN(), "cn=read-renamed," + BASE);
        assertEquals(renamed.getAttributeValue("cn"), "read-renamed");
    }

    @Test
    public void deleteReturnsTheEntryBeforeAndAddTheEntryAfter() throws Exception {
        AddRequest add = new AddRequest("cn=read-add," + BASE, List.of(
                new com.unboundid.ldap.sdk.Attribute("objectClass", "person"),
                new com.unboundid.ldap.sdk.Attribute("cn", "read-add"),
                new com.unboundid.ldap.sdk.Attribute("sn", "added")));
        add.addControl(new PostReadRequestControl("entryUUID", "sn"));
        ReadOnlyEntry added = PostReadResponseControl.get(root.add(add)).getEntry();
        assertEquals(added.getAttributeValue("sn"), "added");
        String uuid = added.getAttributeValue("entryUUID");
        assertNotNull(uuid);

        DeleteRequest delete = new DeleteRequest("cn=read-add," + BASE);
        delete.addControl(new PreReadRequestControl("*", "+"));
        ReadOnlyEntry deleted = PreReadResponseControl.get(root.delete(delete)).getEntry();
        assertEquals(deleted.getAttributeValue("entryUUID"), uuid);
        assertEquals(deleted.getAttributeValue("sn"), "added");
    }

    @Test
    public void readEntriesHoldOnlyWhatTheRequesterMayRead() throws Exception {
        // A user may change their own password, but not read it back: the pre-read leaves it out.
        try (LDAPConnection user = server.bindAs(TestServer.user(2), TestServer.USER_PASSWORD)) {
            ModifyRequest mod = new ModifyRequest(TestServer.user(2),
                    new Modification(ModificationType.REPLACE, "userPassword", "another-password-2"));
            mod.addControl(new PreReadRequestControl("userPassword", "uid"));
            mod.addControl(new PostReadRequestControl("userPassword", "uid"));
            LDAPResult result = user.modify(mod);
            assertEquals(PreReadResponseControl.get(result).getEntry().getAttributeValue("uid"), "user.2");
            assertNull(PreReadResponseControl.get(result).getEntry().getAttribute("userPassword"));
            assertNull(PostReadResponseControl.get(result).getEntry().getAttribute("userPassword"));
        }
        ModifyRequest mod = new ModifyRequest(TestServer.user(2),
                new Modification(ModificationType.REPLACE, "userPassword", TestServer.USER_PASSWORD));
        mod.addControl(new PreReadRequestControl("userPassword"));
        assertNotNull(PreReadResponseControl.get(root.modify(mod)).getEntry().getAttribute("userPassword"));
    }

    // --- criticality ---

    @Test
    public void criticalControlsWhereTheyDoNotApplyAreRefused() throws Exception {
        AddRequest add = new AddRequest("cn=critical-add," + BASE, List.of(
                new com.unboundid.ldap.sdk.Attribute("objectClass", "person"),
                new com.unboundid.ldap.sdk.Attribute("cn", "critical-add"),
                new com.unboundid.ldap.sdk.Attribute("sn", "x")));
        add.addControl(new PreReadRequestControl(true, "cn"));
        assertEquals(codeOf(root, add), ResultCode.UNAVAILABLE_CRITICAL_EXTENSION);
        assertNull(root.getEntry("cn=critical-add," + BASE));
        // Not critical: ignored, and no response control.
        add.setControls(new PreReadRequestControl(false, "cn"));
        LDAPResult added = root.add(add);
        assertEquals(added.getResultCode(), ResultCode.SUCCESS);
        assertNull(PreReadResponseControl.get(added));

        DeleteRequest delete = new DeleteRequest("cn=critical-add," + BASE);
        delete.addControl(new PostReadRequestControl(true, "cn"));
        assertEquals(codeOf(root, delete), ResultCode.UNAVAILABLE_CRITICAL_EXTENSION);

        SearchRequest search = new SearchRequest(BASE, SearchScope.BASE, "(objectClass=*)");
        search.addControl(new PreReadRequestControl(true, "cn"));
        try {
            root.search(search);
            fail("a critical pre-read control was accepted on a search");
        } catch (LDAPSearchException e) {
            assertEquals(e.getResultCode(), ResultCode.UNAVAILABLE_CRITICAL_EXTENSION);
        }
    }

    @Test
    public void malformedAssertionIsAProtocolError() throws Exception {
        ModifyRequest mod = new ModifyRequest(BASE, new Modification(ModificationType.REPLACE, "description", "x"));
        mod.addControl(new Control(AssertionRequestControl.ASSERTION_REQUEST_OID, true,
                new com.unboundid.asn1.ASN1OctetString(new byte[] {(byte) 0xA0, 0x05, 0x04})));
        assertEquals(codeOf(root, mod), ResultCode.PROTOCOL_ERROR);
    }

    @Test
    public void rootDseListsTheControls() throws Exception {
        List<String> controls = List.of(root.getRootDSE().getSupportedControlOIDs());
        for (String oid : List.of(AssertionRequestControl.ASSERTION_REQUEST_OID,
                PreReadRequestControl.PRE_READ_REQUEST_OID, PostReadRequestControl.POST_READ_REQUEST_OID)) {
            assertTrue(controls.contains(oid), oid + " in " + controls);
        }
    }

    // --- OpenLDAP's tools ---

    @Test
    public void ldapmodifyWithAssertPrereadAndPostread() throws Exception {
        LdapTools.require("ldapmodify", "ldapsearch");
        String dn = person("tools");
        String change = "dn: " + dn + "\nchangetype: modify\nreplace: sn\nsn: changed\n";
        LdapTools.Run failed = asRoot(change, "ldapmodify", "-e", "assert=(sn=wrong)");
        assertEquals(failed.exit(), 122, failed.output());
        assertTrue(failed.output().contains("Assertion Failed (122)"), failed.output());

        LdapTools.Run r = asRoot(change, "ldapmodify", "-e", "assert=(sn=before)", "-e", "preread=sn",
                "-e", "postread=sn");
        assertEquals(r.exit(), 0, r.output());
        assertTrue(r.output().contains("sn: before"), r.output());
        assertTrue(r.output().contains("sn: changed"), r.output());

        LdapTools.Run search = asRoot(null, "ldapsearch", "-LLL", "-b", dn, "-s", "base", "-e",
                "assert=(sn=before)", "(objectClass=*)", "sn");
        assertEquals(search.exit(), 122, search.output());
        LdapTools.Run found = asRoot(null, "ldapsearch", "-LLL", "-b", dn, "-s", "base", "-e",
                "assert=(sn=changed)", "(objectClass=*)", "sn");
        assertEquals(found.exit(), 0, found.output());
        assertTrue(found.output().contains("sn: changed"), found.output());
        assertFalse(found.output().contains("before"), found.output());
    }

    private LdapTools.Run asRoot(String stdin, String tool, String... args) throws Exception {
        String[] cmd = new String[args.length + 8];
        cmd[0] = tool;
        cmd[1] = "-x";
        cmd[2] = "-H";
        cmd[3] = url;
        cmd[4] = "-D";
        cmd[5] = TestServer.ROOT_DN;
        cmd[6] = "-w";
        cmd[7] = TestServer.ROOT_PASSWORD;
        System.arraycopy(args, 0, cmd, 8, args.length);
        return LdapTools.runWithInput(stdin, cmd);
    }
}
