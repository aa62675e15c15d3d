package io.bindfirst.it.bind;

import static org.testng.Assert.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;

import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;

import org.testng.annotations.AfterClass;
import org.testng.annotations.BeforeClass;

import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.Modification;
import com.unboundid.ldap.sdk.ModificationType;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.util.ssl.PEMFileTrustManager;

import io.bindfirst.it.support.ClientCertificates;
import io.bindfirst.it.support.TestServer;
import io.bindfirst.server.config.ServerConfig;
import io.bindfirst.server.config.ServerConfig.Tls.ClientCertificates.Mapping;
import io.bindfirst.server.config.ServerConfig.Tls.ClientCertificates.Policy;
import io.bindfirst.server.config.ServerConfig.Tls.ClientCertificates.Validation;

/**
 * A server that asks for client certificates from a test CA of its own, for the SASL EXTERNAL tests: each
 * subclass says how a certificate names its entry.
 */
abstract class SaslExternalServer {
    protected TestServer server;
    protected Path serverCa;
    protected Path work;
    protected ClientCertificates clientCa;

    /** {@code ds-cfg-certificate-mapping} for this server. */
    protected abstract Mapping mapping();

    /** Anything more this server needs. */
    protected ServerConfig configure(ServerConfig c) {
        return c;
    }

    @BeforeClass
    public void start() throws Exception {
        work = Files.createTempDirectory("sasl-external");
        clientCa = new ClientCertificates("Test client CA");
        Path trusted = work.resolve("client-ca.pem");
        Files.writeString(trusted, ClientCertificates.pem(clientCa.ca()));
        server = TestServer.start(10, c -> configure(c.withTls(c.tls().withClientCertificates(
                new ServerConfig.Tls.ClientCertificates(trusted, Policy.OPTIONAL, Validation.IF_PRESENT,
                        mapping())))));
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

    /** A TLS 1.3 context trusting the server's CA and presenting {@code client}'s certificate, if any. */
    protected SSLContext presenting(ClientCertificates.Issued client) throws Exception {
        SSLContext ctx = SSLContext.getInstance("TLSv1.3");
        ctx.init(client == null ? null : client.keyManagers(),
                new TrustManager[] {new PEMFileTrustManager(serverCa.toFile())}, null);
        return ctx;
    }

    protected LDAPConnection ldaps(ClientCertificates.Issued client) throws Exception {
        return new LDAPConnection(presenting(client).getSocketFactory(), "localhost", server.ldapsPort());
    }

    /** Adds the certificate to the entry's userCertificate, as the root user. */
    protected void give(String dn, ClientCertificates.Issued cert) throws Exception {
        try (LDAPConnection root = server.bindAs(TestServer.ROOT_DN, TestServer.ROOT_PASSWORD)) {
            assertEquals(root.modify(dn, new Modification(ModificationType.ADD, "userCertificate;binary",
                    cert.certificate().getEncoded())).getResultCode(), ResultCode.SUCCESS);
        }
    }
}
