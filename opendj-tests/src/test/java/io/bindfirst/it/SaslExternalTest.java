package io.bindfirst.it;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertTrue;
import static org.testng.Assert.expectThrows;

import java.nio.file.Files;
import java.nio.file.Path;

import javax.net.ssl.SSLContext;

import org.testng.annotations.AfterClass;
import org.testng.annotations.BeforeClass;
import org.testng.annotations.Test;

import com.unboundid.ldap.sdk.BindResult;
import com.unboundid.ldap.sdk.EXTERNALBindRequest;
import com.unboundid.ldap.sdk.ExtendedResult;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPConnectionOptions;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.Modification;
import com.unboundid.ldap.sdk.ModificationType;
import com.unboundid.ldap.sdk.PLAINBindRequest;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.extensions.StartTLSExtendedRequest;
import com.unboundid.ldap.sdk.extensions.WhoAmIExtendedRequest;
import com.unboundid.ldap.sdk.extensions.WhoAmIExtendedResult;
import com.unboundid.util.ssl.PEMFileTrustManager;

import io.bindfirst.server.config.ServerConfig;
import io.bindfirst.server.config.ServerConfig.Tls.ClientCertificates.Policy;
import io.bindfirst.server.config.ServerConfig.Tls.ClientCertificates.Validation;

/**
 * SASL EXTERNAL with a client certificate (RFC 4513 5.2.3): the certificate's subject names the entry, the
 * certificate must come from a configured CA, and an entry with userCertificate values must hold it.
 */
public class SaslExternalTest {
    private TestServer server;
    private Path serverCa;
    private Path work;
    private ClientCertificates clientCa;

    @BeforeClass
    public void start() throws Exception {
        LdapTools.require("ldapwhoami");
        work = Files.createTempDirectory("sasl-external");
        clientCa = new ClientCertificates("Test client CA");
        Path trusted = work.resolve("client-ca.pem");
        Files.writeString(trusted, ClientCertificates.pem(clientCa.ca()));
        server = TestServer.start(10, c -> c.withTls(c.tls().withClientCertificates(
                new ServerConfig.Tls.ClientCertificates(trusted, Policy.OPTIONAL, Validation.IF_PRESENT))));
        serverCa = server.instance().resolve("config/tls/ca.pem");
    }

    @AfterClass(alwaysRun = true)
    public void stop() throws Exception {
        if (server != null) {
            server.close();
        }
        if (work != null) {
            try (var files = Files.walk(work)) {
                files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    private SSLContext presenting(ClientCertificates.Issued client) throws Exception {
        SSLContext ctx = SSLContext.getInstance("TLSv1.3");
        ctx.init(client == null ? null : client.keyManagers(),
                new javax.net.ssl.TrustManager[] {new PEMFileTrustManager(serverCa.toFile())}, null);
        return ctx;
    }

    private LDAPConnection ldaps(ClientCertificates.Issued client) throws Exception {
        return new LDAPConnection(presenting(client).getSocketFactory(), new LDAPConnectionOptions(), "localhost",
                server.ldapsPort());
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
        try (LDAPConnection root = server.bindAs(TestServer.ROOT_DN, TestServer.ROOT_PASSWORD)) {
            assertEquals(root.modify(TestServer.user(5), new Modification(ModificationType.ADD,
                    "userCertificate;binary", held.certificate().getEncoded())).getResultCode(), ResultCode.SUCCESS);
        }
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
                    () -> c.bind(new PLAINBindRequest("dn:" + TestServer.user(1), TestServer.USER_PASSWORD)));
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
