package io.bindfirst.it.conformance;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertNotNull;
import static org.testng.Assert.assertNull;
import static org.testng.Assert.assertTrue;

import java.security.KeyPairGenerator;
import java.util.Arrays;
import java.util.List;

import org.testng.annotations.AfterClass;
import org.testng.annotations.BeforeClass;
import org.testng.annotations.Test;

import com.unboundid.ldap.sdk.Attribute;
import com.unboundid.ldap.sdk.CompareRequest;
import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.Filter;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.LDAPResult;
import com.unboundid.ldap.sdk.Modification;
import com.unboundid.ldap.sdk.ModificationType;
import com.unboundid.ldap.sdk.ModifyDNRequest;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.SearchScope;
import com.unboundid.ldap.sdk.schema.AttributeTypeDefinition;
import com.unboundid.ldap.sdk.schema.Schema;
import com.unboundid.util.ssl.cert.SignatureAlgorithmIdentifier;
import com.unboundid.util.ssl.cert.X509Certificate;

import io.bindfirst.it.support.LdapOutcome;
import io.bindfirst.it.support.TestServer;

/**
 * Writes where a side-by-side run against slapd 2.5 and OpenDJ 5.0.3 found this server out of step with both, or with
 * the RFC (2026-11-29): the result codes, matched DNs and stored values those servers and RFC 4511/4512 give.
 */
public class WriteConformanceTest {
    private static final String BASE = "ou=conformance,dc=example,dc=com";
    private TestServer server;
    private LDAPConnection root;

    @BeforeClass
    public void start() throws Exception {
        server = TestServer.start(5);
        root = server.bindAs(TestServer.ROOT_DN, TestServer.ROOT_PASSWORD);
        root.add(BASE, new Attribute("objectClass", "top", "organizationalUnit"), new Attribute("ou", "conformance"));
    }

    @AfterClass(alwaysRun = true)
    public void stop() {
        root.close();
        server.close();
    }


    private void addPerson(String cn) throws LDAPException {
        root.add("cn=" + cn + "," + BASE, new Attribute("objectClass", "top", "person"), new Attribute("cn", cn),
                new Attribute("sn", "x"));
    }

    /**
     * RFC 4522 2: ";binary" belongs to the syntaxes whose values are BER (certificates); on another type the
     * description is unrecognized, undefinedAttributeType on slapd and OpenDJ. It was stored.
     */
    @Test
    public void theBinaryOptionIsOnlyForBerEncodedSyntaxes() throws Exception {
        String dn = "uid=binary," + BASE;
        root.add(dn, new Attribute("objectClass", "top", "person", "organizationalPerson", "inetOrgPerson"),
                new Attribute("uid", "binary"), new Attribute("cn", "b"), new Attribute("sn", "b"));
        LDAPResult onAdd = LdapOutcome.of(() -> root.add("uid=binary2," + BASE,
                new Attribute("objectClass", "top", "person", "organizationalPerson", "inetOrgPerson"),
                new Attribute("uid", "binary2"), new Attribute("cn", "b"), new Attribute("sn", "b"),
                new Attribute("description;binary", "x")));
        assertEquals(onAdd.getResultCode(), ResultCode.UNDEFINED_ATTRIBUTE_TYPE, onAdd.getDiagnosticMessage());
        assertTrue(onAdd.getDiagnosticMessage().contains("leave out ';binary'"), onAdd.getDiagnosticMessage());
        LDAPResult onModify = LdapOutcome.of(() -> root.modify(dn,
                new Modification(ModificationType.ADD, "description;binary", "x")));
        assertEquals(onModify.getResultCode(), ResultCode.UNDEFINED_ATTRIBUTE_TYPE, onModify.getDiagnosticMessage());
        assertNull(root.getEntry(dn).getAttribute("description;binary"));
    }

