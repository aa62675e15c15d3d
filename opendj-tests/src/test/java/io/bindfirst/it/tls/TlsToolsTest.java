package io.bindfirst.it.tls;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertFalse;
import static org.testng.Assert.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;

import org.testng.annotations.AfterClass;
import org.testng.annotations.BeforeClass;
import org.testng.annotations.Test;

import io.bindfirst.it.support.LdapTools;
import io.bindfirst.it.support.TestServer;
import io.bindfirst.server.config.ServerConfig;

/**
 * TLS as docs/OPERATIONS.md shows it, with OpenLDAP's tools (GnuTLS on Debian) and {@code openssl s_client},
 * trusting the local CA a first start creates: StartTLS ({@code -ZZ}) and LDAPS, the host name checked against the
 * certificate; TLS 1.3 and 1.2 accepted, 1.1 refused. Skipped without the tools, except under CI.
 */
public class TlsToolsTest {
    private static final String USER = TestServer.user(1);
    /** An LDAP anonymous simple bind request, message 1, as printf escapes. */
    private static final String ANONYMOUS_BIND =
            "\\x30\\x0c\\x02\\x01\\x01\\x60\\x07\\x02\\x01\\x03\\x04\\x00\\x80\\x00";

    private TestServer server;
    private Path ca;

    @BeforeClass
    public void start() throws Exception {
        LdapTools.require("ldapwhoami", "openssl");
        server = TestServer.start(10, c -> c.withTls(c.tls().withProvider(provider())));
        ca = server.instance().resolve("config/tls/ca.pem");
    }

    /** Whose TLS the server uses: the same tests run with each ({@link TlsToolsConscryptTest}). */
    protected ServerConfig.Tls.Provider provider() {
        return ServerConfig.Tls.Provider.JDK;
    }

    @AfterClass(alwaysRun = true)
    public void stop() {
        if (server != null) {
            server.close();
        }
    }

    @Test
    public void ldapwhoamiWithStartTls() throws Exception {
        LdapTools.Run r = LdapTools.runTrusting(ca, "ldapwhoami", "-ZZ", "-x", "-H",
                "ldap://127.0.0.1:" + server.port(), "-D", USER, "-w", TestServer.USER_PASSWORD);
        assertEquals(r.exit(), 0, r.output());
        assertEquals(r.output().trim(), "dn:" + USER);
    }

    @Test
    public void ldapwhoamiOverLdaps() throws Exception {
        LdapTools.Run r = LdapTools.runTrusting(ca, "ldapwhoami", "-x", "-H",
                "ldaps://127.0.0.1:" + server.ldapsPort(), "-D", USER, "-w", TestServer.USER_PASSWORD);
        assertEquals(r.exit(), 0, r.output());
        assertEquals(r.output().trim(), "dn:" + USER);
    }

    @Test
    public void anUntrustedServerIsRefusedByTheClient() throws Exception {
        // Another CA than the server's: the tool must refuse, or the trust test above proves nothing.
        Path other = Files.createTempFile("other-ca", ".pem");
        try (TestServer another = TestServer.start(1)) {
            Files.copy(another.instance().resolve("config/tls/ca.pem"), other,
                    java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        }
        try {
            LdapTools.Run r = LdapTools.runTrusting(other, "ldapwhoami", "-x", "-H",
                    "ldaps://127.0.0.1:" + server.ldapsPort(), "-D", USER, "-w", TestServer.USER_PASSWORD);
            assertTrue(r.exit() != 0, r.output());
        } finally {
            Files.deleteIfExists(other);
        }
    }

    @Test
    public void opensslNegotiatesTls13And12AndIsRefusedTls11() throws Exception {
        LdapTools.Run tls13 = sClient("-tls1_3");
        assertTrue(tls13.output().contains("New, TLSv1.3"), tls13.output());
        LdapTools.Run tls12 = sClient("-tls1_2");
        assertTrue(tls12.output().contains("Protocol  : TLSv1.2") || tls12.output().contains("TLSv1.2,"),
                tls12.output());
        assertTrue(tls12.output().contains("Verify return code: 0 (ok)"), tls12.output());
        // Security level 0 lets OpenSSL 3 offer TLS 1.1 at all: the server is what must refuse it.
        LdapTools.Run tls11 = sClient("-tls1_1", "-cipher", "DEFAULT:@SECLEVEL=0");
        assertTrue(tls11.output().matches("(?s).*written [1-9][0-9]* bytes.*"), "a ClientHello went out: "
                + tls11.output());
        assertTrue(tls11.output().contains("Cipher is (NONE)"), tls11.output());
        assertFalse(tls11.output().contains("Protocol  : TLSv1.1") && tls11.output().contains("Cipher    : ECDHE"),
                tls11.output());
    }

    /** The JDK's defaults resume both: TLS 1.2 from the server's session cache, TLS 1.3 from a ticket. */
    @Test
    public void opensslResumesTls12SessionsAndTls13Tickets() throws Exception {
        for (String version : new String[] {"-tls1_2", "-tls1_3"}) {
            Path session = Files.createTempFile("tls-session", ".pem");
            try {
                // An anonymous bind goes out, and stdin is held open a moment: a TLS 1.3 ticket comes after the
                // handshake (BoringSSL sends it with the first response).
                String base = "(sleep 0.5; printf '" + ANONYMOUS_BIND + "'; sleep 1)"
                        + " | openssl s_client -connect 127.0.0.1:" + server.ldapsPort() + " " + version
                        + " -CAfile " + ca + " ";
                LdapTools.Run first = LdapTools.run("bash", "-c", base + "-sess_out " + session);
                assertTrue(first.output().contains("\nNew, TLSv1."), first.output());
                LdapTools.Run second = LdapTools.run("bash", "-c", base + "-sess_in " + session);
                assertTrue(second.output().contains("\nReused, TLSv1."), version + ": " + second.output());
            } finally {
                Files.deleteIfExists(session);
            }
        }
    }

    /**
     * s_client's "R" asks for a TLS 1.2 renegotiation: the server refuses it and closes that
     * connection (a renegotiation would run as a blocking handshake on a selector thread), and serves others.
     */
    @Test
    public void aClientRenegotiationIsRefused() throws Exception {
        String cmd = "(sleep 1; echo R; sleep 2) | openssl s_client -connect 127.0.0.1:" + server.ldapsPort()
                + " -tls1_2 -CAfile " + ca;
        LdapTools.Run run = LdapTools.run("bash", "-c", cmd);
        int asked = run.output().indexOf("RENEGOTIATING");
        assertTrue(asked >= 0, "the client asked: " + run.output());
        String after = run.output().substring(asked);
        assertFalse(after.contains("depth=0"), "no second handshake (no certificate checked again): " + after);
        assertTrue(after.contains("error") || after.contains("alert"), "the connection ended: " + after);
        LdapTools.Run who = LdapTools.runTrusting(ca, "ldapwhoami", "-x", "-H", "ldaps://127.0.0.1:"
                + server.ldapsPort(), "-D", USER, "-w", TestServer.USER_PASSWORD);
        assertEquals(who.exit(), 0, who.output());
    }

    private LdapTools.Run sClient(String... options) throws Exception {
        java.util.List<String> cmd = new java.util.ArrayList<>(java.util.List.of("openssl", "s_client", "-connect",
                "127.0.0.1:" + server.ldapsPort(), "-CAfile", ca.toString(), "-verify_hostname", "localhost",
                "-verify_return_error"));
        cmd.addAll(java.util.List.of(options));
        return LdapTools.runWithInput("", cmd.toArray(new String[0]));
    }
}
