package io.bindfirst.it.tls;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertFalse;
import static org.testng.Assert.assertTrue;
import static org.testng.Assert.expectThrows;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;

import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;

import org.testng.annotations.AfterClass;
import org.testng.annotations.BeforeClass;
import org.testng.annotations.Test;

import com.unboundid.ldap.sdk.BindResult;
import com.unboundid.ldap.sdk.ExtendedResult;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPConnectionOptions;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.RootDSE;
import com.unboundid.ldap.sdk.extensions.StartTLSExtendedRequest;
import com.unboundid.ldap.sdk.extensions.WhoAmIExtendedRequest;
import com.unboundid.ldap.sdk.extensions.WhoAmIExtendedResult;
import com.unboundid.util.ssl.HostNameSSLSocketVerifier;
import com.unboundid.util.ssl.PEMFileTrustManager;
import com.unboundid.util.ssl.SSLUtil;

import io.bindfirst.it.support.TestServer;
import io.bindfirst.server.config.ServerConfig;

/**
 * LDAPS and StartTLS against the real server with the UnboundID SDK, trusting only the local CA a first start
 * creates (and checking the host name against it), as an application would.
 */
public class TlsTest {
    private TestServer server;
    private SSLContext trusting;

    @BeforeClass
    public void start() throws Exception {
        server = TestServer.start(20, c -> c
                .withTls(c.tls().withHandshakeTimeout(Duration.ofSeconds(1))
                        .withReloadCheckInterval(Duration.ofMillis(200)))
                .withSecurePasswordBinds(ServerConfig.SecurePasswordBinds.ALWAYS));
        Path ca = server.instance().resolve("config/tls/ca.pem");
        assertTrue(Files.exists(ca), "the first start creates the local CA");
        trusting = new SSLUtil(new PEMFileTrustManager(ca.toFile())).createSSLContext("TLSv1.3");
    }

    @AfterClass(alwaysRun = true)
    public void stop() {
        if (server != null) {
            server.close();
        }
    }

    private LDAPConnection ldaps() throws Exception {
        LDAPConnectionOptions o = new LDAPConnectionOptions();
        o.setSSLSocketVerifier(new HostNameSSLSocketVerifier(false));
        return new LDAPConnection(trusting.getSocketFactory(), o, "127.0.0.1", server.ldapsPort());
    }

    private LDAPConnection startTls() throws Exception {
        LDAPConnection c = server.connect();
        ExtendedResult r = c.processExtendedOperation(new StartTLSExtendedRequest(trusting));
        assertEquals(r.getResultCode(), ResultCode.SUCCESS, r.toString());
        assertEquals(r.getOID(), StartTLSExtendedRequest.STARTTLS_REQUEST_OID);
        return c;
    }

    @Test
    public void ldapsBindsAndSaysWhoAmI() throws Exception {
        try (LDAPConnection c = ldaps()) {
            assertEquals(c.bind(TestServer.user(1), TestServer.USER_PASSWORD).getResultCode(), ResultCode.SUCCESS);
            WhoAmIExtendedResult who = (WhoAmIExtendedResult) c.processExtendedOperation(new WhoAmIExtendedRequest());
            assertEquals(who.getAuthorizationID(), "dn:" + TestServer.user(1));
        }
    }

    @Test
    public void startTlsThenBind() throws Exception {
        try (LDAPConnection c = startTls()) {
            assertEquals(c.bind(TestServer.user(2), TestServer.USER_PASSWORD).getResultCode(), ResultCode.SUCCESS);
            assertEquals(c.getRootDSE().getVendorName(), "bindfirst project", "searches work over the TLS layer");
        }
    }

    @Test
    public void rootDseListsStartTls() throws Exception {
        try (LDAPConnection c = server.connect()) {
            RootDSE dse = c.getRootDSE();
            assertTrue(dse.supportsExtendedOperation(StartTLSExtendedRequest.STARTTLS_REQUEST_OID));
            assertTrue(dse.supportsExtendedOperation("1.3.6.1.4.1.4203.1.11.1"), "Password Modify");
        }
    }

