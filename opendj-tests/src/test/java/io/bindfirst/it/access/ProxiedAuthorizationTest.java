package io.bindfirst.it.access;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertTrue;
import static org.testng.Assert.expectThrows;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import org.testng.annotations.AfterClass;
import org.testng.annotations.BeforeClass;
import org.testng.annotations.Test;

import com.unboundid.asn1.ASN1OctetString;
import com.unboundid.ldap.sdk.AddRequest;
import com.unboundid.ldap.sdk.Attribute;
import com.unboundid.ldap.sdk.CompareRequest;
import com.unboundid.ldap.sdk.Control;
import com.unboundid.ldap.sdk.DeleteRequest;
import com.unboundid.ldap.sdk.ExtendedRequest;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.LDAPResult;
import com.unboundid.ldap.sdk.LDAPSearchException;
import com.unboundid.ldap.sdk.Modification;
import com.unboundid.ldap.sdk.ModificationType;
import com.unboundid.ldap.sdk.ModifyDNRequest;
import com.unboundid.ldap.sdk.ModifyRequest;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.SearchRequest;
import com.unboundid.ldap.sdk.SearchScope;
import com.unboundid.ldap.sdk.SimpleBindRequest;
import com.unboundid.ldap.sdk.controls.ProxiedAuthorizationV2RequestControl;
import com.unboundid.ldap.sdk.extensions.WhoAmIExtendedRequest;
import com.unboundid.ldap.sdk.extensions.WhoAmIExtendedResult;

import io.bindfirst.it.support.LdapTools;
import io.bindfirst.it.support.TestServer;
import io.bindfirst.server.testsupport.Poll;

/**
 * Proxied Authorization v2 (RFC 4370) end to end: a root user acts as a user (that user's access rights, search
 * limits and modifiersName), a user may not act as anyone (authorizationDenied), identities that name nobody are
 * authorizationDenied too, a control that is not critical is a protocolError; and OpenLDAP's tools with
 * {@code -e '!authzid=...'}.
 */
public class ProxiedAuthorizationTest {
    private static final int USERS = 20;

    private TestServer server;
    private LDAPConnection root;

