package io.bindfirst.it.conformance;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertFalse;
import static org.testng.Assert.assertNotNull;
import static org.testng.Assert.assertTrue;

import java.util.Arrays;
import java.util.List;

import org.testng.annotations.AfterClass;
import org.testng.annotations.BeforeClass;
import org.testng.annotations.Test;

import com.unboundid.asn1.ASN1OctetString;
import com.unboundid.ldap.sdk.Attribute;
import com.unboundid.ldap.sdk.CompareRequest;
import com.unboundid.ldap.sdk.Control;
import com.unboundid.ldap.sdk.DeleteRequest;
import com.unboundid.ldap.sdk.GenericSASLBindRequest;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPResult;
import com.unboundid.ldap.sdk.Modification;
import com.unboundid.ldap.sdk.ModificationType;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.SearchRequest;
import com.unboundid.ldap.sdk.SearchScope;
import com.unboundid.ldap.sdk.extensions.PasswordModifyExtendedRequest;

import io.bindfirst.it.support.LdapOutcome;
import io.bindfirst.it.support.TestServer;

/**
 * Controls, extended operations and the server's own entries where a side-by-side run against slapd 2.5 and OpenDJ
 * 5.0.3 found this server out of step with both, or with the RFC (2026-11-29).
 */
public class ControlsAndExtendedConformanceTest {
    private static final String SUBTREE_DELETE = "1.2.840.113556.1.4.805";
    private static final String PAGED_RESULTS = "1.2.840.113556.1.4.319";
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


    /** A malformed critical control must fail the request (RFC 4511 4.1.11), not delete a whole subtree. */
    @Test
    public void aSubtreeDeleteControlWithAValueDeletesNothing() throws Exception {
        String top = "ou=treedelete,dc=example,dc=com";
        root.add(top, new Attribute("objectClass", "top", "organizationalUnit"), new Attribute("ou", "treedelete"));
        root.add("ou=child," + top, new Attribute("objectClass", "top", "organizationalUnit"),
                new Attribute("ou", "child"));
        DeleteRequest withValue = new DeleteRequest(top);
        withValue.addControl(new Control(SUBTREE_DELETE, true, new ASN1OctetString("x")));
        LDAPResult r = LdapOutcome.of(() -> root.delete(withValue));
        assertEquals(r.getResultCode(), ResultCode.PROTOCOL_ERROR, r.toString());
        assertNotNull(root.getEntry("ou=child," + top), "nothing was deleted");
        DeleteRequest proper = new DeleteRequest(top);
        proper.addControl(new Control(SUBTREE_DELETE, true));
        assertEquals(root.delete(proper).getResultCode(), ResultCode.SUCCESS);
    }

    /** The root DSE and the schema entry are read by searches, so compares see them too (RFC 4511 4.10). */
    @Test
    public void compareReadsTheRootDseAndTheSchemaEntry() throws Exception {
        try (LDAPConnection anonymous = server.connect()) {
            assertTrue(anonymous.compare(new CompareRequest("", "supportedLDAPVersion", "3")).compareMatched());
            assertFalse(anonymous.compare(new CompareRequest("", "supportedLDAPVersion", "2")).compareMatched());
        }
        assertTrue(root.compare(new CompareRequest("cn=schema", "objectClass", "subschema")).compareMatched());
    }

    /** The operational attributes a search returns computed are compared as a search returns them. */
    @Test
    public void compareReadsComputedOperationalAttributes() throws Exception {
        String user = TestServer.user(1);
        assertTrue(root.compare(new CompareRequest(user, "entryDN", user.toUpperCase())).compareMatched());
        assertTrue(root.compare(new CompareRequest(user, "subschemaSubentry", "cn=schema")).compareMatched());
        assertTrue(root.compare(new CompareRequest(user, "hasSubordinates", "FALSE")).compareMatched());
        assertTrue(root.compare(new CompareRequest(TestServer.PEOPLE, "hasSubordinates", "TRUE")).compareMatched());
        assertFalse(root.compare(new CompareRequest(TestServer.PEOPLE, "hasSubordinates", "FALSE"))
                .compareMatched());
    }

