package io.bindfirst.it.support;

import java.io.StringWriter;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.KeyStore;
import java.security.SecureRandom;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;

import javax.net.ssl.KeyManager;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.X509ExtendedKeyManager;
import javax.net.ssl.X509KeyManager;

import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;
import org.bouncycastle.util.io.pem.PemObject;

import io.bindfirst.server.tls.LocalCertificateAuthority;

/** A CA for client certificates in tests, and the certificates it signs (EC P-256, a day). */
public final class ClientCertificates {
    private final SecureRandom random = new SecureRandom();
    private final KeyPair caKeys;
    private final X509Certificate ca;

    public ClientCertificates(String name) throws Exception {
        caKeys = keys();
        X500Name caName = new X500Name("CN=" + name);
        ca = sign(new JcaX509v3CertificateBuilder(caName, serial(), start(), end(), caName, caKeys.getPublic())
                .addExtension(Extension.basicConstraints, true, new BasicConstraints(0))
                .addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.keyCertSign)));
    }

    public X509Certificate ca() {
        return ca;
    }

    /** A client certificate whose subject is {@code subject} (an RFC 4514 DN), with its key. */
    public Issued issue(String subject) throws Exception {
        KeyPair keys = keys();
        X509Certificate cert = sign(new JcaX509v3CertificateBuilder(new X500Name(ca.getSubjectX500Principal()
                .getName()), serial(), start(), end(), ldapOrder(subject), keys.getPublic())
                .addExtension(Extension.basicConstraints, true, new BasicConstraints(false))
                .addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.digitalSignature)));
        return new Issued(cert, keys, ca);
    }

    /** A certificate and its key, as a key manager or as PEM files for OpenLDAP's tools. */
    public record Issued(X509Certificate certificate, KeyPair keys, X509Certificate ca) {
        public KeyManager[] keyManagers() throws Exception {
            KeyStore ks = KeyStore.getInstance("PKCS12");
            ks.load(null, null);
            ks.setKeyEntry("client", keys.getPrivate(), new char[0], new Certificate[] {certificate, ca});
            KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            kmf.init(ks, new char[0]);
            X509KeyManager jdk = (X509KeyManager) kmf.getKeyManagers()[0];
            return new KeyManager[] {new AlwaysPresent(jdk)};
        }

        public void writePem(Path certificateFile, Path keyFile) throws Exception {
            Files.writeString(certificateFile, pem(certificate));
            byte[] pkcs8 = LocalCertificateAuthority.withPublicKey(keys);
            Files.writeString(keyFile, pem(new PemObject("PRIVATE KEY", pkcs8)));
        }
    }

    /**
     * Presents the certificate whatever CAs the server names: the JDK's own key manager would keep quiet when its
     * issuer is not among them, and the server's refusal of an unknown CA would go untested.
     */
    private static final class AlwaysPresent extends X509ExtendedKeyManager {
        private final X509KeyManager keys;

        AlwaysPresent(X509KeyManager keys) {
            this.keys = keys;
        }

        @Override
        public String chooseClientAlias(String[] keyType, java.security.Principal[] issuers, java.net.Socket s) {
            return "client";
        }

        @Override
        public String chooseEngineClientAlias(String[] keyType, java.security.Principal[] issuers,
                                              javax.net.ssl.SSLEngine e) {
            return "client";
        }

        @Override
        public X509Certificate[] getCertificateChain(String alias) {
            return keys.getCertificateChain(alias);
        }

        @Override
        public java.security.PrivateKey getPrivateKey(String alias) {
            return keys.getPrivateKey(alias);
        }

        @Override
        public String[] getClientAliases(String keyType, java.security.Principal[] issuers) {
            return new String[] {"client"};
        }

        @Override
        public String[] getServerAliases(String keyType, java.security.Principal[] issuers) {
            return null;
        }

        @Override
        public String chooseServerAlias(String keyType, java.security.Principal[] issuers, java.net.Socket s) {
            return null;
        }
    }

    /**
     * An LDAP DN string as a certificate name: its first RDN is the least significant, last in the encoding
     * (Bouncy Castle's own parser would keep the written order, and the subject would be the DN reversed).
     */
    private static X500Name ldapOrder(String dn) {
        return X500Name.getInstance(new javax.security.auth.x500.X500Principal(dn).getEncoded());
    }

    public static String pem(Object o) throws Exception {
        StringWriter out = new StringWriter();
        try (JcaPEMWriter w = new JcaPEMWriter(out)) {
            w.writeObject(o);
        }
        return out.toString();
    }

    private KeyPair keys() throws Exception {
        KeyPairGenerator g = KeyPairGenerator.getInstance("EC");
        g.initialize(new ECGenParameterSpec("secp256r1"), random);
        return g.generateKeyPair();
    }

    private X509Certificate sign(X509v3CertificateBuilder b) throws Exception {
        return new JcaX509CertificateConverter().getCertificate(
                b.build(new JcaContentSignerBuilder("SHA256withECDSA").build(caKeys.getPrivate())));
    }

    private BigInteger serial() {
        return new BigInteger(64, random).add(BigInteger.ONE);
    }

    private static Date start() {
        return Date.from(Instant.now().minus(Duration.ofHours(1)));
    }

    private static Date end() {
        return Date.from(Instant.now().plus(Duration.ofDays(1)));
    }
}
