package io.bindfirst.server.tls;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertFalse;
import static org.testng.Assert.assertTrue;
import static org.testng.Assert.expectThrows;

import java.io.OutputStream;
import java.io.StringWriter;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermission;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

import javax.net.ssl.SSLEngine;

import org.bouncycastle.jce.provider.BouncyCastleProvider;
import org.bouncycastle.openssl.PKCS8Generator;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.openssl.jcajce.JcaPKCS8Generator;
import org.bouncycastle.openssl.jcajce.JceOpenSSLPKCS8EncryptorBuilder;
import org.testng.annotations.AfterMethod;
import org.testng.annotations.BeforeMethod;
import org.testng.annotations.Test;

import io.bindfirst.server.config.ServerConfig;

/** The local CA a first start creates, and reading keys and chains in each form a user brings, with its errors. */
public class TlsMaterialTest {
    private Path dir;
    private Path cert;
    private Path key;

    @BeforeMethod
    public void createDir() throws Exception {
        dir = Files.createTempDirectory("tls-material-");
        cert = dir.resolve("tls/server.pem");
        key = dir.resolve("tls/server-key.pem");
    }

    @AfterMethod(alwaysRun = true)
    public void deleteDir() throws Exception {
        try (Stream<Path> s = Files.walk(dir)) {
            s.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }

    private ServerConfig.Tls pem(boolean create, List<String> protocols) {
        return new ServerConfig.Tls(ServerConfig.Tls.KeyStoreType.PEM, cert, key, null, null, create, protocols,
                List.of(), Duration.ofSeconds(10), Duration.ZERO, ServerConfig.Tls.Provider.JDK,
                ServerConfig.Tls.HandshakeCrypto.BOUNCY_CASTLE, ServerConfig.Tls.ClientCertificates.NONE,
                ServerConfig.Tls.SessionCache.JDK_DEFAULTS, 0, 0);
    }

    @Test
    public void theLocalCaSignsACertificateForLocalhostAnd127001() throws Exception {
        new LocalCertificateAuthority().create(cert, key, "test");
        KeyMaterial m = KeyMaterial.fromPem(cert, key);
        X509Certificate server = m.certificate();
        X509Certificate ca = (X509Certificate) java.security.cert.CertificateFactory.getInstance("X.509")
                .generateCertificate(Files.newInputStream(dir.resolve("tls/ca.pem")));
        server.verify(ca.getPublicKey());
        assertEquals(m.chain().size(), 2, "the chain file holds the server certificate and the CA");
        assertEquals(ca.getBasicConstraints(), 0, "the CA may sign end-entity certificates only");
        assertEquals(server.getBasicConstraints(), -1, "the server certificate is no CA");
        Collection<List<?>> names = server.getSubjectAlternativeNames();
        assertTrue(names.contains(List.of(2, "localhost")), names.toString());
        assertTrue(names.contains(List.of(7, "127.0.0.1")), names.toString());
        assertTrue(server.getExtendedKeyUsage().contains("1.3.6.1.5.5.7.3.1"), "serverAuth");
        Instant end = server.getNotAfter().toInstant();
        assertTrue(end.isAfter(Instant.now().plus(Duration.ofDays(364))), end.toString());
        assertTrue(end.isBefore(Instant.now().plus(Duration.ofDays(366))), end.toString());
        if (Files.getFileStore(key).supportsFileAttributeView("posix")) {
            assertEquals(Files.getPosixFilePermissions(key),
                    Set.of(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE), "the key is the owner's");
        }
        expectThrows(FileAlreadyExistsException.class, () -> new LocalCertificateAuthority().create(cert, key, "x"));
    }

    /** GnuTLS (Debian's slapd) refuses an EC key without its public key, which the JDK's encoding leaves out. */
    @Test
    public void theKeyFileCarriesItsPublicKeyAsOpenSslWritesIt() throws Exception {
        new LocalCertificateAuthority().create(cert, key, "test");
        Object parsed;
        try (var p = new org.bouncycastle.openssl.PEMParser(Files.newBufferedReader(key))) {
            parsed = p.readObject();
        }
        org.bouncycastle.asn1.pkcs.PrivateKeyInfo info = (org.bouncycastle.asn1.pkcs.PrivateKeyInfo) parsed;
        org.bouncycastle.asn1.sec.ECPrivateKey sec1 =
                org.bouncycastle.asn1.sec.ECPrivateKey.getInstance(info.parsePrivateKey());
        assertTrue(sec1.getPublicKey() != null, "the public key is in the key file");
        byte[] certificateKey = org.bouncycastle.asn1.x509.SubjectPublicKeyInfo.getInstance(
                KeyMaterial.fromPem(cert, key).certificate().getPublicKey().getEncoded()).getPublicKeyData().getBytes();
        assertEquals(sec1.getPublicKey().getBytes(), certificateKey, "and it is the certificate's");
    }

    /** What the shipped configuration and the docs call the JDK's defaults is what this JDK does. */
    @Test
    public void theSessionCacheIsConfiguredAndTheDocumentedDefaultsAreTheJdks() throws Exception {
        javax.net.ssl.SSLContext plain = javax.net.ssl.SSLContext.getInstance("TLS");
        plain.init(null, new javax.net.ssl.TrustManager[0], null);
        assertEquals(plain.getServerSessionContext().getSessionCacheSize(),
                ServerConfig.Tls.SessionCache.JDK_DEFAULTS.size());
        assertEquals(plain.getServerSessionContext().getSessionTimeout(),
                ServerConfig.Tls.SessionCache.JDK_DEFAULTS.lifetime().getSeconds());
        ServerConfig.Tls small = new ServerConfig.Tls(ServerConfig.Tls.KeyStoreType.PEM, cert, key, null, null, true,
                List.of("TLSv1.3", "TLSv1.2"), List.of(), Duration.ofSeconds(10), Duration.ZERO,
                ServerConfig.Tls.Provider.JDK, ServerConfig.Tls.HandshakeCrypto.BOUNCY_CASTLE,
                ServerConfig.Tls.ClientCertificates.NONE, new ServerConfig.Tls.SessionCache(7, Duration.ofMinutes(1)),
                0, 0);
        try (TlsContext tls = TlsContext.open(small, "test")) {
            assertEquals(tls.serverSessions().getSessionCacheSize(), 7);
            assertEquals(tls.serverSessions().getSessionTimeout(), 60);
        }
    }

    @Test
    public void aFirstStartCreatesTheMaterialAndALaterOneReusesIt() throws Exception {
        try (TlsContext first = TlsContext.open(pem(true, List.of("TLSv1.3", "TLSv1.2")), "test");
             TlsContext second = TlsContext.open(pem(true, List.of("TLSv1.3", "TLSv1.2")), "test")) {
            assertEquals(second.certificate(), first.certificate());
            SSLEngine engine = first.newServerEngine();
            assertEquals(List.of(engine.getEnabledProtocols()), List.of("TLSv1.3", "TLSv1.2"));
            assertTrue(!engine.getUseClientMode());
        }
    }

    @Test
    public void changedFilesAreReadAgainAndABadReplacementKeepsTheOldCertificate() throws Exception {
        try (TlsContext tls = TlsContext.open(pem(true, List.of("TLSv1.3")), "test")) {
            X509Certificate first = tls.certificate();
            assertFalse(tls.reloadIfChanged(), "nothing changed");
            Path newCert = dir.resolve("new/server.pem");
            Path newKey = dir.resolve("new/server-key.pem");
            new LocalCertificateAuthority().create(newCert, newKey, "renewed");
            // Halfway through a replacement: the new certificate with the old key.
            Files.copy(newCert, cert, StandardCopyOption.REPLACE_EXISTING);
            assertFalse(tls.reloadIfChanged(), "a key that is not the certificate's is refused");
            assertEquals(tls.certificate(), first, "the previous certificate stays in use");
            assertFalse(tls.reloadIfChanged(), "and is not tried again until the files change");
            Files.copy(newKey, key, StandardCopyOption.REPLACE_EXISTING);
            assertTrue(tls.reloadIfChanged());
            assertEquals(tls.certificate(), KeyMaterial.fromPem(newCert, newKey).certificate());
            SSLEngine engine = tls.newServerEngine();
            assertEquals(List.of(engine.getEnabledProtocols()), List.of("TLSv1.3"));
        }
    }

    @Test
    public void missingFilesWithoutCreationAreNamed() {
        TlsConfigException e = expectThrows(TlsConfigException.class,
                () -> TlsContext.open(pem(false, List.of("TLSv1.3")), "test"));
        assertTrue(e.getMessage().contains(cert.toString()) && e.getMessage().contains("does not exist"),
                e.getMessage());
    }

    @Test
    public void anUnknownProtocolIsRefusedWithTheSupportedOnes() throws Exception {
        TlsConfigException e = expectThrows(TlsConfigException.class,
                () -> TlsContext.open(pem(true, List.of("TLSv9")), "test"));
        assertTrue(e.getMessage().contains("ds-cfg-ssl-protocol") && e.getMessage().contains("TLSv1.3"),
                e.getMessage());
    }

    @Test
    public void aKeyThatIsNotTheCertificatesIsRefused() throws Exception {
        new LocalCertificateAuthority().create(cert, key, "one");
        Path otherCert = dir.resolve("other/server.pem");
        Path otherKey = dir.resolve("other/server-key.pem");
        new LocalCertificateAuthority().create(otherCert, otherKey, "two");
        TlsConfigException e = expectThrows(TlsConfigException.class, () -> KeyMaterial.fromPem(cert, otherKey));
        assertTrue(e.getMessage().contains("does not belong"), e.getMessage());
    }

    @Test
    public void anEncryptedKeyIsRefusedWithWhatToDo() throws Exception {
        new LocalCertificateAuthority().create(cert, key, "test");
        KeyMaterial m = KeyMaterial.fromPem(cert, key);
        StringWriter out = new StringWriter();
        try (JcaPEMWriter w = new JcaPEMWriter(out)) {
            w.writeObject(new JcaPKCS8Generator(m.key(),
                    new JceOpenSSLPKCS8EncryptorBuilder(PKCS8Generator.AES_256_CBC)
                            .setProvider(new BouncyCastleProvider())
                            .setPassword("secret".toCharArray()).build()));
        }
        Path encrypted = dir.resolve("encrypted.pem");
        Files.writeString(encrypted, out.toString());
        TlsConfigException e = expectThrows(TlsConfigException.class, () -> KeyMaterial.fromPem(cert, encrypted));
        assertTrue(e.getMessage().contains("encrypted") && e.getMessage().contains("openssl pkey"), e.getMessage());
    }

    @Test
    public void notPemAtAllIsSaidSo() throws Exception {
        Files.createDirectories(cert.getParent());
        Files.writeString(cert, "hello\n");
        TlsConfigException e = expectThrows(TlsConfigException.class, () -> KeyMaterial.fromPem(cert, key));
        assertTrue(e.getMessage().contains("no PEM certificate"), e.getMessage());
    }

    @Test
    public void aPkcs12KeyStoreWithItsPinFile() throws Exception {
        new LocalCertificateAuthority().create(cert, key, "test");
        KeyMaterial m = KeyMaterial.fromPem(cert, key);
        KeyStore ks = KeyStore.getInstance("PKCS12");
        ks.load(null, null);
        ks.setKeyEntry("server-cert", m.key(), "pin123".toCharArray(), m.chain().toArray(new Certificate[0]));
        Path p12 = dir.resolve("keystore.p12");
        try (OutputStream o = Files.newOutputStream(p12)) {
            ks.store(o, "pin123".toCharArray());
        }
        Path pin = dir.resolve("keystore.pin");
        Files.writeString(pin, "pin123\n");
        assertEquals(KeyMaterial.fromPkcs12(p12, pin).certificate(), m.certificate());
        Files.writeString(pin, "wrong\n");
        TlsConfigException e = expectThrows(TlsConfigException.class, () -> KeyMaterial.fromPkcs12(p12, pin));
        assertTrue(e.getMessage().contains("wrong PIN"), e.getMessage());
    }

    @Test
    public void securityStrengthComesFromTheCipherNameOnBothVersions() {
        assertEquals(SecurityStrength.ofCipherSuite("TLS_AES_128_GCM_SHA256"), 128);
        assertEquals(SecurityStrength.ofCipherSuite("TLS_AES_256_GCM_SHA384"), 256);
        assertEquals(SecurityStrength.ofCipherSuite("TLS_CHACHA20_POLY1305_SHA256"), 256);
        assertEquals(SecurityStrength.ofCipherSuite("TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256"), 128);
        assertEquals(SecurityStrength.ofCipherSuite("TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA384"), 256);
        assertEquals(SecurityStrength.ofCipherSuite("SSL_RSA_WITH_3DES_EDE_CBC_SHA"), 112);
        assertEquals(SecurityStrength.ofCipherSuite("SSL_NULL_WITH_NULL_NULL"), 0, "no handshake yet");
        assertEquals(SecurityStrength.ofCipherSuite("TLS_RSA_WITH_NULL_SHA256"), 0);
        assertEquals(SecurityStrength.ofCipherSuite(null), 0);
    }
}