    /**
     * RFC 4523 2.1: a userCertificate value is an X.509 certificate; slapd and OpenDJ refuse one that does not parse
     * (invalidAttributeSyntax). It was stored, whatever its bytes.
     */
    @Test
    public void aUserCertificateMustParseAsACertificate() throws Exception {
        String dn = "uid=certificate," + BASE;
        root.add(dn, new Attribute("objectClass", "top", "person", "organizationalPerson", "inetOrgPerson"),
                new Attribute("uid", "certificate"), new Attribute("cn", "c"), new Attribute("sn", "c"));
        KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
        generator.initialize(256);
        long now = System.currentTimeMillis();
        byte[] certificate = X509Certificate.generateSelfSignedCertificate(
                SignatureAlgorithmIdentifier.SHA_256_WITH_ECDSA, generator.generateKeyPair(), new DN("cn=certificate"),
                now, now + 86_400_000L).getX509CertificateBytes();
        root.modify(dn, new Modification(ModificationType.ADD, "userCertificate;binary", certificate));
        assertEquals(root.getEntry(dn, "userCertificate").getAttributeValueBytes("userCertificate;binary"),
                certificate, "a certificate takes the option");
        LDAPResult notACertificate = LdapOutcome.of(() -> root.modify(dn,
                new Modification(ModificationType.ADD, "userCertificate;binary", new byte[] {0x30, 0x03, 1, 2, 3})));
        assertEquals(notACertificate.getResultCode(), ResultCode.INVALID_ATTRIBUTE_SYNTAX,
                "a certificate is parsed (slapd and OpenDJ alike): " + notACertificate.getDiagnosticMessage());
    }

    /** RFC 4512 4.1.2: a rename must not set an attribute the server maintains (it went through, stored). */
    @Test
    public void aRenameCannotSetAServerMaintainedAttribute() throws Exception {
        addPerson("r1");
        for (String rdn : List.of("pwdChangedTime=20200101000000Z", "modifiersName=cn=forged",
                "entryUUID=00000000-0000-0000-0000-000000000000", "createTimestamp=20200101000000Z")) {
            LDAPResult r = LdapOutcome.of(() -> root.modifyDN("cn=r1," + BASE, rdn, false));
            assertEquals(r.getResultCode(), ResultCode.CONSTRAINT_VIOLATION, rdn + ": " + r.getDiagnosticMessage());
            assertTrue(r.getDiagnosticMessage().contains("set by the server"), r.getDiagnosticMessage());
        }
        var entry = root.getEntry("cn=r1," + BASE, "*", "+");
        assertNotNull(entry, "the entry keeps its name");
        assertNull(entry.getAttribute("pwdChangedTime"));
        // A user attribute still names an entry.
        root.modifyDN("cn=r1," + BASE, "sn=x", false);
        assertNotNull(root.getEntry("sn=x," + BASE));
    }

    @Test
    public void anAddCannotBeNamedByAServerMaintainedAttribute() {
        LDAPResult r = LdapOutcome.of(() -> root.add("pwdChangedTime=20200101000000Z," + BASE,
                new Attribute("objectClass", "top", "extensibleObject")));
        assertEquals(r.getResultCode(), ResultCode.CONSTRAINT_VIOLATION, r.getDiagnosticMessage());
    }

    /** RFC 4511 4.1.9: noSuchObject names the last entry found on the way to the target. */
    @Test
    public void noSuchObjectCarriesTheMatchedDn() {
        String missing = "cn=nobody,ou=nowhere," + BASE;
        List<LDAPResult> results = List.of(
                LdapOutcome.of(() -> root.delete(missing)),
                LdapOutcome.of(() -> root.modify(missing, new Modification(ModificationType.REPLACE, "sn", "y"))),
                LdapOutcome.of(() -> root.modifyDN(missing, "cn=other", true)),
                LdapOutcome.of(() -> root.add(missing, new Attribute("objectClass", "top", "person"),
                        new Attribute("cn", "nobody"), new Attribute("sn", "x"))),
                LdapOutcome.of(() -> root.compare(new CompareRequest(missing, "sn", "x"))));
        for (LDAPResult r : results) {
            assertEquals(r.getResultCode(), ResultCode.NO_SUCH_OBJECT, r.toString());
            assertEquals(r.getMatchedDN(), BASE, r.toString());
        }
    }

