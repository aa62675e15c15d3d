package io.bindfirst.server.config;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.forgerock.opendj.ldap.ByteString;
import org.forgerock.opendj.ldap.DN;
import org.forgerock.opendj.ldap.Entry;

import io.bindfirst.server.backend.BackendConfig;
import io.bindfirst.server.log.AccessLogFormat;
import io.bindfirst.server.log.ErrorLog;
import io.bindfirst.server.log.LogRotation;
import io.bindfirst.server.pwd.PasswordPolicies;
import io.bindfirst.server.pwd.SchemeCosts;

/**
 * The whole server configuration, parsed once from {@code config/config.ldif} by {@link ConfigLoader}.
 * Immutable; changing a setting means building a new record (the {@code with...} methods, for tests and
 * launch options) and restarting.
 *
 * @param instanceRoot the folder relative paths were resolved against
 * @param schemaDirectory where the schema LDIF files are
 * @param listener the LDAP listener
 * @param ldapsListener the LDAPS listener (TLS from the first byte), or {@code null} when disabled
 * @param tls the key, certificate and protocols of TLS, or {@code null} when no key manager is enabled (then
 *        neither LDAPS nor StartTLS is offered)
 * @param securePasswordBinds which clients must use TLS for a simple bind with a password, or SASL PLAIN
 * @param limits server-wide search limits, which root users are exempt from
 * @param workQueue the operation worker pool
 * @param passwords password storage settings
 * @param rootUsers the root users, with their hashed passwords
 * @param backends the enabled user-data backends
 * @param sampleEntries per backend id, how many sample users to create on a first start
 * @param plugins the enabled plugins, in configuration order
 * @param accessLog the access log file and its rotation, or {@code null} when disabled
 * @param httpMetrics the HTTP listener for Prometheus and health probes (on or off, where)
 * @param sasl the SASL mechanisms besides EXTERNAL (whose settings are TLS's) and the identity mapper
 * @param accessControl whether ACIs decide access, and the global ACIs ({@code cn=Access Control Handler})
 * @param errorLog the server log's file, severity and rotation, or {@code null} for the console only
 *        ({@code cn=File-Based Error Logger,cn=Loggers}; installed by the process that runs the server)
 * @param memberOfAlias whether {@code memberOf} is served as an alias of {@code isMemberOf}
 *        ({@code ds-cfg-member-of-alias} of {@code cn=isMemberOf,cn=Virtual Attributes})
 * @param entries the configuration entries as read, served read-only under {@code cn=config}; every setting
 *        above is read from them by the loader, and nothing reads them again
 */
