package io.bindfirst.server.tls;

import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.math.BigInteger;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.security.interfaces.ECPrivateKey;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;

import org.bouncycastle.asn1.ASN1Encodable;
import org.bouncycastle.asn1.DERBitString;
import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509ExtensionUtils;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.asn1.x509.SubjectPublicKeyInfo;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;
import org.bouncycastle.util.io.pem.PemObject;
import org.bouncycastle.util.io.pem.PemObjectGenerator;

/**
 * The TLS material a first start creates when none is configured: a small certificate authority of this
 * instance alone and a server certificate it signs for {@code localhost}, {@code 127.0.0.1} and {@code ::1}
 * (ECDSA P-256, valid {@link #VALIDITY}). Clients trust {@code ca.pem}; the server presents the chain in the
 * certificate file with the key in the key file (PKCS#8, readable by the owner only).
 *
 * <p>The authority's own private key is thrown away once the server certificate is signed: nothing else can
 * ever be issued under the certificate clients were told to trust. A new server certificate (renewal, other
 * names) means new files, from this class again or from a real CA.
 */
public final class LocalCertificateAuthority {
    /** How long the local certificates are valid. */
    public static final Duration VALIDITY = Duration.ofDays(365);
    /** The file clients trust, beside the certificate file. */
    public static final String CA_FILE = "ca.pem";

    private final SecureRandom random = new SecureRandom();

    /**
     * Writes {@code ca.pem} beside {@code certificateFile}, the server chain to {@code certificateFile} and its
     * key to {@code keyFile}. Every file is written under a temporary name and moved into place, the key last,
     * so a start interrupted halfway leaves no key without its certificate.
     *
     * @throws IOException if a file cannot be written, or already exists
     */
    public void create(Path certificateFile, Path keyFile, String instanceName) throws IOException {
        if (Files.exists(certificateFile) || Files.exists(keyFile)) {
            throw new FileAlreadyExistsException(Files.exists(certificateFile) ? certificateFile.toString()
                    : keyFile.toString(), null, "refusing to overwrite existing TLS material");
        }
        try {
            Instant now = Instant.now();
            KeyPair caKeys = ecKeyPair();
            X500Name caName = new X500Name("CN=Local CA of " + instanceName + ",O=bindfirst directory server");
            JcaX509ExtensionUtils ext = new JcaX509ExtensionUtils();
            X509v3CertificateBuilder ca = builder(caName, caName, caKeys, now)
                    .addExtension(Extension.basicConstraints, true, new BasicConstraints(0))
                    .addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign))
                    .addExtension(Extension.subjectKeyIdentifier, false,
                            ext.createSubjectKeyIdentifier(caKeys.getPublic()));
            X509Certificate caCert = sign(ca, caKeys);

            KeyPair serverKeys = ecKeyPair();
            GeneralNames names = new GeneralNames(new GeneralName[] {
                    new GeneralName(GeneralName.dNSName, "localhost"),
                    new GeneralName(GeneralName.iPAddress, "127.0.0.1"),
                    new GeneralName(GeneralName.iPAddress, InetAddress.getByName("::1").getHostAddress()),
            });
            X509v3CertificateBuilder server = builder(caName, new X500Name("CN=localhost"), serverKeys, now)
                    .addExtension(Extension.basicConstraints, true, new BasicConstraints(false))
                    .addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.digitalSignature))
                    .addExtension(Extension.extendedKeyUsage, false,
                            new ExtendedKeyUsage(KeyPurposeId.id_kp_serverAuth))
                    .addExtension(Extension.subjectAlternativeName, false, names)
                    .addExtension(Extension.subjectKeyIdentifier, false,
                            ext.createSubjectKeyIdentifier(serverKeys.getPublic()))
                    .addExtension(Extension.authorityKeyIdentifier, false,
                            ext.createAuthorityKeyIdentifier(caCert));
            X509Certificate serverCert = sign(server, caKeys);

            Files.createDirectories(certificateFile.toAbsolutePath().getParent());
            Files.createDirectories(keyFile.toAbsolutePath().getParent());
            Path caFile = certificateFile.resolveSibling(CA_FILE);
            writeAtomically(caFile, pem(caCert), false);
            writeAtomically(certificateFile, pem(serverCert, caCert), false);
            writeAtomically(keyFile, pem(new PemObject("PRIVATE KEY", withPublicKey(serverKeys))), true);
        } catch (GeneralSecurityException | OperatorCreationException e) {
            throw new IOException("Cannot create the local certificates: " + e.getMessage(), e);
        }
    }

    /**
     * The PKCS#8 encoding of an EC key pair's private key with its public key inside, as OpenSSL writes it. The
     * JDK's encoding leaves the public key out, and GnuTLS (Debian's slapd and OpenLDAP tools) refuses such a
     * key: the same files could not be given to a GnuTLS server.
     */
    public static byte[] withPublicKey(KeyPair keys) throws IOException {
        PrivateKeyInfo jdk = PrivateKeyInfo.getInstance(keys.getPrivate().getEncoded());
        org.bouncycastle.asn1.sec.ECPrivateKey sec1 =
                org.bouncycastle.asn1.sec.ECPrivateKey.getInstance(jdk.parsePrivateKey());
        ASN1Encodable curve = jdk.getPrivateKeyAlgorithm().getParameters();
        DERBitString publicKey = new DERBitString(
                SubjectPublicKeyInfo.getInstance(keys.getPublic().getEncoded()).getPublicKeyData().getBytes());
        int orderBits = ((ECPrivateKey) keys.getPrivate()).getParams().getOrder().bitLength();
        return new PrivateKeyInfo(jdk.getPrivateKeyAlgorithm(),
                new org.bouncycastle.asn1.sec.ECPrivateKey(orderBits, sec1.getKey(), publicKey, curve)).getEncoded();
    }

    private KeyPair ecKeyPair() throws GeneralSecurityException {
        KeyPairGenerator g = KeyPairGenerator.getInstance("EC");
        g.initialize(new ECGenParameterSpec("secp256r1"), random);
        return g.generateKeyPair();
    }

    private X509v3CertificateBuilder builder(X500Name issuer, X500Name subject, KeyPair keys, Instant now) {
        // An hour back: a client whose clock is a little behind still accepts a certificate made just now.
        return new JcaX509v3CertificateBuilder(issuer, new BigInteger(127, random).add(BigInteger.ONE),
                Date.from(now.minus(Duration.ofHours(1))), Date.from(now.plus(VALIDITY)), subject, keys.getPublic());
    }

    private static X509Certificate sign(X509v3CertificateBuilder b, KeyPair issuerKeys)
            throws OperatorCreationException, GeneralSecurityException {
        return new JcaX509CertificateConverter().getCertificate(
                b.build(new JcaContentSignerBuilder("SHA256withECDSA").build(issuerKeys.getPrivate())));
    }

    private static String pem(Object... objects) {
        StringWriter out = new StringWriter();
        try (JcaPEMWriter w = new JcaPEMWriter(out)) {
            for (Object o : objects) {
                if (o instanceof PemObjectGenerator g) {
                    w.writeObject(g);
                } else {
                    w.writeObject(o);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toString();
    }

    private static void writeAtomically(Path file, String content, boolean ownerOnly) throws IOException {
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        Files.deleteIfExists(tmp);
        if (ownerOnly && tmp.getFileSystem().supportedFileAttributeViews().contains("posix")) {
            Files.createFile(tmp, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        } else {
            Files.createFile(tmp);
        }
        try (Writer w = Files.newBufferedWriter(tmp, StandardCharsets.US_ASCII)) {
            w.write(content);
        }
        Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE);
    }
}
