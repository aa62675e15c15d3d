package io.bindfirst.it.tls;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertFalse;
import static org.testng.Assert.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.cert.Certificate;
import java.util.List;

import org.testng.annotations.Test;

import com.unboundid.ldap.sdk.ExtendedResult;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.extensions.StartTLSExtendedRequest;
import com.unboundid.util.ssl.SSLUtil;
import com.unboundid.util.ssl.TrustAllTrustManager;

import io.bindfirst.it.support.ForkedServer;
import io.bindfirst.it.support.TestServer;
import io.bindfirst.server.tls.LocalCertificateAuthority;

/**
 * bin/reload-tls's signal: with the periodic check off, renewed files are used by new connections once the server
 * gets SIGHUP, and not before; the server keeps running and established connections carry on.
 */
public class TlsReloadCommandTest {

    @Test
    public void aHangUpReadsRenewedFilesAtOnce() throws Exception {
        try (ForkedServer server = ForkedServer.start(10, List.of("-Xmx192m"),
                c -> c.set("cn=Default Key Manager,cn=Key Manager Providers,cn=config",
                        "ds-cfg-reload-check-interval", "0"))) {
            Path tls = server.instance().resolve("config/tls");
            Certificate before = presented(server.port());
            try (LDAPConnection established = connectWithStartTls(server.port())) {
                Path renewed = Files.createTempDirectory("renewed-");
                new LocalCertificateAuthority().create(renewed.resolve("server.pem"),
                        renewed.resolve("server-key.pem"), "renewed");
                Files.move(renewed.resolve("server-key.pem"), tls.resolve("server-key.pem"),
                        StandardCopyOption.REPLACE_EXISTING);
                Files.move(renewed.resolve("server.pem"), tls.resolve("server.pem"),
                        StandardCopyOption.REPLACE_EXISTING);
                TestServer.deleteTree(renewed);   // what the moves left (the CA's certificate)
                Thread.sleep(1_000);
                assertEquals(presented(server.port()), before, "no periodic check: the old certificate still");

                Process hup = new ProcessBuilder("kill", "-HUP", Long.toString(server.pid())).start();
                assertEquals(hup.waitFor(), 0);
                Certificate now = before;
                long deadline = System.nanoTime() + 10_000_000_000L;
                while (now.equals(before) && System.nanoTime() < deadline) {
                    Thread.sleep(50);
                    now = presented(server.port());
                }
                assertFalse(now.equals(before), "after SIGHUP a new connection gets the renewed certificate");
                assertTrue(server.isAlive(), "the signal reloads, it does not stop the server");
                assertEquals(established.processExtendedOperation(
                        new com.unboundid.ldap.sdk.extensions.WhoAmIExtendedRequest()).getResultCode(),
                        ResultCode.SUCCESS, "an established connection carries on");
            }
        }
    }

    private static LDAPConnection connectWithStartTls(int port) throws Exception {
        LDAPConnection c = new LDAPConnection("127.0.0.1", port);
        ExtendedResult r = c.processExtendedOperation(new StartTLSExtendedRequest(
                new SSLUtil(new TrustAllTrustManager()).createSSLContext("TLSv1.3")));
        assertEquals(r.getResultCode(), ResultCode.SUCCESS);
        return c;
    }

    /** The certificate a new StartTLS connection is shown (trusting anything: only which one counts here). */
    private static Certificate presented(int port) throws Exception {
        try (LDAPConnection c = connectWithStartTls(port)) {
            return c.getSSLSession().getPeerCertificates()[0];
        }
    }
}