    @Test
    public void aSecondStartTlsIsOperationsError() throws Exception {
        try (LDAPConnection c = startTls()) {
            ExtendedResult again = c.processExtendedOperation(
                    new com.unboundid.ldap.sdk.ExtendedRequest(StartTLSExtendedRequest.STARTTLS_REQUEST_OID));
            assertEquals(again.getResultCode(), ResultCode.OPERATIONS_ERROR, again.toString());
            assertEquals(c.bind(TestServer.user(3), TestServer.USER_PASSWORD).getResultCode(), ResultCode.SUCCESS,
                    "the TLS session carries on");
        }
    }

    @Test
    public void startTlsOnLdapsIsOperationsError() throws Exception {
        try (LDAPConnection c = ldaps()) {
            ExtendedResult r = c.processExtendedOperation(
                    new com.unboundid.ldap.sdk.ExtendedRequest(StartTLSExtendedRequest.STARTTLS_REQUEST_OID));
            assertEquals(r.getResultCode(), ResultCode.OPERATIONS_ERROR, r.toString());
        }
    }

    @Test
    public void startTlsWithAValueIsProtocolError() throws Exception {
        try (LDAPConnection c = server.connect()) {
            ExtendedResult r = c.processExtendedOperation(new com.unboundid.ldap.sdk.ExtendedRequest(
                    StartTLSExtendedRequest.STARTTLS_REQUEST_OID, new com.unboundid.asn1.ASN1OctetString("x")));
            assertEquals(r.getResultCode(), ResultCode.PROTOCOL_ERROR, r.toString());
            assertEquals(c.getRootDSE().getVendorName(), "bindfirst project", "the connection stays in clear");
        }
    }

    /** ds-cfg-require-secure-password-binds: all-clients (this server's setting). */
    @Test
    public void aPasswordBindInClearIsConfidentialityRequired() throws Exception {
        try (LDAPConnection c = server.connect()) {
            LDAPException e = expectThrows(LDAPException.class,
                    () -> c.bind(TestServer.user(4), TestServer.USER_PASSWORD));
            assertEquals(e.getResultCode(), ResultCode.CONFIDENTIALITY_REQUIRED);
            e = expectThrows(LDAPException.class, () -> c.bind(TestServer.user(4), "a wrong password"));
            assertEquals(e.getResultCode(), ResultCode.CONFIDENTIALITY_REQUIRED, "says nothing about the password");
            BindResult anonymous = c.bind("", "");
            assertEquals(anonymous.getResultCode(), ResultCode.SUCCESS, "anonymous binds carry no password");
        }
    }

    @Test
    public void theDefaultLetsLoopbackClientsBindInClear() throws Exception {
        try (TestServer defaults = TestServer.start(3);
             LDAPConnection c = defaults.connect()) {
            assertEquals(c.bind(TestServer.user(1), TestServer.USER_PASSWORD).getResultCode(), ResultCode.SUCCESS);
        }
    }

    @Test
    public void aClientThatNeverFinishesItsHandshakeIsClosed() throws Exception {
        for (byte[] sent : new byte[][] {new byte[0], {0x16, 0x03, 0x01, 0x02, 0x00, 0x01}}) {
            try (Socket s = new Socket("127.0.0.1", server.ldapsPort())) {
                s.setSoTimeout(15_000);
                OutputStream out = s.getOutputStream();
                out.write(sent);
                out.flush();
                long t0 = System.nanoTime();
                assertEquals(readUntilClosed(s.getInputStream()), -1);
                long ms = (System.nanoTime() - t0) / 1_000_000;
                assertTrue(ms < 10_000, "closed by the 1 s handshake timeout, not the read timeout: " + ms + " ms");
            }
        }
        // The same after StartTLS: the client says StartTLS and then nothing.
        try (LDAPConnection c = server.connect()) {
            ExtendedResult r = c.processExtendedOperation(
                    new com.unboundid.ldap.sdk.ExtendedRequest(StartTLSExtendedRequest.STARTTLS_REQUEST_OID));
            assertEquals(r.getResultCode(), ResultCode.SUCCESS);
            long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
            while (c.isConnected() && System.nanoTime() < deadline) {
                Thread.sleep(50);
            }
            assertFalse(c.isConnected(), "closed by the handshake timeout");
        }
    }

