package io.bindfirst.it.bind;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.expectThrows;

import java.nio.file.Path;

import javax.net.ssl.SSLContext;

import org.testng.annotations.AfterClass;
import org.testng.annotations.BeforeClass;
import org.testng.annotations.Test;

import com.unboundid.ldap.sdk.ExtendedResult;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPConnectionOptions;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.PLAINBindRequest;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.extensions.StartTLSExtendedRequest;
import com.unboundid.ldap.sdk.extensions.WhoAmIExtendedRequest;
import com.unboundid.ldap.sdk.extensions.WhoAmIExtendedResult;
import com.unboundid.util.ssl.HostNameSSLSocketVerifier;
import com.unboundid.util.ssl.PEMFileTrustManager;
import com.unboundid.util.ssl.SSLUtil;

import io.bindfirst.it.support.TestServer;
import io.bindfirst.server.config.ServerConfig;

/**
 * SASL PLAIN carries a password, so {@code ds-cfg-require-secure-password-binds} applies to it as to a simple
 * bind. This server says all-clients, which makes a loopback client stand for any client the shipped setting
 * (non-loopback-clients) covers: PLAIN works over LDAPS and StartTLS and is refused in clear, right password or
 * wrong.
 */
public class SaslPlainTlsTest {
    private TestServer server;
    private SSLContext trusting;

    @BeforeClass
    public void start() throws Exception {
        server = TestServer.start(5, c -> c.withSecurePasswordBinds(ServerConfig.SecurePasswordBinds.ALWAYS));
        Path ca = server.instance().resolve("config/tls/ca.pem");
        trusting = new SSLUtil(new PEMFileTrustManager(ca.toFile())).createSSLContext("TLSv1.3");
    }

    @AfterClass(alwaysRun = true)
    public void stop() {
        if (server != null) {
            server.close();
        }
    }

    private static String whoAmI(LDAPConnection c) throws LDAPException {
        return ((WhoAmIExtendedResult) c.processExtendedOperation(new WhoAmIExtendedRequest())).getAuthorizationID();
    }

    @Test
    public void plainOverLdaps() throws Exception {
        LDAPConnectionOptions o = new LDAPConnectionOptions();
        o.setSSLSocketVerifier(new HostNameSSLSocketVerifier(false));
        try (LDAPConnection c = new LDAPConnection(trusting.getSocketFactory(), o, "127.0.0.1", server.ldapsPort())) {
            assertEquals(c.bind(new PLAINBindRequest("u:user.1", "password")).getResultCode(), ResultCode.SUCCESS);
            assertEquals(whoAmI(c), "dn:" + TestServer.user(1));
        }
    }

    @Test
    public void plainAfterStartTls() throws Exception {
        try (LDAPConnection c = server.connect()) {
            ExtendedResult r = c.processExtendedOperation(new StartTLSExtendedRequest(trusting));
            assertEquals(r.getResultCode(), ResultCode.SUCCESS, r.toString());
            assertEquals(c.bind(new PLAINBindRequest("dn:" + TestServer.user(2), "password")).getResultCode(),
                    ResultCode.SUCCESS);
            assertEquals(whoAmI(c), "dn:" + TestServer.user(2));
        }
    }

    @Test
    public void plainInClearIsRefusedWhateverThePassword() throws Exception {
        try (LDAPConnection c = server.connect()) {
            for (String password : new String[] {"password", "a wrong password"}) {
                LDAPException e = expectThrows(LDAPException.class,
                        () -> c.bind(new PLAINBindRequest("u:user.3", password)));
                assertEquals(e.getResultCode(), ResultCode.CONFIDENTIALITY_REQUIRED, password);
            }
            assertEquals(whoAmI(c), "");
        }
    }
}
