package io.bindfirst.it.bind;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertTrue;
import static org.testng.Assert.expectThrows;

import java.nio.file.Path;


import org.testng.annotations.BeforeClass;
import org.testng.annotations.Test;

import com.unboundid.ldap.sdk.BindResult;
import com.unboundid.ldap.sdk.EXTERNALBindRequest;
import com.unboundid.ldap.sdk.ExtendedResult;
import com.unboundid.ldap.sdk.GenericSASLBindRequest;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.extensions.StartTLSExtendedRequest;
import com.unboundid.ldap.sdk.extensions.WhoAmIExtendedRequest;
import com.unboundid.ldap.sdk.extensions.WhoAmIExtendedResult;


import io.bindfirst.it.support.ClientCertificates;
import io.bindfirst.it.support.LdapTools;
import io.bindfirst.it.support.TestServer;
import io.bindfirst.server.config.ServerConfig.Tls.ClientCertificates.Mapping;

/**
 * SASL EXTERNAL with a client certificate (RFC 4513 5.2.3): the certificate's subject names the entry, the
 * certificate must come from a configured CA, and an entry with userCertificate values must hold it.
 */
public class SaslExternalTest extends SaslExternalServer {
    @Override
    protected Mapping mapping() {
        return Mapping.SUBJECT_EQUALS_DN;
    }

    @BeforeClass
    public void tools() {
        LdapTools.require("ldapwhoami");
    }

    @Test
    public void aCertificateWhoseSubjectIsAnEntryBindsAsIt() throws Exception {
        ClientCertificates.Issued user = clientCa.issue(TestServer.user(1));
        try (LDAPConnection c = ldaps(user)) {
            BindResult r = c.bind(new EXTERNALBindRequest());
            assertEquals(r.getResultCode(), ResultCode.SUCCESS);
            WhoAmIExtendedResult who = (WhoAmIExtendedResult) c.processExtendedOperation(new WhoAmIExtendedRequest());
            assertEquals(who.getAuthorizationID(), "dn:" + TestServer.user(1));
        }
        // The same after StartTLS, and with the entry's own DN as the authorization identity.
        try (LDAPConnection c = server.connect()) {
            ExtendedResult tls = c.processExtendedOperation(new StartTLSExtendedRequest(presenting(user)));
            assertEquals(tls.getResultCode(), ResultCode.SUCCESS);
            assertEquals(c.bind(new EXTERNALBindRequest("dn:" + TestServer.user(1))).getResultCode(),
                    ResultCode.SUCCESS);
        }
    }

    @Test
    public void withoutACertificateItIsInappropriateAuthentication() throws Exception {
        try (LDAPConnection c = ldaps(null)) {
            LDAPException e = expectThrows(LDAPException.class, () -> c.bind(new EXTERNALBindRequest()));
            assertEquals(e.getResultCode(), ResultCode.INAPPROPRIATE_AUTHENTICATION, e.getMessage());
        }
        try (LDAPConnection c = server.connect()) {
            LDAPException e = expectThrows(LDAPException.class, () -> c.bind(new EXTERNALBindRequest()));
            assertEquals(e.getResultCode(), ResultCode.INAPPROPRIATE_AUTHENTICATION, "no TLS at all");
        }
    }

    @Test
    public void aSubjectThatIsNoEntryOrAnotherAuthzIdIsInvalidCredentials() throws Exception {
        try (LDAPConnection c = ldaps(clientCa.issue("uid=nobody,ou=People,dc=example,dc=com"))) {
            LDAPException e = expectThrows(LDAPException.class, () -> c.bind(new EXTERNALBindRequest()));
            assertEquals(e.getResultCode(), ResultCode.INVALID_CREDENTIALS);
            WhoAmIExtendedResult who = (WhoAmIExtendedResult) c.processExtendedOperation(new WhoAmIExtendedRequest());
            assertEquals(who.getAuthorizationID(), "", "still anonymous");
        }
        try (LDAPConnection c = ldaps(clientCa.issue(TestServer.user(2)))) {
            LDAPException e = expectThrows(LDAPException.class,
                    () -> c.bind(new EXTERNALBindRequest("dn:" + TestServer.user(3))));
            assertEquals(e.getResultCode(), ResultCode.INVALID_CREDENTIALS, "acting as another is not supported");
        }
    }

    /** The client sends it although the server named other CAs: the server refuses it in the handshake. */
    @Test
    public void aCertificateFromAnotherCaIsRefusedInTheHandshake() throws Exception {
        ClientCertificates stranger = new ClientCertificates("Unknown CA");
        LDAPException e = expectThrows(LDAPException.class, () -> {
            try (LDAPConnection c = ldaps(stranger.issue(TestServer.user(4)))) {
                c.bind(new EXTERNALBindRequest());
            }
        });
        assertTrue(e.getResultCode() == ResultCode.CONNECT_ERROR || e.getResultCode() == ResultCode.SERVER_DOWN,
                e.toString());
    }

    /** With userCertificate values, the entry accepts only the certificates it holds (ifpresent). */
    @Test
    public void anEntryWithCertificatesAcceptsOnlyThose() throws Exception {
        ClientCertificates.Issued held = clientCa.issue(TestServer.user(5));
        ClientCertificates.Issued other = clientCa.issue(TestServer.user(5));
        give(TestServer.user(5), held);
        try (LDAPConnection c = ldaps(other)) {
            LDAPException e = expectThrows(LDAPException.class, () -> c.bind(new EXTERNALBindRequest()));
            assertEquals(e.getResultCode(), ResultCode.INVALID_CREDENTIALS);
        }
        try (LDAPConnection c = ldaps(held)) {
            assertEquals(c.bind(new EXTERNALBindRequest()).getResultCode(), ResultCode.SUCCESS);
        }
    }

    @Test
    public void theRootDseOffersExternalAndOtherMechanismsAreNotSupported() throws Exception {
        try (LDAPConnection c = ldaps(null)) {
            assertTrue(c.getRootDSE().supportsSASLMechanism("EXTERNAL"));
            LDAPException e = expectThrows(LDAPException.class,
                    () -> c.bind(new GenericSASLBindRequest(null, "CRAM-MD5", null)));
            assertEquals(e.getResultCode(), ResultCode.AUTH_METHOD_NOT_SUPPORTED);
        }
    }

    /** OpenLDAP's client (GnuTLS on Debian) with LDAPTLS_CERT and LDAPTLS_KEY, as a user would. */
    @Test
    public void ldapwhoamiWithYExternal() throws Exception {
        ClientCertificates.Issued user = clientCa.issue(TestServer.user(6));
        Path cert = work.resolve("user6.pem");
        Path key = work.resolve("user6-key.pem");
        user.writePem(cert, key);
        LdapTools.Run r = LdapTools.runWithCertificate(serverCa, cert, key, "ldapwhoami", "-Y", "EXTERNAL", "-H",
                "ldaps://127.0.0.1:" + server.ldapsPort());
        assertEquals(r.exit(), 0, r.output());
        assertTrue(r.output().contains("dn:" + TestServer.user(6)), r.output());
    }
}