    private static int readUntilClosed(InputStream in) throws Exception {
        try {
            // A TLS alert may come first; the end of the stream is what counts.
            while (in.read() >= 0) {
                continue;
            }
            return -1;
        } catch (SocketException reset) {
            return -1;
        }
    }

    @Test
    public void garbageOnTheLdapsPortHarmsNoOne() throws Exception {
        try (LDAPConnection bound = ldaps()) {
            bound.bind(TestServer.user(5), TestServer.USER_PASSWORD);
            SecureRandom random = new SecureRandom();
            for (int i = 0; i < 20; i++) {
                try (Socket s = new Socket("127.0.0.1", server.ldapsPort())) {
                    s.setSoTimeout(5_000);
                    byte[] junk = new byte[1 + random.nextInt(4096)];
                    random.nextBytes(junk);
                    if (i % 2 == 0) {
                        junk[0] = 0x16; // looks like a handshake record
                    }
                    s.getOutputStream().write(junk);
                    assertEquals(readUntilClosed(s.getInputStream()), -1, "the server closes it");
                } catch (SocketException reset) {
                    // closed while we wrote: as good
                }
            }
            assertEquals(bound.processExtendedOperation(new WhoAmIExtendedRequest()).getResultCode(),
                    ResultCode.SUCCESS, "an established TLS connection carries on");
            try (LDAPConnection fresh = ldaps()) {
                assertEquals(fresh.bind(TestServer.user(6), TestServer.USER_PASSWORD).getResultCode(),
                        ResultCode.SUCCESS);
            }
        }
    }

    /**
     * New files under the configured names: new connections get the new certificate within the check interval,
     * with no restart, and a connection made before carries on. Runs last: it changes the server's certificate.
     */
    @Test(priority = 1)
    public void aRenewedCertificateReachesNewConnectionsAndOldOnesCarryOn() throws Exception {
        Path tls = server.instance().resolve("config/tls");
        java.security.cert.Certificate before = presented();
        try (LDAPConnection established = ldaps()) {
            established.bind(TestServer.user(7), TestServer.USER_PASSWORD);
            Path renewed = Files.createTempDirectory("renewed-");
            new io.bindfirst.server.tls.LocalCertificateAuthority().create(renewed.resolve("server.pem"),
                    renewed.resolve("server-key.pem"), "renewed");
            // As an operator would: each new file moved over the old one.
            Files.move(renewed.resolve("server-key.pem"), tls.resolve("server-key.pem"),
                    java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            Files.move(renewed.resolve("server.pem"), tls.resolve("server.pem"),
                    java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            TestServer.deleteTree(renewed);   // what the moves left (the CA's certificate)
            long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
            java.security.cert.Certificate now = presented();
            while (now.equals(before) && System.nanoTime() < deadline) {
                Thread.sleep(100);
                now = presented();
            }
            assertFalse(now.equals(before), "a new connection gets the renewed certificate");
            assertEquals(established.processExtendedOperation(new WhoAmIExtendedRequest()).getResultCode(),
                    ResultCode.SUCCESS, "the established connection carries on");
        }
    }

    /** The certificate a new LDAPS connection is shown (trusting anything: only which one counts here). */
    private java.security.cert.Certificate presented() throws Exception {
        SSLContext any = new SSLUtil(new com.unboundid.util.ssl.TrustAllTrustManager()).createSSLContext("TLSv1.3");
        try (SSLSocket s = (SSLSocket) any.getSocketFactory().createSocket("127.0.0.1", server.ldapsPort())) {
            s.startHandshake();
            return s.getSession().getPeerCertificates()[0];
        }
    }

    @Test
    public void tls12AndTls13AreNegotiated() throws Exception {
        for (String protocol : new String[] {"TLSv1.2", "TLSv1.3"}) {
            SSLContext ctx = new SSLUtil(new PEMFileTrustManager(
                    server.instance().resolve("config/tls/ca.pem").toFile())).createSSLContext(protocol);
            try (SSLSocket s = (SSLSocket) ctx.getSocketFactory().createSocket("127.0.0.1", server.ldapsPort())) {
                s.setEnabledProtocols(new String[] {protocol});
                s.startHandshake();
                assertEquals(s.getSession().getProtocol(), protocol);
            }
        }
    }
}
