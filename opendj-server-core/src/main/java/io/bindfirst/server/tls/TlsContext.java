package io.bindfirst.server.tls;

import java.io.IOException;
import java.nio.file.Files;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Set;

import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLParameters;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.bindfirst.server.config.ServerConfig;

/**
 * What the listeners need to speak TLS: the JDK's {@link SSLContext} holding the server's key and chain, the
 * protocols and cipher suites a connection may negotiate, and how long a handshake may take. Built once at
 * start; each LDAPS connection and each StartTLS gets a fresh {@link SSLEngine} from it.
 */
public final class TlsContext {
    private static final Logger LOG = LoggerFactory.getLogger(TlsContext.class);
    /** Certificates closer to their end than this are announced at start. */
    static final Duration EXPIRY_WARNING = Duration.ofDays(30);

    private final SSLContext context;
    private final String[] protocols;
    private final String[] cipherSuites;
    private final Duration handshakeTimeout;
    private final X509Certificate certificate;

    private TlsContext(SSLContext context, String[] protocols, String[] cipherSuites, Duration handshakeTimeout,
                       X509Certificate certificate) {
        this.context = context;
        this.protocols = protocols;
        this.cipherSuites = cipherSuites;
        this.handshakeTimeout = handshakeTimeout;
        this.certificate = certificate;
    }

    /**
     * Reads the configured key material, first creating the local CA and server certificate when so
     * configured and the PEM files do not exist yet, and checks the protocols and suites against the JDK's.
     *
     * @param instanceName names the local CA (the instance folder's name), so two instances' CAs differ
     */
    public static TlsContext open(ServerConfig.Tls cfg, String instanceName) throws TlsConfigException {
        KeyMaterial keys;
        if (cfg.keyStoreType() == ServerConfig.Tls.KeyStoreType.PKCS12) {
            keys = KeyMaterial.fromPkcs12(cfg.keyStoreFile(), cfg.keyStorePinFile());
        } else {
            boolean neither = !Files.exists(cfg.certificateFile()) && !Files.exists(cfg.privateKeyFile());
            if (cfg.createLocalCertificate() && neither) {
                try {
                    new LocalCertificateAuthority().create(cfg.certificateFile(), cfg.privateKeyFile(), instanceName);
                } catch (IOException e) {
                    throw new TlsConfigException("Cannot create the local CA and server certificate in "
                            + cfg.certificateFile().getParent() + ": " + e.getMessage());
                }
                LOG.info("Created a local CA and a server certificate for localhost and 127.0.0.1: clients trust {}",
                        cfg.certificateFile().resolveSibling(LocalCertificateAuthority.CA_FILE));
            }
            keys = KeyMaterial.fromPem(cfg.certificateFile(), cfg.privateKeyFile());
        }
        SSLContext ssl;
        try {
            char[] transientPin = new char[0];
            KeyStore ks = KeyStore.getInstance("PKCS12");
            ks.load(null, null);
            ks.setKeyEntry("server", keys.key(), transientPin, keys.chain().toArray(new Certificate[0]));
            KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            kmf.init(ks, transientPin);
            ssl = SSLContext.getInstance("TLS");
            ssl.init(kmf.getKeyManagers(), null, null);
        } catch (GeneralSecurityException | IOException e) {
            throw new TlsConfigException("The server key and certificate cannot be used for TLS: " + e.getMessage());
        }
        SSLParameters supported = ssl.getSupportedSSLParameters();
        String[] protocols = checkedNames(cfg.protocols(), supported.getProtocols(), "ds-cfg-ssl-protocol");
        String[] suites = cfg.cipherSuites().isEmpty() ? null
                : checkedNames(cfg.cipherSuites(), supported.getCipherSuites(), "ds-cfg-ssl-cipher-suite");
        X509Certificate cert = keys.certificate();
        Instant notAfter = cert.getNotAfter().toInstant();
        if (notAfter.isBefore(Instant.now())) {
            LOG.warn("The server certificate {} expired on {}: TLS clients will refuse it. Replace {}",
                    cert.getSubjectX500Principal(), notAfter, cfg.describeFiles());
        } else if (notAfter.isBefore(Instant.now().plus(EXPIRY_WARNING))) {
            LOG.warn("The server certificate {} expires on {}. Replace {} before then",
                    cert.getSubjectX500Principal(), notAfter, cfg.describeFiles());
        }
        return new TlsContext(ssl, protocols, suites, cfg.handshakeTimeout(), cert);
    }

    private static String[] checkedNames(List<String> wanted, String[] supported, String attr)
            throws TlsConfigException {
        Set<String> known = Set.of(supported);
        for (String w : wanted) {
            if (!known.contains(w)) {
                throw new TlsConfigException(ServerConfig.Tls.CRYPTO_MANAGER + ": " + attr + ": '" + w
                        + "' is not supported by this Java; supported: " + String.join(", ", supported));
            }
        }
        return wanted.toArray(new String[0]);
    }

    /** A server-side engine for one connection, limited to the configured protocols and suites. */
    public SSLEngine newServerEngine() {
        SSLEngine engine = context.createSSLEngine();
        engine.setUseClientMode(false);
        engine.setEnabledProtocols(protocols);
        if (cipherSuites != null) {
            engine.setEnabledCipherSuites(cipherSuites);
        }
        return engine;
    }

    /** How long a client may take from the TCP connection (or StartTLS) to a finished handshake. */
    public Duration handshakeTimeout() {
        return handshakeTimeout;
    }

    /** The protocols connections may negotiate, in configured order. */
    public List<String> protocols() {
        return Arrays.asList(protocols.clone());
    }

    /** The server's certificate. */
    public X509Certificate certificate() {
        return certificate;
    }
}