public record ServerConfig(Path instanceRoot, Path schemaDirectory, Listener listener, Listener ldapsListener,
                           Tls tls, SecurePasswordBinds securePasswordBinds, Limits limits,
                           WorkQueue workQueue, Passwords passwords, List<RootUser> rootUsers,
                           List<BackendConfig> backends, Map<String, Integer> sampleEntries,
                           List<PluginConfig> plugins, AccessLogFile accessLog, HttpMetrics httpMetrics,
                           Sasl sasl, AccessControlConfig accessControl, ErrorLog.Settings errorLog,
                           boolean memberOfAlias, List<Entry> entries) {

    public ServerConfig {
        rootUsers = List.copyOf(rootUsers);
        backends = List.copyOf(backends);
        sampleEntries = Map.copyOf(sampleEntries);
        plugins = List.copyOf(plugins);
        entries = List.copyOf(entries);
    }

    /**
     * {@code cn=HTTP Connection Handler,cn=Connection Handlers,cn=config}: the HTTP listener that serves
     * {@code /metrics} (Prometheus), {@code /alive} and {@code /healthy}.
     *
     * @param enabled whether the server listens for HTTP at all
     * @param address the address to listen on (loopback by default: the numbers are root-only over LDAP)
     * @param port the port; 0 picks a free one (tests)
     */
    public record HttpMetrics(boolean enabled, String address, int port) {
        public static final String ENTRY = "cn=HTTP Connection Handler,cn=Connection Handlers,cn=config";
        /** No HTTP listener: the entry is absent or disabled. */
        public static final HttpMetrics DISABLED = new HttpMetrics(false, "127.0.0.1", 8080);

        public HttpMetrics withPort(int newPort) {
            return new HttpMetrics(enabled, address, newPort);
        }

        public HttpMetrics withEnabled(boolean on) {
            return new HttpMetrics(on, address, port);
        }
    }

    /**
     * @param file the live file
     * @param rotation when it rotates and how many rotated files are kept
     * @param format its lines: OpenDJ's text or JSON ({@code ds-cfg-log-format})
     */
    public record AccessLogFile(Path file, LogRotation rotation, AccessLogFormat format) {
        /** In the text format. */
        public AccessLogFile(Path file, LogRotation rotation) {
            this(file, rotation, AccessLogFormat.TEXT);
        }
    }

    /**
     * The SASL mechanisms whose settings are not TLS's, and the identity mapper.
     *
     * @param plainEnabled whether PLAIN (RFC 4616) is offered ({@code ds-cfg-enabled} of {@link #PLAIN})
     * @param identityMapper how a user name (a PLAIN authentication identity, a {@code u:} authorization
     *        identity) is turned into an entry
     */
    public record Sasl(boolean plainEnabled, IdentityMapper identityMapper) {
        public static final String PLAIN = "cn=PLAIN,cn=SASL Mechanisms,cn=config";
        /** PLAIN offered, names mapped by {@code uid} in every user naming context: the shipped settings. */
        public static final Sasl DEFAULTS = new Sasl(true, IdentityMapper.DEFAULT);

        public Sasl withPlainEnabled(boolean on) {
            return new Sasl(on, identityMapper);
        }

        public Sasl withIdentityMapper(IdentityMapper mapper) {
            return new Sasl(plainEnabled, mapper);
        }
    }

    /**
     * {@code cn=Exact Match,cn=Identity Mappers,cn=config}, OpenDJ's "Exact Match" identity mapper: a name maps
     * to the one entry that holds it as a value of one of the match attributes (by their equality rules).
     *
     * @param enabled whether names are mapped at all; when not, only {@code dn:} identities are accepted
     * @param matchAttributes the attribute types whose values are compared with the name
     * @param matchBaseDNs where the entries are looked for; empty = every user naming context
     */
    public record IdentityMapper(boolean enabled, List<String> matchAttributes, List<DN> matchBaseDNs) {
        public static final String ENTRY = "cn=Exact Match,cn=Identity Mappers,cn=config";
        public static final IdentityMapper DEFAULT = new IdentityMapper(true, List.of("uid"), List.of());

        public IdentityMapper {
            matchAttributes = List.copyOf(matchAttributes);
            matchBaseDNs = List.copyOf(matchBaseDNs);
        }
    }

    /**
     * {@code ds-cfg-require-secure-password-binds} on {@code cn=config}: which clients get
     * confidentialityRequired for a simple bind with a password (or SASL PLAIN) on a connection without TLS.
     */
    public enum SecurePasswordBinds {
        /** Every client, loopback included. */
        ALWAYS("all-clients"),
        /** Clients connecting from an address that is not a loopback address (the default). */
        NON_LOOPBACK("non-loopback-clients"),
        /** No client: passwords may cross any network in clear. */
        NEVER("no-clients");

        private final String configValue;

        SecurePasswordBinds(String configValue) {
            this.configValue = configValue;
        }

        /** The value as {@code config.ldif} spells it. */
        public String configValue() {
            return configValue;
        }
    }

    /**
     * TLS settings: the key manager provider's files and the crypto manager's protocols.
     *
     * @param keyStoreType PEM (a key file and a chain file) or PKCS12 (a key store and a PIN file)
     * @param certificateFile PEM: the server's certificate chain, the server's own first
     * @param privateKeyFile PEM: its private key, unencrypted
     * @param keyStoreFile PKCS12: the key store
     * @param keyStorePinFile PKCS12: the file whose first line is the key store's PIN
     * @param createLocalCertificate PEM: create a local CA and a server certificate when neither file exists
     * @param protocols the TLS protocols a connection may negotiate
     * @param cipherSuites the cipher suites; empty = the JDK's defaults for those protocols
     * @param handshakeTimeout a connection whose handshake has not finished this long after it began is closed
     * @param reloadCheckInterval how often the key and certificate files are checked for a change, and read
     *        again if changed; zero = never
     * @param handshakeThreads threads that run handshake steps off the selector threads; 0 = on the selectors
     * @param handshakeNice the handshake threads' nice value (0 to 19)
     */
    public record Tls(KeyStoreType keyStoreType, Path certificateFile, Path privateKeyFile, Path keyStoreFile,
                      Path keyStorePinFile, boolean createLocalCertificate, List<String> protocols,
                      List<String> cipherSuites, java.time.Duration handshakeTimeout,
                      java.time.Duration reloadCheckInterval, Provider provider, HandshakeCrypto handshakeCrypto,
                      ClientCertificates clientCertificates, SessionCache sessionCache, int handshakeThreads,
                      int handshakeNice) {
        public static final String KEY_MANAGER = "cn=Default Key Manager,cn=Key Manager Providers,cn=config";
        public static final String CRYPTO_MANAGER = "cn=Crypto Manager,cn=config";
        public static final String TRUST_MANAGER = "cn=Default Trust Manager,cn=Trust Manager Providers,cn=config";
        public static final String SASL_EXTERNAL = "cn=EXTERNAL,cn=SASL Mechanisms,cn=config";

        public Tls {
            protocols = List.copyOf(protocols);
            cipherSuites = List.copyOf(cipherSuites);
        }

        public enum KeyStoreType { PEM, PKCS12 }

        /**
         * Client certificates, for SASL EXTERNAL (RFC 4422 appendix A, RFC 4513 5.2.3).
         *
         * @param trustStoreFile PEM certificates of the CAs whose client certificates are accepted
         *        ({@code ds-cfg-trust-store-file}); {@code null}: no certificate is asked for
         * @param policy {@code ds-cfg-ssl-client-auth-policy}: whether the handshake asks for one, or insists
         * @param validation {@code ds-cfg-certificate-validation-policy}: whether the entry the certificate maps to
         *        (by subject DN) must hold it in {@code userCertificate}
         * @param mapping {@code ds-cfg-certificate-mapping}: by subject DN, or by the certificate itself
         */
        public record ClientCertificates(Path trustStoreFile, Policy policy, Validation validation,
                                         Mapping mapping) {
            public static final ClientCertificates NONE = new ClientCertificates(null, Policy.DISABLED,
                    Validation.IF_PRESENT, Mapping.SUBJECT_EQUALS_DN);

            /** {@code ds-cfg-certificate-mapping}: how a certificate names its entry. */
            public enum Mapping {
                /** The entry whose DN is the certificate's subject. */
                SUBJECT_EQUALS_DN("subject-equals-dn"),
                /** The one entry whose {@code userCertificate} holds this very certificate, whatever its subject. */
                USER_CERTIFICATE("user-certificate");

                private final String configValue;

                Mapping(String configValue) {
                    this.configValue = configValue;
                }

                public String configValue() {
                    return configValue;
                }
            }

            /** Whether a client certificate is asked for in the handshake. */
            public boolean requested() {
                return trustStoreFile != null && policy != Policy.DISABLED;
            }

            public enum Policy {
                DISABLED("disabled"), OPTIONAL("optional"), REQUIRED("required");

                private final String configValue;

                Policy(String configValue) {
                    this.configValue = configValue;
                }

                public String configValue() {
                    return configValue;
                }
            }

            public enum Validation {
                /** The entry must hold the certificate in {@code userCertificate}. */
                ALWAYS("always"),
                /** When the entry has {@code userCertificate} values, one must be the certificate. */
                IF_PRESENT("ifpresent"),
                /** The subject DN is enough. */
                NEVER("never");

                private final String configValue;

                Validation(String configValue) {
                    this.configValue = configValue;
                }

                public String configValue() {
                    return configValue;
                }
            }
        }

        /**
         * The server's cache of TLS sessions, from which TLS 1.2 clients resume by session ID
         * ({@code ds-cfg-ssl-session-cache-size}, {@code ds-cfg-ssl-session-timeout}); TLS 1.3 resumes from
         * tickets, which the server does not keep. The JDK 17 defaults, also shipped: 20,480 sessions, 24 hours.
         */
        public record SessionCache(int size, java.time.Duration lifetime) {
            public static final SessionCache JDK_DEFAULTS = new SessionCache(20_480, java.time.Duration.ofHours(24));
        }

        /** {@code ds-cfg-ssl-provider}: whose TLS implementation the connections use. */
        public enum Provider {
            /** The JDK's own (JSSE). */
            JDK("jdk"),
            /** Conscrypt: Google's Java provider around BoringSSL, native code, from Maven Central. */
            CONSCRYPT("conscrypt");

            private final String configValue;

            Provider(String configValue) {
                this.configValue = configValue;
            }

            public String configValue() {
                return configValue;
            }
        }

        /**
         * {@code ds-cfg-ssl-handshake-crypto}, with the JDK's TLS: who computes a handshake's signatures and key
         * exchanges (ECDSA, X25519). Conscrypt does its own.
         */
        public enum HandshakeCrypto {
            /** Bouncy Castle's ECDSA and X25519, about twice as fast as JDK 17's (the default). */
            BOUNCY_CASTLE("bouncycastle"),
            /** The JDK's own. */
            JDK("jdk");

            private final String configValue;

            HandshakeCrypto(String configValue) {
                this.configValue = configValue;
            }

            public String configValue() {
                return configValue;
            }
        }

        public Tls withHandshakeTimeout(java.time.Duration timeout) {
            return new Tls(keyStoreType, certificateFile, privateKeyFile, keyStoreFile, keyStorePinFile,
                    createLocalCertificate, protocols, cipherSuites, timeout, reloadCheckInterval, provider,
                    handshakeCrypto, clientCertificates, sessionCache, handshakeThreads, handshakeNice);
        }

        public Tls withReloadCheckInterval(java.time.Duration interval) {
            return new Tls(keyStoreType, certificateFile, privateKeyFile, keyStoreFile, keyStorePinFile,
                    createLocalCertificate, protocols, cipherSuites, handshakeTimeout, interval, provider,
                    handshakeCrypto, clientCertificates, sessionCache, handshakeThreads, handshakeNice);
        }

        public Tls withProvider(Provider p) {
            return new Tls(keyStoreType, certificateFile, privateKeyFile, keyStoreFile, keyStorePinFile,
                    createLocalCertificate, protocols, cipherSuites, handshakeTimeout, reloadCheckInterval, p,
                    handshakeCrypto, clientCertificates, sessionCache, handshakeThreads, handshakeNice);
        }

        /** {@code ds-cfg-ssl-handshake-crypto}: whose public-key arithmetic the JDK's TLS handshakes use. */
        public Tls withHandshakeCrypto(HandshakeCrypto h) {
            return new Tls(keyStoreType, certificateFile, privateKeyFile, keyStoreFile, keyStorePinFile,
                    createLocalCertificate, protocols, cipherSuites, handshakeTimeout, reloadCheckInterval, provider,
                    h, clientCertificates, sessionCache, handshakeThreads, handshakeNice);
        }

        public Tls withClientCertificates(ClientCertificates c) {
            return new Tls(keyStoreType, certificateFile, privateKeyFile, keyStoreFile, keyStorePinFile,
                    createLocalCertificate, protocols, cipherSuites, handshakeTimeout, reloadCheckInterval, provider,
                    handshakeCrypto, c, sessionCache, handshakeThreads, handshakeNice);
        }

        /**
         * {@code ds-cfg-ssl-handshake-threads}: threads that run TLS handshake steps, so that the selector
         * threads, which read for every connection, never spend a handshake's CPU; 0 runs them on the selectors.
         */
        public Tls withHandshakeThreads(int n) {
            return new Tls(keyStoreType, certificateFile, privateKeyFile, keyStoreFile, keyStorePinFile,
                    createLocalCertificate, protocols, cipherSuites, handshakeTimeout, reloadCheckInterval, provider,
                    handshakeCrypto, clientCertificates, sessionCache, n, handshakeNice);
        }

        /**
         * {@code ds-cfg-ssl-handshake-thread-nice}: the nice value of the handshake threads (0 to 19), higher than
         * the other threads' so that a storm of new connections takes the CPU the established ones leave.
         */
        public Tls withHandshakeNice(int nice) {
            return new Tls(keyStoreType, certificateFile, privateKeyFile, keyStoreFile, keyStorePinFile,
                    createLocalCertificate, protocols, cipherSuites, handshakeTimeout, reloadCheckInterval, provider,
                    handshakeCrypto, clientCertificates, sessionCache, handshakeThreads, nice);
        }

        /** The configured files, for messages that ask for them to be replaced. */
        public String describeFiles() {
            return keyStoreType == KeyStoreType.PEM ? certificateFile + " and " + privateKeyFile
                    : keyStoreFile.toString();
        }
    }

    /** @param entry the plugin's configuration entry (named in errors); @param className its class */
    /**
     * @param entry the plugin's entry under {@code cn=Plugins,cn=config}
     * @param className its {@code ds-cfg-java-class}
     * @param attributeTypes its {@code ds-cfg-attribute-type} values, as written (referential integrity's)
     */
    public record PluginConfig(DN entry, String className, List<String> attributeTypes) {
        public PluginConfig {
            attributeTypes = List.copyOf(attributeTypes);
        }
    }

    /**
     * @param address the address to listen on (127.0.0.1 by default)
     * @param port the port; 0 picks a free one (tests)
     * @param backlog the TCP accept backlog
     * @param maxRequestBytes the largest request PDU accepted
     * @param maxConcurrentOpsPerConnection requests one connection may have outstanding
     * @param maxConnections client connections open at once; one more is refused with a notice of disconnection
     * @param selectorThreads threads that read, decode and write for all connections (already resolved from
     *        0 = automatic)
     * @param inlineOperations when operations that may start on the selector thread that read them do
     * @param bindCeiling benchmark only: every bind succeeds without backend or password check
     * @param useSsl LDAPS: every connection starts with a TLS handshake
     * @param allowStartTls whether the StartTLS extended operation is offered (on a listener without SSL)
     */
    public record Listener(String address, int port, int backlog, int maxRequestBytes,
                           int maxConcurrentOpsPerConnection, int maxConnections, int selectorThreads,
                           Inline inlineOperations, boolean bindCeiling, boolean useSsl, boolean allowStartTls) {

        /**
         * {@code ds-cfg-inline-cheap-operations}: when an operation that can tell it is cheap (a bind whose
         * entry is in memory) runs on the selector thread that read it instead of waking a worker.
         */
        public enum Inline {
            /** Every operation is handed to a worker. */
            NEVER("never"),
            /** Whenever the operation and its connection allow it. */
            ALWAYS("always"),
            /** Only while no operation waits or runs on the workers (otherwise one is awake anyway). */
            WHEN_WORKERS_IDLE("when-workers-idle");

            private final String configValue;

            Inline(String configValue) {
                this.configValue = configValue;
            }

            /** The value as {@code config.ldif} spells it. */
            public String configValue() {
                return configValue;
            }
        }

        public Listener withPort(int newPort) {
            return new Listener(address, newPort, backlog, maxRequestBytes, maxConcurrentOpsPerConnection,
                    maxConnections, selectorThreads, inlineOperations, bindCeiling, useSsl, allowStartTls);
        }

        public Listener withBindCeiling(boolean on) {
            return new Listener(address, port, backlog, maxRequestBytes, maxConcurrentOpsPerConnection,
                    maxConnections, selectorThreads, inlineOperations, on, useSsl, allowStartTls);
        }

        public Listener withMaxConnections(int max) {
            return new Listener(address, port, backlog, maxRequestBytes, maxConcurrentOpsPerConnection,
                    max, selectorThreads, inlineOperations, bindCeiling, useSsl, allowStartTls);
        }

        public Listener withMaxRequestBytes(int max) {
            return new Listener(address, port, backlog, max, maxConcurrentOpsPerConnection,
                    maxConnections, selectorThreads, inlineOperations, bindCeiling, useSsl, allowStartTls);
        }

        public Listener withMaxConcurrentOpsPerConnection(int max) {
            return new Listener(address, port, backlog, maxRequestBytes, max,
                    maxConnections, selectorThreads, inlineOperations, bindCeiling, useSsl, allowStartTls);
        }

        public Listener withInlineOperations(Inline when) {
            return new Listener(address, port, backlog, maxRequestBytes, maxConcurrentOpsPerConnection,
                    maxConnections, selectorThreads, when, bindCeiling, useSsl, allowStartTls);
        }

        /** @param threads the resolved count, at least 1 (0 = automatic exists only in config.ldif) */
        public Listener withSelectorThreads(int threads) {
            return new Listener(address, port, backlog, maxRequestBytes, maxConcurrentOpsPerConnection,
                    maxConnections, threads, inlineOperations, bindCeiling, useSsl, allowStartTls);
        }
    }

    /**
     * Zero means unlimited, as in RFC 4511 requests.
     *
     * @param idleTimeLimitSeconds a connection with no operation in progress and no request for this long is
     *        sent a notice of disconnection and closed; 0 = never
     * @param sortLimit the most entries a search with the Server-Side Sort control may match (they are sorted in
     *        memory), for root users too; 0 = no bound
     */
    public record Limits(int sizeLimit, int timeLimitSeconds, int lookthroughLimit, int idleTimeLimitSeconds,
                         int sortLimit) {
        /** {@code ds-cfg-sort-limit}'s default: entries a Server-Side Sort holds in memory, for anyone. */
        public static final int DEFAULT_SORT_LIMIT = 1000;

        public Limits(int sizeLimit, int timeLimitSeconds, int lookthroughLimit, int idleTimeLimitSeconds) {
            this(sizeLimit, timeLimitSeconds, lookthroughLimit, idleTimeLimitSeconds, DEFAULT_SORT_LIMIT);
        }

        public Limits(int sizeLimit, int timeLimitSeconds, int lookthroughLimit) {
            this(sizeLimit, timeLimitSeconds, lookthroughLimit, 0);
        }
    }

    /**
     * @param workerThreads worker threads (already resolved from 0 = automatic)
     * @param capacity operations held before the transport stops reading
     * @param slowLaneThreads threads of the slow lane, where expensive operations run
     * @param slowLaneCpuShare percent of each slow-lane thread's time it may work while the workers have work
     * @param slowLanePasswordWorkFactor a stored password at least this costly (PBKDF2 iterations or their
     *        equivalent) is checked on the slow lane
     */
    public record WorkQueue(int workerThreads, int capacity, int slowLaneThreads, int slowLaneCpuShare,
                            long slowLanePasswordWorkFactor) {

        /** @param threads the resolved count, at least 1 (0 = automatic exists only in config.ldif) */
        public WorkQueue withWorkerThreads(int threads) {
            return new WorkQueue(threads, capacity, slowLaneThreads, slowLaneCpuShare, slowLanePasswordWorkFactor);
        }

        public WorkQueue withCapacity(int newCapacity) {
            return new WorkQueue(workerThreads, newCapacity, slowLaneThreads, slowLaneCpuShare,
                    slowLanePasswordWorkFactor);
        }
    }

    /**
     * @param defaultScheme the storage scheme of new passwords
     * @param allowClearText whether stored values without a scheme match as clear text
     * @param verifiedCredentialCacheSize records of the verified-credential cache (costly password checks that
     *        succeeded, remembered as an HMAC); 0 = off
     * @param policies the password policies (lockout)
     */
    public record Passwords(String defaultScheme, boolean allowClearText, int verifiedCredentialCacheSize,
                            PasswordPolicies policies, SchemeCosts costs) {
        /** {@code ds-cfg-verified-credential-cache-size} when config.ldif does not set it. */
        public static final int DEFAULT_VERIFIED_CREDENTIAL_CACHE_SIZE = 10_000;

        /** The default cache size, and only the default password policy, which locks nothing out. */
        public Passwords(String defaultScheme, boolean allowClearText) {
            this(defaultScheme, allowClearText, DEFAULT_VERIFIED_CREDENTIAL_CACHE_SIZE, PasswordPolicies.defaults());
        }

        /** With the default scheme costs. */
        public Passwords(String defaultScheme, boolean allowClearText, int verifiedCredentialCacheSize,
                         PasswordPolicies policies) {
            this(defaultScheme, allowClearText, verifiedCredentialCacheSize, policies, SchemeCosts.DEFAULTS);
        }

        public Passwords withVerifiedCredentialCacheSize(int size) {
            return new Passwords(defaultScheme, allowClearText, size, policies, costs);
        }

        public Passwords withPolicies(PasswordPolicies newPolicies) {
            return new Passwords(defaultScheme, allowClearText, verifiedCredentialCacheSize, newPolicies, costs);
        }

        public Passwords withCosts(SchemeCosts newCosts) {
            return new Passwords(defaultScheme, allowClearText, verifiedCredentialCacheSize, policies, newCosts);
        }
    }

    /**
     * @param dn the root user's entry under {@code cn=Root DNs,cn=config}
     * @param alternateBindDNs other DNs it may bind with, e.g. {@code cn=Directory Manager}
     * @param passwords its stored (hashed) passwords
     */
    public record RootUser(DN dn, List<DN> alternateBindDNs, List<ByteString> passwords) {
        public RootUser {
            alternateBindDNs = List.copyOf(alternateBindDNs);
            passwords = List.copyOf(passwords);
        }
    }

    public ServerConfig withListener(Listener newListener) {
        return new ServerConfig(instanceRoot, schemaDirectory, newListener, ldapsListener, tls, securePasswordBinds,
                limits, workQueue, passwords,
                rootUsers, backends, sampleEntries, plugins, accessLog, httpMetrics, sasl,
                accessControl, errorLog, memberOfAlias, entries);
    }

    /** @param newAccessLog the access log and its rotation, or {@code null} for none */
    public ServerConfig withAccessLog(AccessLogFile newAccessLog) {
        return new ServerConfig(instanceRoot, schemaDirectory, listener, ldapsListener, tls, securePasswordBinds,
                limits, workQueue, passwords,
                rootUsers, backends, sampleEntries, plugins, newAccessLog, httpMetrics, sasl,
                accessControl, errorLog, memberOfAlias, entries);
    }

    /** @param newLdaps the LDAPS listener, or {@code null} for none */
    public ServerConfig withLdapsListener(Listener newLdaps) {
        return new ServerConfig(instanceRoot, schemaDirectory, listener, newLdaps, tls, securePasswordBinds, limits,
                workQueue, passwords, rootUsers, backends, sampleEntries, plugins, accessLog, httpMetrics, sasl,
                accessControl, errorLog, memberOfAlias, entries);
    }

    /** @param newTls the TLS settings, or {@code null} for no TLS at all */
    public ServerConfig withTls(Tls newTls) {
        return new ServerConfig(instanceRoot, schemaDirectory, listener, ldapsListener, newTls, securePasswordBinds,
                limits, workQueue, passwords, rootUsers, backends, sampleEntries, plugins, accessLog,
                httpMetrics, sasl, accessControl, errorLog, memberOfAlias, entries);
    }

    /** The same backends with one more equality index on each ({@code ds-cfg-equality-index}). */
    public ServerConfig withEqualityIndex(String attribute) {
        return withIndex(io.bindfirst.server.backend.IndexType.EQUALITY, attribute);
    }

    /** The same backends with one more index of {@code kind} on each ({@code ds-cfg-<kind>-index}). */
    public ServerConfig withIndex(io.bindfirst.server.backend.IndexType kind, String attribute) {
        List<BackendConfig> indexed = new ArrayList<>();
        for (BackendConfig b : backends) {
            indexed.add(b.withIndex(kind, attribute));
        }
        return new ServerConfig(instanceRoot, schemaDirectory, listener, ldapsListener, tls, securePasswordBinds,
                limits, workQueue, passwords, rootUsers, indexed, sampleEntries, plugins, accessLog,
                httpMetrics, sasl, accessControl, errorLog, memberOfAlias, entries);
    }

    public ServerConfig withHttpMetrics(HttpMetrics newHttpMetrics) {
        return new ServerConfig(instanceRoot, schemaDirectory, listener, ldapsListener, tls, securePasswordBinds,
                limits, workQueue, passwords, rootUsers, backends, sampleEntries, plugins, accessLog, newHttpMetrics,
                sasl, accessControl, errorLog, memberOfAlias, entries);
    }

    public ServerConfig withSasl(Sasl newSasl) {
        return new ServerConfig(instanceRoot, schemaDirectory, listener, ldapsListener, tls, securePasswordBinds,
                limits, workQueue, passwords, rootUsers, backends, sampleEntries, plugins, accessLog, httpMetrics,
                newSasl, accessControl, errorLog, memberOfAlias, entries);
    }

    public ServerConfig withSecurePasswordBinds(SecurePasswordBinds which) {
        return new ServerConfig(instanceRoot, schemaDirectory, listener, ldapsListener, tls, which, limits,
                workQueue, passwords, rootUsers, backends, sampleEntries, plugins, accessLog, httpMetrics, sasl,
                accessControl, errorLog, memberOfAlias, entries);
    }

    public ServerConfig withPasswords(Passwords newPasswords) {
        return new ServerConfig(instanceRoot, schemaDirectory, listener, ldapsListener, tls, securePasswordBinds,
                limits, workQueue, newPasswords, rootUsers, backends, sampleEntries, plugins, accessLog,
                httpMetrics, sasl, accessControl, errorLog, memberOfAlias, entries);
    }

    public ServerConfig withListenPort(int port) {
        return withListener(listener.withPort(port));
    }

    public ServerConfig withBindCeiling(boolean on) {
        return withListener(listener.withBindCeiling(on));
    }

    public ServerConfig withLimits(Limits newLimits) {
        return new ServerConfig(instanceRoot, schemaDirectory, listener, ldapsListener, tls, securePasswordBinds,
                newLimits, workQueue, passwords,
                rootUsers, backends, sampleEntries, plugins, accessLog, httpMetrics, sasl,
                accessControl, errorLog, memberOfAlias, entries);
    }

    /** The same configuration with these password policies (tests; a server reads them from cn=config). */
    public ServerConfig withPasswordPolicies(PasswordPolicies policies) {
        return new ServerConfig(instanceRoot, schemaDirectory, listener, ldapsListener, tls, securePasswordBinds,
                limits, workQueue, passwords.withPolicies(policies),
                rootUsers, backends, sampleEntries, plugins, accessLog, httpMetrics, sasl,
                accessControl, errorLog, memberOfAlias, entries);
    }

    public ServerConfig withWorkQueue(WorkQueue newWorkQueue) {
        return new ServerConfig(instanceRoot, schemaDirectory, listener, ldapsListener, tls, securePasswordBinds,
                limits, newWorkQueue, passwords,
                rootUsers, backends, sampleEntries, plugins, accessLog, httpMetrics, sasl,
                accessControl, errorLog, memberOfAlias, entries);
    }

    public ServerConfig withSampleEntries(Map<String, Integer> newSampleEntries) {
        return new ServerConfig(instanceRoot, schemaDirectory, listener, ldapsListener, tls, securePasswordBinds,
                limits, workQueue, passwords,
                rootUsers, backends, newSampleEntries, plugins, accessLog, httpMetrics, sasl,
                accessControl, errorLog, memberOfAlias, entries);
    }

    /** The configuration with these access control settings (as {@code cn=Access Control Handler} would say). */
    public ServerConfig withAccessControl(AccessControlConfig newAccessControl) {
        return new ServerConfig(instanceRoot, schemaDirectory, listener, ldapsListener, tls, securePasswordBinds,
                limits, workQueue, passwords, rootUsers, backends, sampleEntries, plugins, accessLog, httpMetrics,
                sasl, newAccessControl, errorLog, memberOfAlias, entries);
    }

    /** One more root user (not added to {@link #entries}, which mirror the file as read). */
    public ServerConfig withRootUser(RootUser rootUser) {
        List<RootUser> more = new ArrayList<>(rootUsers);
        more.add(rootUser);
        return new ServerConfig(instanceRoot, schemaDirectory, listener, ldapsListener, tls, securePasswordBinds,
                limits, workQueue, passwords,
                more, backends, sampleEntries, plugins, accessLog, httpMetrics, sasl,
                accessControl, errorLog, memberOfAlias, entries);
    }

    /**
     * The backend {@code backendId} opened by another {@link io.bindfirst.server.backend.BackendProvider}.
     *
     * @throws IllegalArgumentException if no backend has that id
     */
    public ServerConfig withBackendType(String backendId, String type) {
        if (backends.stream().noneMatch(b -> b.id().equals(backendId))) {
            throw new IllegalArgumentException("no backend " + backendId);
        }
        List<BackendConfig> changed = new ArrayList<>();
        for (BackendConfig b : backends) {
            changed.add(!b.id().equals(backendId) ? b : new BackendConfig(b.id(), type, b.baseDNs(),
                    b.directory(), b.equalityIndexes(), b.cacheBytes(), b.bindCacheEntries(), b.otherIndexes(),
                    b.freeDiskBytes(), b.lookupCacheEntries(), b.replication()));
        }
        return new ServerConfig(instanceRoot, schemaDirectory, listener, ldapsListener, tls, securePasswordBinds,
                limits, workQueue, passwords,
                rootUsers, changed, sampleEntries, plugins, accessLog, httpMetrics, sasl,
                accessControl, errorLog, memberOfAlias, entries);
    }
}