    @Test
    public void theSchemaEntryIsNotWritable() {
        for (LDAPResult r : List.of(
                LdapOutcome.of(() -> root.modify("cn=schema",
                        new Modification(ModificationType.ADD, "description", "x"))),
                LdapOutcome.of(() -> root.delete("cn=schema")),
                LdapOutcome.of(() -> root.modifyDN("cn=schema", "cn=schema2", true)))) {
            assertEquals(r.getResultCode(), ResultCode.UNWILLING_TO_PERFORM, r.toString());
        }
    }

    /** RFC 4525 3 and RFC 4526 2: features this server has are published. */
    @Test
    public void theRootDseListsIncrementAndAbsoluteFilters() throws Exception {
        List<String> features = Arrays.asList(root.getEntry("", "supportedFeatures")
                .getAttributeValues("supportedFeatures"));
        assertTrue(features.contains("1.3.6.1.1.14"), features.toString());
        assertTrue(features.contains("1.3.6.1.4.1.4203.1.5.3"), features.toString());
        assertEquals(root.search("dc=example,dc=com", SearchScope.BASE, "(&)").getEntryCount(), 1);
        assertEquals(root.search("dc=example,dc=com", SearchScope.BASE, "(|)").getEntryCount(), 0);
    }

    /** The refusal of an unknown mechanism names the mechanisms the root DSE lists, not one that is off. */
    @Test
    public void anUnknownSaslMechanismIsAnsweredWithTheEnabledOnes() throws Exception {
        String[] values = root.getEntry("", "supportedSASLMechanisms").getAttributeValues("supportedSASLMechanisms");
        List<String> listed = values == null ? List.of() : Arrays.asList(values);
        try (LDAPConnection c = server.connect()) {
            LDAPResult r = LdapOutcome.of(() -> c.bind(new GenericSASLBindRequest(null, "DIGEST-MD5", null)));
            assertEquals(r.getResultCode(), ResultCode.AUTH_METHOD_NOT_SUPPORTED);
            for (String mechanism : List.of("EXTERNAL", "PLAIN")) {
                assertEquals(r.getDiagnosticMessage().contains(mechanism), listed.contains(mechanism),
                        r.getDiagnosticMessage() + " against " + listed);
            }
        }
    }

    /** RFC 3062 2: a password is generated when newPasswd is absent; an empty one is refused, not replaced. */
    @Test
    public void anEmptyNewPasswordIsRefused() throws Exception {
        try (LDAPConnection user = server.bindAs(TestServer.user(2), TestServer.USER_PASSWORD)) {
            LDAPResult r = LdapOutcome.of(() -> user.processExtendedOperation(
                    new PasswordModifyExtendedRequest(null, TestServer.USER_PASSWORD, "")));
            assertEquals(r.getResultCode(), ResultCode.UNWILLING_TO_PERFORM, r.toString());
        }
        try (LDAPConnection again = server.bindAs(TestServer.user(2), TestServer.USER_PASSWORD)) {
            assertTrue(again.isConnected(), "the password did not change");
        }
    }

    /** RFC 2696: the page size is INTEGER (0..maxInt). */
    @Test
    public void aNegativePageSizeIsAProtocolError() throws Exception {
        SearchRequest search = new SearchRequest("dc=example,dc=com", SearchScope.SUB, "(objectClass=*)");
        // realSearchControlValue ::= SEQUENCE { size INTEGER, cookie OCTET STRING }: size -5, empty cookie.
        byte[] value = {0x30, 0x05, 0x02, 0x01, (byte) 0xFB, 0x04, 0x00};
        search.addControl(new Control(PAGED_RESULTS, true, new ASN1OctetString(value)));
        LDAPResult r = LdapOutcome.of(() -> root.search(search));
        assertEquals(r.getResultCode(), ResultCode.PROTOCOL_ERROR, r.toString());
    }
}
