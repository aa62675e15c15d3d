package io.bindfirst.server.tls;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;

import org.conscrypt.Conscrypt;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.bindfirst.server.config.ServerConfig;

/**
 * What the listeners need to speak TLS: the JDK's {@link SSLContext} holding the server's key and chain, the
 * protocols and cipher suites a connection may negotiate, and how long a handshake may take. Each LDAPS
 * connection and each StartTLS gets a fresh {@link SSLEngine} from it.
 *
 * <p>Certificates renew without a restart: a daemon thread looks at the key and certificate files every
 * {@code ds-cfg-reload-check-interval} and, when they changed, reads them again and swaps in a new context.
 * New connections get the new certificate; established ones keep the engine they have. Files caught halfway
 * through a replacement (a new certificate with the old key) are refused with a warning and the previous
 * material stays in use until the files change again.
 */
public final class TlsContext implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(TlsContext.class);
    /** Certificates closer to their end than this are announced at start and on reload. */
    static final Duration EXPIRY_WARNING = Duration.ofDays(30);

    /** One reading of the files: what engines are made from until the files change. */
    private record Loaded(SSLContext ssl, X509Certificate certificate, FileStamp stamp) {
    }

    /**
     * Each configured file's modification time, size and identity (inode): a change of any means a reload,
     * so that a file moved into place with an older time ({@code mv}, {@code cp -p}) is seen too.
     */
    private record FileStamp(List<List<Object>> files) {
        static FileStamp of(List<Path> paths) {
            List<List<Object>> out = new ArrayList<>();
            for (Path p : paths) {
                try {
                    BasicFileAttributes a = Files.readAttributes(p, BasicFileAttributes.class);
                    out.add(Arrays.asList(a.lastModifiedTime().toMillis(), a.size(), a.fileKey()));
                } catch (IOException e) {
                    out.add(List.of("missing"));
                }
            }
            return new FileStamp(out);
        }
    }

    private final ServerConfig.Tls cfg;
    private final String[] protocols;
    private final String[] cipherSuites;
    private volatile Loaded current;
    /** The files as last tried, so that a bad replacement is reported once, not at every check. */
    private FileStamp lastTried;
    private final ScheduledExecutorService watcher;

    private TlsContext(ServerConfig.Tls cfg, Loaded loaded, String[] protocols, String[] cipherSuites) {
        this.cfg = cfg;
        this.current = loaded;
        this.lastTried = loaded.stamp();
        this.protocols = protocols;
        this.cipherSuites = cipherSuites;
        Duration every = cfg.reloadCheckInterval();
        if (every.isZero()) {
            this.watcher = null;
        } else {
            this.watcher = Executors.newSingleThreadScheduledExecutor(r -> {
                Thread t = new Thread(r, "tls-certificate-check");
                t.setDaemon(true);
                return t;
            });
            watcher.scheduleWithFixedDelay(this::reloadIfChanged, every.toMillis(), every.toMillis(),
                    TimeUnit.MILLISECONDS);
        }
    }

    /**
     * Reads the configured key material, first creating the local CA and server certificate when so
     * configured and the PEM files do not exist yet, checks the protocols and suites against the JDK's, and
     * starts watching the files.
     *
     * @param instanceName names the local CA (the instance folder's name), so two instances' CAs differ
     */
    public static TlsContext open(ServerConfig.Tls cfg, String instanceName) throws TlsConfigException {
        refuseClientRenegotiation();
        if (cfg.provider() == ServerConfig.Tls.Provider.JDK) {
            HandshakeCryptoProvider.use(cfg.handshakeCrypto() == ServerConfig.Tls.HandshakeCrypto.BOUNCY_CASTLE);
        }
        if (cfg.keyStoreType() == ServerConfig.Tls.KeyStoreType.PEM && cfg.createLocalCertificate()
                && !Files.exists(cfg.certificateFile()) && !Files.exists(cfg.privateKeyFile())) {
            try {
                new LocalCertificateAuthority().create(cfg.certificateFile(), cfg.privateKeyFile(), instanceName);
            } catch (IOException e) {
                throw new TlsConfigException("Cannot create the local CA and server certificate in "
                        + cfg.certificateFile().getParent() + ": " + e.getMessage());
            }
            LOG.info("Created a local CA and a server certificate for localhost and 127.0.0.1: clients trust {}",
                    cfg.certificateFile().resolveSibling(LocalCertificateAuthority.CA_FILE));
        }
        Loaded loaded = load(cfg);
        SSLParameters supported = loaded.ssl().getSupportedSSLParameters();
        String[] protocols = checkedNames(cfg.protocols(), supported.getProtocols(), "ds-cfg-ssl-protocol");
        String[] suites = cfg.cipherSuites().isEmpty() ? null
                : checkedNames(cfg.cipherSuites(), supported.getCipherSuites(), "ds-cfg-ssl-cipher-suite");
        warnIfExpiring(loaded.certificate(), cfg);
        return new TlsContext(cfg, loaded, protocols, suites);
    }

    /**
     * A TLS 1.2 client may ask for a new handshake on an established connection. Grizzly runs such a handshake
     * as a blocking one on the selector thread that read the request, with no time limit: a client that asks and
     * then goes quiet would hold every connection on that thread. The JDK refuses client renegotiation (with a
     * fatal alert) when this property is true; it reads it once, when the first server handshake runs, so it is
     * set before any, unless the JVM was started with a value of its own.
     */
    private static void refuseClientRenegotiation() {
        String property = "jdk.tls.rejectClientInitiatedRenegotiation";
        if (System.getProperty(property) == null) {
            System.setProperty(property, "true");
        } else if (!Boolean.getBoolean(property)) {
            LOG.warn("{}=false: a TLS 1.2 client's renegotiation blocks a selector thread until it finishes",
                    property);
        }
    }

    private static Loaded load(ServerConfig.Tls cfg) throws TlsConfigException {
        FileStamp stamp = FileStamp.of(files(cfg)); // before reading: a change during the read shows next time
        KeyMaterial keys = cfg.keyStoreType() == ServerConfig.Tls.KeyStoreType.PKCS12
                ? KeyMaterial.fromPkcs12(cfg.keyStoreFile(), cfg.keyStorePinFile())
                : KeyMaterial.fromPem(cfg.certificateFile(), cfg.privateKeyFile());
        try {
            char[] transientPin = new char[0];
            KeyStore ks = KeyStore.getInstance("PKCS12");
            ks.load(null, null);
            ks.setKeyEntry("server", keys.key(), transientPin, keys.chain().toArray(new Certificate[0]));
            KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            kmf.init(ks, transientPin);
            SSLContext ssl = newSslContext(cfg.provider());
            // Without client certificates, no trust managers (null would load and parse the JDK's whole CA store,
            // megabytes of garbage at start and on each reload, for nothing).
            ssl.init(kmf.getKeyManagers(), clientCertificateTrust(cfg.clientCertificates()), null);
            ssl.getServerSessionContext().setSessionCacheSize(cfg.sessionCache().size());
            ssl.getServerSessionContext().setSessionTimeout((int) cfg.sessionCache().lifetime().getSeconds());
            return new Loaded(ssl, keys.certificate(), stamp);
        } catch (GeneralSecurityException | IOException e) {
            throw new TlsConfigException("The server key and certificate cannot be used for TLS: " + e.getMessage());
        }
    }

    /** Trust in the configured CAs for client certificates, or none when no client certificate is asked for. */
    private static TrustManager[] clientCertificateTrust(ServerConfig.Tls.ClientCertificates client)
            throws TlsConfigException, GeneralSecurityException, IOException {
        if (!client.requested()) {
            return new TrustManager[0];
        }
        Path file = client.trustStoreFile();
        KeyStore trusted = KeyStore.getInstance("PKCS12");
        trusted.load(null, null);
        try (var in = Files.newInputStream(file)) {
            int n = 0;
            for (Certificate c : CertificateFactory.getInstance("X.509").generateCertificates(in)) {
                trusted.setCertificateEntry("client-ca-" + n++, c);
            }
            if (n == 0) {
                throw new TlsConfigException(file + " holds no certificate: put the PEM certificates of the CAs "
                        + "that sign client certificates there, or disable " + ServerConfig.Tls.TRUST_MANAGER);
            }
        } catch (java.nio.file.NoSuchFileException e) {
            throw new TlsConfigException("The client CA file " + file + " does not exist: create it with the PEM "
                    + "certificates of the CAs that sign client certificates, or disable "
                    + ServerConfig.Tls.TRUST_MANAGER);
        } catch (java.security.cert.CertificateException e) {
            throw new TlsConfigException(file + " is not a PEM certificate file: " + e.getMessage());
        }
        TrustManagerFactory tmf = TrustManagerFactory.getInstance("PKIX");
        tmf.init(trusted);
        return tmf.getTrustManagers();
    }

    /** The provider's SSLContext; Conscrypt's is made from a provider of its own, never installed JVM-wide. */
    private static SSLContext newSslContext(ServerConfig.Tls.Provider provider) throws GeneralSecurityException,
            TlsConfigException {
        if (provider == ServerConfig.Tls.Provider.JDK) {
            return SSLContext.getInstance("TLS");
        }
        if (!Conscrypt.isAvailable()) {
            throw new TlsConfigException(ServerConfig.Tls.CRYPTO_MANAGER + ": ds-cfg-ssl-provider: conscrypt: its "
                    + "native library does not load on this platform (" + System.getProperty("os.name") + " "
                    + System.getProperty("os.arch") + "); set ds-cfg-ssl-provider: jdk");
        }
        return SSLContext.getInstance("TLS", Conscrypt.newProvider());
    }

    private static List<Path> files(ServerConfig.Tls cfg) {
        List<Path> files = new ArrayList<>(cfg.keyStoreType() == ServerConfig.Tls.KeyStoreType.PKCS12
                ? List.of(cfg.keyStoreFile(), cfg.keyStorePinFile())
                : List.of(cfg.certificateFile(), cfg.privateKeyFile()));
        if (cfg.clientCertificates().requested()) {
            files.add(cfg.clientCertificates().trustStoreFile());
        }
        return files;
    }

    /** Whether handshakes ask for a client certificate (SASL EXTERNAL is offered then). */
    public boolean requestsClientCertificates() {
        return cfg.clientCertificates().requested();
    }

    /**
     * Reads the files again if they changed since they were last read (or last tried), and from then on
     * gives new connections the new certificate. Runs on the watcher thread; tests call it directly.
     *
     * @return whether a new certificate is now in use
     */
    public synchronized boolean reloadIfChanged() {
        FileStamp now = FileStamp.of(files(cfg));
        if (now.equals(current.stamp()) || now.equals(lastTried)) {
            return false;
        }
        lastTried = now;
        try {
            Loaded loaded = load(cfg);
            current = loaded;
            X509Certificate c = loaded.certificate();
            LOG.info("Reloaded the TLS certificate from {}: {} (serial {}, valid until {}); new connections use it",
                    cfg.describeFiles(), c.getSubjectX500Principal(), c.getSerialNumber().toString(16),
                    c.getNotAfter().toInstant());
            warnIfExpiring(c, cfg);
            return true;
        } catch (TlsConfigException | RuntimeException e) {
            LOG.warn("The TLS key or certificate files changed but cannot be used; connections keep the previous "
                    + "certificate: {}", e.getMessage());
            return false;
        }
    }

    private static void warnIfExpiring(X509Certificate cert, ServerConfig.Tls cfg) {
        Instant notAfter = cert.getNotAfter().toInstant();
        if (notAfter.isBefore(Instant.now())) {
            LOG.warn("The server certificate {} expired on {}: TLS clients will refuse it. Replace {}",
                    cert.getSubjectX500Principal(), notAfter, cfg.describeFiles());
        } else if (notAfter.isBefore(Instant.now().plus(EXPIRY_WARNING))) {
            LOG.warn("The server certificate {} expires on {}. Replace {} before then (no restart needed)",
                    cert.getSubjectX500Principal(), notAfter, cfg.describeFiles());
        }
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
        SSLEngine engine = current.ssl().createSSLEngine();
        engine.setUseClientMode(false);
        engine.setEnabledProtocols(protocols);
        if (cipherSuites != null) {
            engine.setEnabledCipherSuites(cipherSuites);
        }
        ServerConfig.Tls.ClientCertificates client = cfg.clientCertificates();
        if (client.requested()) {
            if (client.policy() == ServerConfig.Tls.ClientCertificates.Policy.REQUIRED) {
                engine.setNeedClientAuth(true);
            } else {
                engine.setWantClientAuth(true);
            }
        }
        if (Conscrypt.isConscrypt(engine)) {
            // Conscrypt turns tickets off, and BoringSSL resumes TLS 1.3 from tickets only: without them no
            // TLS 1.3 session would ever be resumed. The ticket keys are BoringSSL's own, random, rotated.
            Conscrypt.setUseSessionTickets(engine, true);
        }
        return engine;
    }

    /** How long a client may take from the TCP connection (or StartTLS) to a finished handshake. */
    /** Threads for handshake steps off the selector threads ({@code ds-cfg-ssl-handshake-threads}); 0: none. */
    public int handshakeThreads() {
        return cfg.handshakeThreads();
    }

    /** The handshake threads' nice value ({@code ds-cfg-ssl-handshake-thread-nice}). */
    public int handshakeNice() {
        return cfg.handshakeNice();
    }

    /** The server's TLS session cache, for tests and a monitor. */
    public javax.net.ssl.SSLSessionContext serverSessions() {
        return current.ssl().getServerSessionContext();
    }

    /** How finely the provider keeps a session's creation time (see {@link TlsStatistics#kindOf}). */
    public long sessionTimeResolutionMillis() {
        return cfg.provider() == ServerConfig.Tls.Provider.CONSCRYPT ? 1000 : 1;
    }

    public Duration handshakeTimeout() {
        return cfg.handshakeTimeout();
    }

    /** The protocols connections may negotiate, in configured order. */
    public List<String> protocols() {
        return Arrays.asList(protocols.clone());
    }

    /** The certificate new connections get. */
    public X509Certificate certificate() {
        return current.certificate();
    }

    /** Stops watching the files. */
    @Override
    public void close() {
        if (watcher != null) {
            watcher.shutdownNow();
        }
    }
}
