package io.bindfirst.server.tls;

import java.io.IOException;
import java.io.InputStream;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.Signature;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;
import org.bouncycastle.cert.X509CertificateHolder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.openssl.PEMEncryptedKeyPair;
import org.bouncycastle.openssl.PEMKeyPair;
import org.bouncycastle.openssl.PEMParser;
import org.bouncycastle.openssl.jcajce.JcaPEMKeyConverter;
import org.bouncycastle.pkcs.PKCS8EncryptedPrivateKeyInfo;

/**
 * The server's private key and certificate chain, read from PEM files (a key file and a chain file, leaf
 * first, as OpenLDAP's {@code olcTLSCertificateKeyFile} and {@code olcTLSCertificateFile} take them) or from a
 * PKCS#12 key store with its PIN in a file (as OpenDJ's key manager provider). Every way the files can be wrong
 * gives a {@link TlsConfigException} that names the file and says what to do.
 *
 * @param key the private key
 * @param chain the certificate chain, the server's certificate first
 */
public record KeyMaterial(PrivateKey key, List<X509Certificate> chain) {
    public KeyMaterial {
        chain = List.copyOf(chain);
    }

    /** The server's own certificate. */
    public X509Certificate certificate() {
        return chain.get(0);
    }

    /** Reads a PEM private key (PKCS#8 or the traditional RSA/EC form, unencrypted) and a PEM chain. */
    public static KeyMaterial fromPem(Path certificateFile, Path keyFile) throws TlsConfigException {
        List<X509Certificate> chain = new ArrayList<>();
        for (Object o : pemObjects(certificateFile)) {
            if (o instanceof X509CertificateHolder h) {
                try {
                    chain.add(new JcaX509CertificateConverter().getCertificate(h));
                } catch (GeneralSecurityException e) {
                    throw new TlsConfigException(certificateFile + ": a certificate cannot be read: " + e.getMessage());
                }
            }
        }
        if (chain.isEmpty()) {
            throw new TlsConfigException(certificateFile + ": holds no PEM certificate (-----BEGIN CERTIFICATE-----)");
        }
        PrivateKey key = null;
        for (Object o : pemObjects(keyFile)) {
            PrivateKeyInfo info = null;
            if (o instanceof PrivateKeyInfo p) {
                info = p;
            } else if (o instanceof PEMKeyPair kp) {
                info = kp.getPrivateKeyInfo();
            } else if (o instanceof PEMEncryptedKeyPair || o instanceof PKCS8EncryptedPrivateKeyInfo) {
                throw new TlsConfigException(keyFile + ": the private key is encrypted; give the server an "
                        + "unencrypted copy readable only by its user (openssl pkey -in KEY -out KEY.plain), or a "
                        + "PKCS#12 key store with a PIN file");
            }
            if (info != null) {
                if (key != null) {
                    throw new TlsConfigException(keyFile + ": holds more than one private key");
                }
                try {
                    key = new JcaPEMKeyConverter().getPrivateKey(info);
                } catch (IOException e) {
                    throw new TlsConfigException(keyFile + ": the private key cannot be read: " + e.getMessage());
                }
            }
        }
        if (key == null) {
            throw new TlsConfigException(keyFile + ": holds no PEM private key (-----BEGIN PRIVATE KEY-----)");
        }
        return checked(new KeyMaterial(key, chain), keyFile + " and " + certificateFile);
    }

    /** Reads the first private key entry of a PKCS#12 key store whose PIN is the first line of {@code pinFile}. */
    public static KeyMaterial fromPkcs12(Path keyStoreFile, Path pinFile) throws TlsConfigException {
        char[] pin;
        try {
            List<String> lines = Files.readAllLines(pinFile, StandardCharsets.UTF_8);
            pin = lines.isEmpty() ? new char[0] : lines.get(0).toCharArray();
        } catch (NoSuchFileException e) {
            throw new TlsConfigException(pinFile + ": the key store PIN file does not exist");
        } catch (IOException e) {
            throw new TlsConfigException(pinFile + ": cannot read the key store PIN: " + e.getMessage());
        }
        try (InputStream in = Files.newInputStream(keyStoreFile)) {
            KeyStore ks = KeyStore.getInstance("PKCS12");
            ks.load(in, pin);
            for (String alias : Collections.list(ks.aliases())) {
                if (ks.isKeyEntry(alias)) {
                    List<X509Certificate> chain = new ArrayList<>();
                    for (Certificate c : ks.getCertificateChain(alias)) {
                        chain.add((X509Certificate) c);
                    }
                    return checked(new KeyMaterial((PrivateKey) ks.getKey(alias, pin), chain), keyStoreFile.toString());
                }
            }
            throw new TlsConfigException(keyStoreFile + ": the key store has no private key entry");
        } catch (NoSuchFileException e) {
            throw new TlsConfigException(keyStoreFile + ": the key store file does not exist");
        } catch (IOException | GeneralSecurityException | ClassCastException e) {
            throw new TlsConfigException(keyStoreFile + ": cannot read the PKCS#12 key store (wrong PIN in "
                    + pinFile + "?): " + e.getMessage());
        }
    }

    private static List<Object> pemObjects(Path file) throws TlsConfigException {
        List<Object> out = new ArrayList<>();
        try (Reader r = Files.newBufferedReader(file, StandardCharsets.US_ASCII);
             PEMParser parser = new PEMParser(r)) {
            for (Object o = parser.readObject(); o != null; o = parser.readObject()) {
                out.add(o);
            }
        } catch (NoSuchFileException e) {
            throw new TlsConfigException(file + ": the file does not exist");
        } catch (IOException | RuntimeException e) {
            throw new TlsConfigException(file + ": is not a readable PEM file: " + e.getMessage());
        }
        return out;
    }

    /** The key must be the certificate's: a handshake would otherwise fail for every client, unexplained. */
    private static KeyMaterial checked(KeyMaterial m, String where) throws TlsConfigException {
        String alg = m.key().getAlgorithm();
        String sigAlg = switch (alg) {
            case "EC" -> "SHA256withECDSA";
            case "RSA" -> "SHA256withRSA";
            case "Ed25519", "EdDSA" -> "Ed25519";
            default -> null;
        };
        if (sigAlg != null) {
            try {
                byte[] probe = new byte[32];
                new SecureRandom().nextBytes(probe);
                Signature s = Signature.getInstance(sigAlg);
                s.initSign(m.key());
                s.update(probe);
                byte[] sig = s.sign();
                s.initVerify(m.certificate().getPublicKey());
                s.update(probe);
                if (!s.verify(sig)) {
                    throw new TlsConfigException(where + ": the private key does not belong to the first "
                            + "certificate of the chain (" + m.certificate().getSubjectX500Principal() + ")");
                }
            } catch (GeneralSecurityException e) {
                throw new TlsConfigException(where + ": the private key does not belong to the first certificate "
                        + "of the chain (" + m.certificate().getSubjectX500Principal() + "): " + e.getMessage());
            }
        }
        return m;
    }
}