    @BeforeClass
    public void start() throws Exception {
        server = TestServer.start(USERS);
        root = server.bindAs(TestServer.ROOT_DN, TestServer.ROOT_PASSWORD);
        // user.4 may be sent two entries per search.
        root.modify(TestServer.user(4), new Modification(ModificationType.REPLACE, "ds-rlim-size-limit", "2"));
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

    private static Control as(String authzId) {
        return new ProxiedAuthorizationV2RequestControl(authzId);
    }

    private static ExtendedRequest whoAmIAs(String authzId) {
        return new WhoAmIExtendedRequest(new Control[] {as(authzId)});
    }

    private static String whoAmI(LDAPConnection c, Control... controls) throws LDAPException {
        ExtendedRequest r = new WhoAmIExtendedRequest(controls);
        WhoAmIExtendedResult result = (WhoAmIExtendedResult) c.processExtendedOperation(r);
        assertEquals(result.getResultCode(), ResultCode.SUCCESS, result.toString());
        return result.getAuthorizationID();
    }

    private static ResultCode code(ThrowingSupplier r) {
        try {
            return r.get().getResultCode();
        } catch (LDAPException e) {
            return e.getResultCode();
        }
    }

    private interface ThrowingSupplier {
        LDAPResult get() throws LDAPException;
    }

    @Test
    public void whoAmIAnswersTheIdentityActedAs() throws Exception {
        assertEquals(whoAmI(root, as("dn:" + TestServer.user(1))), "dn:" + TestServer.user(1));
        assertEquals(whoAmI(root, as("u:user.2")), "dn:" + TestServer.user(2));
        assertEquals(whoAmI(root, as("")), "", "empty: anonymous");
        assertEquals(whoAmI(root, as("dn:" + TestServer.ROOT_DN)), "dn:cn=Directory Manager,cn=Root DNs,cn=config");
        assertEquals(whoAmI(root), "dn:cn=Directory Manager,cn=Root DNs,cn=config", "only that operation");
    }

    @Test
    public void aRootUserActingAsAUserHasTheUsersRights() throws Exception {
        Control user3 = as("dn:" + TestServer.user(3));
        SearchRequest config = new SearchRequest("cn=config", SearchScope.BASE, "(objectClass=*)");
        assertEquals(code(() -> root.search(config)), ResultCode.SUCCESS);
        config.addControl(user3);
        assertEquals(code(() -> root.search(config)), ResultCode.INSUFFICIENT_ACCESS_RIGHTS);

        String other = TestServer.user(5);
        ModifyRequest modifyOther = new ModifyRequest(other,
                new Modification(ModificationType.REPLACE, "description", "by proxy"));
        modifyOther.addControl(user3);
        assertEquals(code(() -> root.modify(modifyOther)), ResultCode.INSUFFICIENT_ACCESS_RIGHTS);
        AddRequest add = new AddRequest("uid=proxied.add," + TestServer.PEOPLE,
                new Attribute("objectClass", "top", "person", "organizationalPerson", "inetOrgPerson"),
                new Attribute("uid", "proxied.add"), new Attribute("cn", "p"), new Attribute("sn", "p"));
        add.addControl(user3);
        assertEquals(code(() -> root.add(add)), ResultCode.INSUFFICIENT_ACCESS_RIGHTS);
        DeleteRequest delete = new DeleteRequest(other);
        delete.addControl(user3);
        assertEquals(code(() -> root.delete(delete)), ResultCode.INSUFFICIENT_ACCESS_RIGHTS);
        ModifyDNRequest rename = new ModifyDNRequest(other, "uid=renamed", true);
        rename.addControl(user3);
        assertEquals(code(() -> root.modifyDN(rename)), ResultCode.INSUFFICIENT_ACCESS_RIGHTS);
        CompareRequest compare = new CompareRequest("cn=config", "cn", "config");
        assertEquals(code(() -> root.compare(compare)), ResultCode.COMPARE_TRUE);
        compare.addControl(user3);
        assertEquals(code(() -> root.compare(compare)), ResultCode.NO_SUCH_OBJECT, "the configuration is root's");
        assertEquals(root.getEntry(other).getAttributeValue("uid"), "user.5", "nothing was changed");
    }

    @Test
    public void aWriteActedAsAUserIsThatUsersInModifiersName() throws Exception {
        String user6 = TestServer.user(6);
        ModifyRequest own = new ModifyRequest(user6,
                new Modification(ModificationType.REPLACE, "userPassword", "changed-by-proxy"));
        own.addControl(as("dn:" + user6));
        assertEquals(root.modify(own).getResultCode(), ResultCode.SUCCESS);
        assertEquals(root.getEntry(user6, "modifiersName").getAttributeValue("modifiersName"), user6);
        server.bindAs(user6, "changed-by-proxy").close();
    }

    @Test
    public void aSearchActedAsAUserHasThatUsersSizeLimit() throws Exception {
        SearchRequest people = new SearchRequest(TestServer.PEOPLE, SearchScope.ONE, "(objectClass=person)", "1.1");
        assertTrue(root.search(people).getEntryCount() >= USERS);
        people.addControl(as("dn:" + TestServer.user(4)));
        LDAPException limited = expectThrows(LDAPException.class, () -> root.search(people));
        assertEquals(limited.getResultCode(), ResultCode.SIZE_LIMIT_EXCEEDED);
        assertEquals(((LDAPSearchException) limited).getEntryCount(), 2);
    }

    @Test
    public void aUserWithTheProxiedAuthPrivilegeActsWhereAnAciGivesTheProxyRight() throws Exception {
        String app = TestServer.user(12);
        String aci = "(target=\"ldap:///uid=user.13," + TestServer.PEOPLE + "\")(version 3.0; acl \"app proxies\"; "
                + "allow (proxy) userdn=\"ldap:///" + app + "\";)";
        root.modify(app, new Modification(ModificationType.ADD, "ds-privilege-name", "proxied-auth"));
        root.modify(TestServer.PEOPLE, new Modification(ModificationType.ADD, "aci", aci));
        try (LDAPConnection user = server.bindAs(app, "password")) {
            LDAPResult allowed = user.processExtendedOperation(whoAmIAs("dn:" + TestServer.user(13)));
            assertEquals(allowed.getResultCode(), ResultCode.SUCCESS, allowed.toString());
            assertEquals(((WhoAmIExtendedResult) allowed).getAuthorizationID(), "dn:" + TestServer.user(13));
            LDAPResult elsewhere = user.processExtendedOperation(whoAmIAs("dn:" + TestServer.user(14)));
            assertEquals(elsewhere.getResultCode(), ResultCode.AUTHORIZATION_DENIED, "no proxy right over user.14");
        } finally {
            root.modify(TestServer.PEOPLE, new Modification(ModificationType.DELETE, "aci", aci));
            root.modify(app, new Modification(ModificationType.DELETE, "ds-privilege-name", "proxied-auth"));
        }
        try (LDAPConnection user = server.bindAs(app, "password")) {
            assertEquals(user.processExtendedOperation(whoAmIAs("dn:" + TestServer.user(13))).getResultCode(),
                    ResultCode.AUTHORIZATION_DENIED, "the privilege removed");
        }
    }

    @Test
    public void aUserMayNotActAsAnother() throws Exception {
        try (LDAPConnection user = server.bindAs(TestServer.user(7), "password")) {
            LDAPResult refused = user.processExtendedOperation(whoAmIAs("dn:" + TestServer.user(8)));
            assertEquals(refused.getResultCode(), ResultCode.AUTHORIZATION_DENIED);
            assertTrue(refused.getDiagnosticMessage().contains("needs the proxied-auth privilege"),
                    refused.toString());
            SearchRequest search = new SearchRequest(TestServer.user(8), SearchScope.BASE, "(objectClass=*)");
            search.addControl(as("u:user.8"));
            assertEquals(code(() -> user.search(search)), ResultCode.AUTHORIZATION_DENIED);
            try (LDAPConnection anonymous = server.connect()) {
                assertEquals(code(() -> anonymous.processExtendedOperation(whoAmIAs("dn:" + TestServer.user(8)))),
                        ResultCode.AUTHORIZATION_DENIED, "nor may anonymous");
            }
            assertEquals(code(() -> user.processExtendedOperation(whoAmIAs("dn:" + TestServer.ROOT_DN))),
                    ResultCode.AUTHORIZATION_DENIED, "least of all as a root user");
            assertEquals(whoAmI(user), "dn:" + TestServer.user(7), "the connection is still the user's");
        }
    }

    @Test
    public void identitiesThatNameNobodyAreAuthorizationDenied() throws Exception {
        for (String authzId : new String[] {"dn:uid=nobody," + TestServer.PEOPLE, "u:nobody", "dn:not a dn",
                "x:user.1", "user.1", "dn:cn=schema"}) {
            assertEquals(code(() -> root.processExtendedOperation(whoAmIAs(authzId))), ResultCode.AUTHORIZATION_DENIED,
                    authzId);
        }
    }

    @Test
    public void theControlMustBeCritical() throws Exception {
        Control notCritical = new Control(ProxiedAuthorizationV2RequestControl.PROXIED_AUTHORIZATION_V2_REQUEST_OID,
                false, new ASN1OctetString("dn:" + TestServer.user(9)));
        SearchRequest search = new SearchRequest(TestServer.user(9), SearchScope.BASE, "(objectClass=*)");
        search.addControl(notCritical);
        assertEquals(code(() -> root.search(search)), ResultCode.PROTOCOL_ERROR);
    }

    @Test
    public void aBindCannotTakeIt() throws Exception {
        try (LDAPConnection c = server.connect()) {
            assertEquals(code(() -> c.bind(new SimpleBindRequest(TestServer.user(10), "password",
                    as("dn:" + TestServer.user(11))))), ResultCode.UNAVAILABLE_CRITICAL_EXTENSION);
        }
    }

    @Test
    public void theAccessLogSaysWhomAnOperationActedAs() throws Exception {
        whoAmI(root, as("u:user.14"));
        Path log = server.instance().resolve("logs/access");
        String wanted = "authzDN=\"" + TestServer.user(14) + "\"";
        Poll.until("an access log line with " + wanted, Duration.ofSeconds(10),
                () -> Files.readAllLines(log).stream().anyMatch(l -> l.contains("EXTENDED") && l.contains(wanted)));
    }

    @Test
    public void theRootDseListsTheControl() throws Exception {
        assertTrue(root.getRootDSE().supportsControl(
                ProxiedAuthorizationV2RequestControl.PROXIED_AUTHORIZATION_V2_REQUEST_OID));
    }

    @Test
    public void openLdapToolsWithAuthzid() throws Exception {
        LdapTools.require("ldapwhoami", "ldapsearch");
        String url = "ldap://127.0.0.1:" + server.port();
        String user12 = TestServer.user(12);
        LdapTools.Run who = LdapTools.run("ldapwhoami", "-x", "-H", url, "-D", TestServer.ROOT_DN, "-w",
                TestServer.ROOT_PASSWORD, "-e", "!authzid=dn:" + user12);
        assertEquals(who.exit(), 0, who.output());
        assertEquals(who.output().trim(), "dn:" + user12);
        LdapTools.Run found = LdapTools.run("ldapsearch", "-x", "-LLL", "-H", url, "-D", TestServer.ROOT_DN, "-w",
                TestServer.ROOT_PASSWORD, "-e", "!authzid=u:user.12", "-b", user12, "-s", "base", "uid");
        assertEquals(found.exit(), 0, found.output());
        assertTrue(found.output().contains("uid: user.12"), found.output());
        LdapTools.Run config = LdapTools.run("ldapsearch", "-x", "-LLL", "-H", url, "-D", TestServer.ROOT_DN, "-w",
                TestServer.ROOT_PASSWORD, "-e", "!authzid=dn:" + user12, "-b", "cn=config", "-s", "base");
        assertEquals(config.exit(), 50, config.output()); // insufficientAccessRights: the user's rights
        LdapTools.Run denied = LdapTools.run("ldapsearch", "-x", "-LLL", "-H", url, "-D", user12, "-w", "password",
                "-e", "!authzid=dn:" + TestServer.user(13), "-b", user12, "-s", "base");
        assertEquals(denied.exit(), 123, denied.output());
    }
}