    /** RFC 4512 3.3: the superclasses of the classes named are implicitly added, and filters and compares see them. */
    @Test
    public void superclassesAreImplied() throws Exception {
        String dn = "cn=implied," + BASE;
        root.add(dn, new Attribute("objectClass", "inetOrgPerson"), new Attribute("cn", "implied"),
                new Attribute("sn", "x"));
        List<String> classes = Arrays.asList(root.getEntry(dn, "objectClass").getAttributeValues("objectClass"));
        assertEquals(classes, List.of("inetOrgPerson", "organizationalPerson", "person", "top"));
        assertEquals(root.search(BASE, SearchScope.ONE, Filter.createANDFilter(
                Filter.createEqualityFilter("objectClass", "person"), Filter.createEqualityFilter("cn", "implied")))
                .getEntryCount(), 1);
        assertTrue(root.compare(new CompareRequest(dn, "objectClass", "person")).compareMatched());

        // Adding a class by modify brings its superclasses too.
        addPerson("grows");
        root.modify("cn=grows," + BASE, new Modification(ModificationType.ADD, "objectClass", "inetOrgPerson"));
        List<String> grown = Arrays.asList(root.getEntry("cn=grows," + BASE, "objectClass")
                .getAttributeValues("objectClass"));
        assertTrue(grown.contains("organizationalPerson"), grown.toString());
    }

    /** hasSubordinates holds TRUE or FALSE: the SDK's built-in definition gave it the Integer syntax. */
    @Test
    public void hasSubordinatesIsBoolean() throws Exception {
        AttributeTypeDefinition type = Schema.getSchema(root).getAttributeType("hasSubordinates");
        assertEquals(type.getSyntaxOID(), "1.3.6.1.4.1.1466.115.121.1.7");
    }

    @Test
    public void theRootDseIsNotWritable() {
        LDAPResult delete = LdapOutcome.of(() -> root.delete(""));
        assertEquals(delete.getResultCode(), ResultCode.UNWILLING_TO_PERFORM, delete.toString());
        LDAPResult modify = LdapOutcome.of(() -> root.modify("", new Modification(ModificationType.REPLACE,
                "description", "x")));
        assertEquals(modify.getResultCode(), ResultCode.UNWILLING_TO_PERFORM, modify.toString());
    }

    /** RFC 4511 4.1.7: an attribute's values are a set; a request that repeats one is refused, not merged. */
    @Test
    public void aValueListedTwiceIsRefused() throws Exception {
        LDAPResult add = LdapOutcome.of(() -> root.add("cn=twice," + BASE,
                new Attribute("objectClass", "top", "person"),
                new Attribute("cn", "twice"), new Attribute("sn", "a", "A")));
        assertEquals(add.getResultCode(), ResultCode.ATTRIBUTE_OR_VALUE_EXISTS, add.toString());
        assertTrue(add.getDiagnosticMessage().contains("sn"), add.getDiagnosticMessage());
        assertNull(root.getEntry("cn=twice," + BASE));
        addPerson("once");
        for (ModificationType type : List.of(ModificationType.ADD, ModificationType.REPLACE)) {
            LDAPResult modify = LdapOutcome.of(() -> root.modify("cn=once," + BASE,
                    new Modification(type, "description", "x", "X")));
            assertEquals(modify.getResultCode(), ResultCode.ATTRIBUTE_OR_VALUE_EXISTS, type + ": " + modify);
        }
        assertNull(root.getEntry("cn=once," + BASE, "description").getAttribute("description"));
        // Distinct values, and one attribute listed twice with different values, are fine.
        root.modify("cn=once," + BASE, new Modification(ModificationType.ADD, "description", "x", "y"));
        root.add("cn=split," + BASE, new Attribute("objectClass", "top", "person"), new Attribute("cn", "split"),
                new Attribute("sn", "a"), new Attribute("sn", "b"));
        assertEquals(root.getEntry("cn=split," + BASE, "sn").getAttributeValues("sn").length, 2);
    }

    /** A rename that changes only the case of the RDN's value stores the new spelling, as slapd and OpenDJ do. */
    @Test
    public void aCaseOnlyRenameStoresTheNewSpelling() throws Exception {
        addPerson("caseonly");
        root.modifyDN("cn=caseonly," + BASE, "cn=CaseOnly", true);
        assertEquals(Arrays.asList(root.getEntry("cn=CaseOnly," + BASE, "cn").getAttributeValues("cn")),
                List.of("CaseOnly"));
    }

    @Test
    public void aRenameOfAMissingEntryUnderAnExistingParent() {
        LDAPResult r = LdapOutcome.of(() -> root.processOperation(
                new ModifyDNRequest("cn=gone," + BASE, "cn=g2", true)));
        assertEquals(r.getResultCode(), ResultCode.NO_SUCH_OBJECT);
        assertEquals(r.getMatchedDN(), BASE);
    }
}
