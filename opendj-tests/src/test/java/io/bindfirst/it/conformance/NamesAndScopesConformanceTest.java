package io.bindfirst.it.conformance;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertTrue;

import java.util.List;

import org.testng.annotations.AfterClass;
import org.testng.annotations.BeforeClass;
import org.testng.annotations.Test;

import com.unboundid.ldap.sdk.Attribute;
import com.unboundid.ldap.sdk.CompareRequest;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPResult;
import com.unboundid.ldap.sdk.LDAPSearchException;
import com.unboundid.ldap.sdk.Modification;
import com.unboundid.ldap.sdk.ModificationType;
import com.unboundid.ldap.sdk.ModifyDNRequest;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.SearchRequest;
import com.unboundid.ldap.sdk.SearchResult;
import com.unboundid.ldap.sdk.SearchScope;

import io.bindfirst.it.support.LdapOutcome;
import io.bindfirst.it.support.TestServer;

/**
 * Names that do not parse and scopes that do not exist, answered as slapd 2.5 and OpenDJ 5.0.3 answer them (found side
 * by side, 2026-11-29): invalidDNSyntax (RFC 4511 appendix A: "the request contained a syntactically invalid DN"),
 * not protocolError; and a scope outside RFC 4511's enumeration a protocol error, not a search of everything.
 */
public class NamesAndScopesConformanceTest {
    private TestServer server;
    private LDAPConnection root;

    @BeforeClass
    public void start() throws Exception {
        server = TestServer.start(5);
        root = server.bindAs(TestServer.ROOT_DN, TestServer.ROOT_PASSWORD);
    }

    @AfterClass(alwaysRun = true)
    public void stop() {
        root.close();
        server.close();
    }


    @Test
    public void everyOperationAnswersAnInvalidNameWithInvalidDnSyntax() throws Exception {
        String user = TestServer.user(1);
        List<LDAPResult> results = List.of(
                LdapOutcome.of(() -> root.delete("not a dn")),
                LdapOutcome.of(() -> root.add("=x,dc=example,dc=com", new Attribute("objectClass", "top"))),
                LdapOutcome.of(() -> root.modify("cn", new Modification(ModificationType.REPLACE, "sn", "x"))),
                LdapOutcome.of(() -> root.compare(new CompareRequest("bogus", "sn", "x"))),
                LdapOutcome.of(() -> root.modifyDN(new ModifyDNRequest("not a dn", "cn=x", true))),
                LdapOutcome.of(() -> root.modifyDN(new ModifyDNRequest(user, "bogus", true))),
                LdapOutcome.of(() -> root.modifyDN(new ModifyDNRequest(user, "uid=moved", true, "bogus sup"))),
                LdapOutcome.of(() -> root.search(new SearchRequest("not a dn", SearchScope.BASE, "(objectClass=*)"))));
        for (LDAPResult r : results) {
            assertEquals(r.getResultCode(), ResultCode.INVALID_DN_SYNTAX, r.toString());
            assertTrue(r.getDiagnosticMessage().contains("bogus") || r.getDiagnosticMessage().contains("not a dn")
                    || r.getDiagnosticMessage().contains("=x") || r.getDiagnosticMessage().contains("cn"),
                    r.getDiagnosticMessage());
        }
        assertTrue(root.isConnected(), "each answer is the request's own; the connection goes on");
        assertEquals(root.getEntry(user).getDN(), user, "the entry was not renamed");
    }

    @Test
    public void aScopeOutsideTheEnumerationIsAProtocolError() throws Exception {
        for (String base : List.of("dc=example,dc=com", "")) {
            SearchResult r;
            try {
                r = root.search(new SearchRequest(base, SearchScope.valueOf(7), "(objectClass=*)"));
            } catch (LDAPSearchException e) {
                r = e.getSearchResult();
            }
            assertEquals(r.getResultCode(), ResultCode.PROTOCOL_ERROR, base + ": " + r);
            assertEquals(r.getEntryCount(), 0);
        }
    }
}
