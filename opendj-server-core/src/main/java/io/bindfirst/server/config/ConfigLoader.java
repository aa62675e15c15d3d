package io.bindfirst.server.config;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import org.forgerock.opendj.ldap.Attribute;
import org.forgerock.opendj.ldap.ByteString;
import org.forgerock.opendj.ldap.DN;
import org.forgerock.opendj.ldap.Entry;
import org.forgerock.i18n.LocalizedIllegalArgumentException;
import org.forgerock.opendj.ldap.schema.Schema;
import org.forgerock.opendj.ldif.LDIFEntryReader;

import io.bindfirst.server.backend.BackendConfig;
import io.bindfirst.server.backend.IndexType;
import io.bindfirst.server.log.ErrorLog;
import io.bindfirst.server.log.AccessLogFormat;
import io.bindfirst.server.log.LogRotation;
import io.bindfirst.server.pwd.Argon2Scheme;
import io.bindfirst.server.pwd.PasswordAttribute;
import io.bindfirst.server.pwd.Pbkdf2HmacSha256Scheme;
import io.bindfirst.server.pwd.SchemeCosts;
import io.bindfirst.server.work.ThreadNice;

/**
 * Reads {@code config.ldif} once into a {@link ServerConfig}. Every value is checked here, so a bad one
 * stops the start with a message naming the entry and attribute instead of failing later.
 */
public final class ConfigLoader {
    static final DN ROOT = DN.valueOf("cn=config");
    static final DN WORK_QUEUE = DN.valueOf("cn=Work Queue,cn=config");
    static final DN LDAP_HANDLER = DN.valueOf("cn=LDAP Connection Handler,cn=Connection Handlers,cn=config");
    static final DN LDAPS_HANDLER = DN.valueOf("cn=LDAPS Connection Handler,cn=Connection Handlers,cn=config");
    static final DN HTTP_HANDLER = DN.valueOf(ServerConfig.HttpMetrics.ENTRY);
    static final DN KEY_MANAGER = DN.valueOf(ServerConfig.Tls.KEY_MANAGER);
    static final DN CRYPTO_MANAGER = DN.valueOf(ServerConfig.Tls.CRYPTO_MANAGER);
    static final DN TRUST_MANAGER = DN.valueOf(ServerConfig.Tls.TRUST_MANAGER);
    /**
     * Handshake steps off the selector threads by default: during a storm of new TLS clients, connections already
     * up kept half the bind latency (p50) and up to twice the binds/s that way (docs/BENCHMARKS.md).
     */
    static final int DEFAULT_HANDSHAKE_THREADS = 2;
    /** The handshake threads' nice value: the lowest priority, as measured in docs/BENCHMARKS.md ("TLS"). */
    static final int DEFAULT_HANDSHAKE_NICE = 19;
    static final DN SASL_EXTERNAL = DN.valueOf(ServerConfig.Tls.SASL_EXTERNAL);
    static final DN SASL_PLAIN = DN.valueOf(ServerConfig.Sasl.PLAIN);
    static final DN IDENTITY_MAPPER = DN.valueOf(ServerConfig.IdentityMapper.ENTRY);
    /** An attribute description's type: a name (RFC 4512 keystring) or a numeric OID. */
    private static final java.util.regex.Pattern ATTRIBUTE_TYPE =
            java.util.regex.Pattern.compile("[A-Za-z][A-Za-z0-9-]*|[0-9]+(\\.[0-9]+)+");
    static final DN PASSWORDS = DN.valueOf("cn=Password Storage Schemes,cn=config");
    static final DN ROOT_DNS = DN.valueOf("cn=Root DNs,cn=config");
    static final DN BACKENDS = DN.valueOf("cn=Backends,cn=config");
    static final DN ACCESS_LOGGER = DN.valueOf("cn=File-Based Access Logger,cn=Loggers,cn=config");
    static final DN PLUGINS = DN.valueOf("cn=Plugins,cn=config");
    /** The entry that configures the isMemberOf virtual attribute (its memberOf alias). */
    static final DN IS_MEMBER_OF = DN.valueOf("cn=isMemberOf,cn=Virtual Attributes,cn=config");
    /**
     * The entry that configured the registry's upkeep as a plugin before it was built into the server (it is now a
     * listener of every committed change and cannot be turned off): read and ignored, so that an instance set up
     * before keeps starting.
     */
    static final DN RETIRED_REGISTRY_PLUGIN = DN.valueOf("cn=Authenticated Users,cn=Plugins,cn=config");

    private final Map<DN, Entry> entries;
    private final Path instanceRoot;

    private ConfigLoader(Map<DN, Entry> entries, Path instanceRoot) {
        this.entries = entries;
        this.instanceRoot = instanceRoot;
    }

    /**
     * @param configFile the LDIF file
     * @param instanceRoot what relative paths in it are resolved against
     */
    public static ServerConfig load(Path configFile, Path instanceRoot) throws ConfigException {
        Map<DN, Entry> entries = new LinkedHashMap<>();
        try (InputStream in = Files.newInputStream(configFile);
             LDIFEntryReader reader = new LDIFEntryReader(in)) {
            while (reader.hasNext()) {
                Entry e = reader.readEntry();
                if (entries.putIfAbsent(e.getName(), e) != null) {
                    throw new ConfigException(configFile + ": entry " + e.getName() + " appears twice");
                }
            }
        } catch (NoSuchFileException e) {
            throw new ConfigException("Configuration file " + configFile + " does not exist");
        } catch (IOException | LocalizedIllegalArgumentException e) {
            throw new ConfigException(configFile + " is not valid LDIF: " + e.getMessage(), e);
        }
        return new ConfigLoader(entries, instanceRoot.toAbsolutePath().normalize()).toConfig();
    }

    private ServerConfig toConfig() throws ConfigException {
        Entry root = require(ROOT);
        ServerConfig.Limits limits = new ServerConfig.Limits(
                integer(root, "ds-cfg-size-limit", 1000, 0, Integer.MAX_VALUE),
                integer(root, "ds-cfg-time-limit", 60, 0, Integer.MAX_VALUE),
                integer(root, "ds-cfg-lookthrough-limit", 5000, 0, Integer.MAX_VALUE),
                integer(root, "ds-cfg-idle-time-limit", 0, 0, Integer.MAX_VALUE),
                integer(root, "ds-cfg-sort-limit", ServerConfig.Limits.DEFAULT_SORT_LIMIT, 0, Integer.MAX_VALUE));
        Path schemaDir = path(root, "ds-cfg-schema-directory", "config/schema");

        Entry wq = require(WORK_QUEUE);
        int threads = integer(wq, "ds-cfg-num-worker-threads", 0, 0, 4096);
        if (threads == 0) {
            threads = Math.max(4, 2 * Runtime.getRuntime().availableProcessors());
        }
        ServerConfig.WorkQueue workQueue = new ServerConfig.WorkQueue(threads,
                integer(wq, "ds-cfg-max-work-queue-capacity", 10_000, 1, 10_000_000),
                integer(wq, "ds-cfg-num-slow-lane-threads", 2, 1, 1024),
                integer(wq, "ds-cfg-slow-lane-cpu-share", 5, 1, 100),
                integer(wq, "ds-cfg-slow-lane-password-work-factor", 1_000, 1, Integer.MAX_VALUE));

        Entry ldap = require(LDAP_HANDLER);
        if (!bool(ldap, "ds-cfg-enabled", true)) {
            throw new ConfigException(LDAP_HANDLER + ": ds-cfg-enabled: the LDAP connection handler is the "
                    + "only way in and cannot be disabled");
        }
        int selectors = integer(ldap, "ds-cfg-num-request-handlers", 0, 0, 256);
        if (selectors == 0) {
            selectors = Math.max(2, Runtime.getRuntime().availableProcessors() / 2);
        }
        ServerConfig.Listener listener = new ServerConfig.Listener(
                string(ldap, "ds-cfg-listen-address", "127.0.0.1"),
                integer(ldap, "ds-cfg-listen-port", 1389, 0, 65535),
                integer(ldap, "ds-cfg-accept-backlog", 4096, 1, 65535),
                integer(ldap, "ds-cfg-max-request-size", 5 * 1024 * 1024, 1024, Integer.MAX_VALUE),
                integer(ldap, "ds-cfg-max-concurrent-ops-per-connection", 100, 1, 65536),
                integer(ldap, "ds-cfg-max-allowed-client-connections", 16384, 1, 10_000_000),
                selectors,
                inline(ldap),
                bool(ldap, "ds-cfg-benchmark-bind-ceiling", false),
                false,
                bool(ldap, "ds-cfg-allow-start-tls", true));
        if (bool(ldap, "ds-cfg-use-ssl", false)) {
            throw new ConfigException(LDAP_HANDLER + ": ds-cfg-use-ssl: LDAPS has its own connection handler, "
                    + LDAPS_HANDLER);
        }
        ServerConfig.Tls tls = tls();
        ServerConfig.Listener ldapsListener = null;
        Entry ldaps = entries.get(LDAPS_HANDLER);
        if (ldaps != null && bool(ldaps, "ds-cfg-enabled", true)) {
            if (tls == null) {
                throw new ConfigException(LDAPS_HANDLER + ": ds-cfg-enabled: LDAPS needs the key manager "
                        + KEY_MANAGER + " enabled (or disable LDAPS)");
            }
            // The limits shared by every connection (their maximum number, the request handler threads) are
            // the LDAP handler's; the rest is this listener's own.
            ldapsListener = new ServerConfig.Listener(
                    string(ldaps, "ds-cfg-listen-address", "127.0.0.1"),
                    integer(ldaps, "ds-cfg-listen-port", 1636, 0, 65535),
                    integer(ldaps, "ds-cfg-accept-backlog", 4096, 1, 65535),
                    integer(ldaps, "ds-cfg-max-request-size", 5 * 1024 * 1024, 1024, Integer.MAX_VALUE),
                    integer(ldaps, "ds-cfg-max-concurrent-ops-per-connection", 100, 1, 65536),
                    listener.maxConnections(), selectors, inline(ldaps), listener.bindCeiling(), true, false);
            if (!bool(ldaps, "ds-cfg-use-ssl", true)) {
                throw new ConfigException(LDAPS_HANDLER + ": ds-cfg-use-ssl: the LDAPS handler always uses SSL");
            }
        }
        if (tls == null && listener.allowStartTls()) {
            listener = new ServerConfig.Listener(listener.address(), listener.port(), listener.backlog(),
                    listener.maxRequestBytes(), listener.maxConcurrentOpsPerConnection(), listener.maxConnections(),
                    listener.selectorThreads(), listener.inlineOperations(), listener.bindCeiling(), false, false);
        }
        ServerConfig.SecurePasswordBinds securePasswordBinds = securePasswordBinds(root);

        Entry pw = require(PASSWORDS);
        ServerConfig.Passwords passwords = new ServerConfig.Passwords(
                string(pw, "ds-cfg-default-password-storage-scheme", "SSHA512"),
                bool(pw, "ds-cfg-allow-clear-text-passwords", false),
                integer(pw, "ds-cfg-verified-credential-cache-size",
                        ServerConfig.Passwords.DEFAULT_VERIFIED_CREDENTIAL_CACHE_SIZE, 0, Integer.MAX_VALUE),
                PasswordPolicyConfig.read(entries), schemeCosts(pw));

        List<ServerConfig.RootUser> rootUsers = new ArrayList<>();
        List<BackendConfig> backends = new ArrayList<>();
        Map<String, Integer> samples = new HashMap<>();
        List<ServerConfig.PluginConfig> plugins = new ArrayList<>();
        for (Entry e : entries.values()) {
            DN dn = e.getName();
            if (dn.isChildOf(PLUGINS)) {
                if (dn.equals(RETIRED_REGISTRY_PLUGIN)) {
                    continue;
                }
                String className = requiredString(e, "ds-cfg-java-class");
                if (bool(e, "ds-cfg-enabled", true)) {
                    plugins.add(new ServerConfig.PluginConfig(dn, className, strings(e, "ds-cfg-attribute-type")));
                }
            } else if (dn.isChildOf(ROOT_DNS)) {
                rootUsers.add(rootUser(e));
            } else if (dn.isChildOf(BACKENDS) && bool(e, "ds-cfg-enabled", true)) {
                BackendConfig b = backend(e);
                backends.add(b);
                samples.put(b.id(), integer(e, "ds-cfg-sample-entries", 0, 0, 10_000_000));
            }
        }
        if (rootUsers.isEmpty()) {
            throw new ConfigException(ROOT_DNS + ": no root user is configured below it");
        }
        checkDistinctBaseDNs(backends);

        ServerConfig.AccessLogFile accessLog = null;
        Entry logger = entries.get(ACCESS_LOGGER);
        if (logger != null && bool(logger, "ds-cfg-enabled", true)) {
            accessLog = new ServerConfig.AccessLogFile(path(logger, "ds-cfg-log-file", "logs/access"),
                    new LogRotation(
                            ConfigUnits.bytes(logger.getName() + ": ds-cfg-file-size-limit",
                                    string(logger, "ds-cfg-file-size-limit", "100 mb")),
                            ConfigUnits.duration(logger.getName() + ": ds-cfg-rotation-interval",
                                    string(logger, "ds-cfg-rotation-interval", "1 d")),
                            integer(logger, "ds-cfg-number-of-files", 10, 1, 100_000)),
                    logFormat(logger));
        }
        Entry errorLogger = entries.get(ErrorLogConfig.ENTRY);
        ErrorLog.Settings errorLog = errorLogger == null ? null
                : ErrorLogConfig.read(errorLogger, instanceRoot).orElse(null); // installed by the process (Launcher)
        Entry accessControl = entries.get(AccessControlConfig.ENTRY);
        Entry isMemberOf = entries.get(IS_MEMBER_OF);
        return new ServerConfig(instanceRoot, schemaDir, listener, ldapsListener, tls, securePasswordBinds, limits,
                workQueue, passwords, rootUsers, backends, samples, plugins, accessLog, httpMetrics(), sasl(backends),
                accessControl == null ? AccessControlConfig.OFF : AccessControlConfig.read(accessControl), errorLog,
                isMemberOf != null && bool(isMemberOf, "ds-cfg-member-of-alias", false),
                List.copyOf(entries.values()));
    }

    /**
     * PLAIN (on unless its entry says otherwise) and the identity mapper. A match base DN must lie in a user
     * backend, or above one: anywhere else there is nothing to find (the configuration's entries never map).
     */
    private ServerConfig.Sasl sasl(List<BackendConfig> backends) throws ConfigException {
        Entry plain = entries.get(SASL_PLAIN);
        boolean plainEnabled = plain == null || bool(plain, "ds-cfg-enabled", true);
        if (plain != null) {
            String named = single(plain, "ds-cfg-identity-mapper");
            if (named != null && !dn(plain, "ds-cfg-identity-mapper", named).equals(IDENTITY_MAPPER)) {
                throw new ConfigException(SASL_PLAIN + ": ds-cfg-identity-mapper: '" + named + "' is not the identity "
                        + "mapper: the server has one, " + IDENTITY_MAPPER);
            }
        }
        Entry mapper = entries.get(IDENTITY_MAPPER);
        if (mapper == null) {
            return new ServerConfig.Sasl(plainEnabled, ServerConfig.IdentityMapper.DEFAULT);
        }
        List<String> attributes = strings(mapper, "ds-cfg-match-attribute");
        for (String a : attributes) {
            if (!ATTRIBUTE_TYPE.matcher(a).matches()) {
                throw new ConfigException(IDENTITY_MAPPER + ": ds-cfg-match-attribute: '" + a + "' is not an "
                        + "attribute type name or OID");
            }
        }
        if (attributes.isEmpty()) {
            attributes = ServerConfig.IdentityMapper.DEFAULT.matchAttributes();
        }
        List<DN> bases = new ArrayList<>();
        for (ByteString v : values(mapper, "ds-cfg-match-base-dn")) {
            DN base = dn(mapper, "ds-cfg-match-base-dn", v.toString().trim());
            boolean inUserData = false;
            for (BackendConfig b : backends) {
                for (DN suffix : b.baseDNs()) {
                    inUserData |= base.isSubordinateOrEqualTo(suffix) || suffix.isSubordinateOrEqualTo(base);
                }
            }
            if (!inUserData) {
                throw new ConfigException(IDENTITY_MAPPER + ": ds-cfg-match-base-dn: '" + base + "' is in no "
                        + "user backend and above none");
            }
            bases.add(base);
        }
        return new ServerConfig.Sasl(plainEnabled,
                new ServerConfig.IdentityMapper(bool(mapper, "ds-cfg-enabled", true), attributes, bases));
    }

    /** The HTTP listener for metrics and health probes: off when its entry is absent, on unless disabled there. */
    private ServerConfig.HttpMetrics httpMetrics() throws ConfigException {
        Entry http = entries.get(HTTP_HANDLER);
        if (http == null) {
            return ServerConfig.HttpMetrics.DISABLED;
        }
        return new ServerConfig.HttpMetrics(bool(http, "ds-cfg-enabled", true),
                string(http, "ds-cfg-listen-address", "127.0.0.1"),
                integer(http, "ds-cfg-listen-port", 8080, 0, 65535));
    }

    /** The key manager provider and the crypto manager, or {@code null} when the key manager is absent or disabled. */
    private ServerConfig.Tls tls() throws ConfigException {
        Entry km = entries.get(KEY_MANAGER);
        if (km == null || !bool(km, "ds-cfg-enabled", true)) {
            return null;
        }
        String type = string(km, "ds-cfg-key-store-type", "PEM").toUpperCase(Locale.ROOT);
        ServerConfig.Tls.KeyStoreType keyStoreType;
        try {
            keyStoreType = ServerConfig.Tls.KeyStoreType.valueOf(type);
        } catch (IllegalArgumentException e) {
            throw new ConfigException(KEY_MANAGER + ": ds-cfg-key-store-type: '" + type + "' is not PEM or PKCS12");
        }
        Path keyStore = null;
        Path pin = null;
        if (keyStoreType == ServerConfig.Tls.KeyStoreType.PKCS12) {
            keyStore = path(km, "ds-cfg-key-store-file", "config/tls/keystore.p12");
            pin = path(km, "ds-cfg-key-store-pin-file", "config/tls/keystore.pin");
        }
        Entry crypto = entries.get(CRYPTO_MANAGER);
        List<String> protocols = List.of("TLSv1.3", "TLSv1.2");
        List<String> suites = List.of();
        java.time.Duration handshakeTimeout = java.time.Duration.ofSeconds(10);
        ServerConfig.Tls.Provider provider = ServerConfig.Tls.Provider.JDK;
        ServerConfig.Tls.HandshakeCrypto handshakeCrypto = ServerConfig.Tls.HandshakeCrypto.BOUNCY_CASTLE;
        ServerConfig.Tls.SessionCache sessions = ServerConfig.Tls.SessionCache.JDK_DEFAULTS;
        int handshakeThreads = DEFAULT_HANDSHAKE_THREADS;
        int handshakeNice = DEFAULT_HANDSHAKE_NICE;
        if (crypto != null) {
            handshakeThreads = integer(crypto, "ds-cfg-ssl-handshake-threads", DEFAULT_HANDSHAKE_THREADS, 0, 64);
            handshakeNice = integer(crypto, "ds-cfg-ssl-handshake-thread-nice", DEFAULT_HANDSHAKE_NICE, 0,
                    ThreadNice.MOST);
            provider = provider(crypto);
            handshakeCrypto = handshakeCrypto(crypto);
            // 0 would be the JDK's "no limit": a storm of new clients would grow the cache without end.
            int cacheSize = integer(crypto, "ds-cfg-ssl-session-cache-size", sessions.size(), 1, Integer.MAX_VALUE);
            java.time.Duration lifetime = ConfigUnits.duration(CRYPTO_MANAGER + ": ds-cfg-ssl-session-timeout",
                    string(crypto, "ds-cfg-ssl-session-timeout", "24 h"));
            if (lifetime.getSeconds() < 1 || lifetime.getSeconds() > Integer.MAX_VALUE) {
                throw new ConfigException(CRYPTO_MANAGER + ": ds-cfg-ssl-session-timeout: from 1 s to 68 years");
            }
            sessions = new ServerConfig.Tls.SessionCache(cacheSize, lifetime);
            List<String> p = strings(crypto, "ds-cfg-ssl-protocol");
            protocols = p.isEmpty() ? protocols : p;
            suites = strings(crypto, "ds-cfg-ssl-cipher-suite");
            handshakeTimeout = ConfigUnits.duration(CRYPTO_MANAGER + ": ds-cfg-ssl-handshake-timeout",
                    string(crypto, "ds-cfg-ssl-handshake-timeout", "10 s"));
            if (handshakeTimeout.isZero()) {
                throw new ConfigException(CRYPTO_MANAGER + ": ds-cfg-ssl-handshake-timeout: must be more than 0");
            }
        }
        return new ServerConfig.Tls(keyStoreType,
                path(km, "ds-cfg-certificate-chain-file", "config/tls/server.pem"),
                path(km, "ds-cfg-private-key-file", "config/tls/server-key.pem"),
                keyStore, pin, bool(km, "ds-cfg-create-local-certificate", true), protocols, suites, handshakeTimeout,
                ConfigUnits.duration(KEY_MANAGER + ": ds-cfg-reload-check-interval",
                        string(km, "ds-cfg-reload-check-interval", "10 s")), provider, handshakeCrypto,
                clientCertificates(crypto), sessions, handshakeThreads, handshakeNice);
    }

    /** The trust manager, the crypto manager's client-auth policy and the EXTERNAL mechanism's validation. */
    private ServerConfig.Tls.ClientCertificates clientCertificates(Entry crypto) throws ConfigException {
        Entry trust = entries.get(TRUST_MANAGER);
        if (trust == null || !bool(trust, "ds-cfg-enabled", true)) {
            return ServerConfig.Tls.ClientCertificates.NONE;
        }
        Path file = path(trust, "ds-cfg-trust-store-file", "config/tls/client-ca.pem");
        String policyValue = crypto == null ? "optional" : string(crypto, "ds-cfg-ssl-client-auth-policy", "optional");
        ServerConfig.Tls.ClientCertificates.Policy policy = null;
        for (ServerConfig.Tls.ClientCertificates.Policy p : ServerConfig.Tls.ClientCertificates.Policy.values()) {
            if (p.configValue().equalsIgnoreCase(policyValue)) {
                policy = p;
            }
        }
        if (policy == null) {
            throw new ConfigException(CRYPTO_MANAGER + ": ds-cfg-ssl-client-auth-policy: '" + policyValue
                    + "' is not disabled, optional or required");
        }
        Entry external = entries.get(SASL_EXTERNAL);
        String mappingValue = external == null ? "subject-equals-dn"
                : string(external, "ds-cfg-certificate-mapping", "subject-equals-dn");
        ServerConfig.Tls.ClientCertificates.Mapping mapping = null;
        for (var m : ServerConfig.Tls.ClientCertificates.Mapping.values()) {
            if (m.configValue().equalsIgnoreCase(mappingValue)) {
                mapping = m;
            }
        }
        if (mapping == null) {
            throw new ConfigException(SASL_EXTERNAL + ": ds-cfg-certificate-mapping: '" + mappingValue
                    + "' is not subject-equals-dn or user-certificate");
        }
        String validationValue = external == null ? "ifpresent"
                : string(external, "ds-cfg-certificate-validation-policy", "ifpresent");
        ServerConfig.Tls.ClientCertificates.Validation validation = null;
        for (var v : ServerConfig.Tls.ClientCertificates.Validation.values()) {
            if (v.configValue().equalsIgnoreCase(validationValue)) {
                validation = v;
            }
        }
        if (validation == null) {
            throw new ConfigException(SASL_EXTERNAL + ": ds-cfg-certificate-validation-policy: '" + validationValue
                    + "' is not always, ifpresent or never");
        }
        return new ServerConfig.Tls.ClientCertificates(file, policy, validation, mapping);
    }

    private static ServerConfig.Tls.Provider provider(Entry crypto) throws ConfigException {
        String v = string(crypto, "ds-cfg-ssl-provider", ServerConfig.Tls.Provider.JDK.configValue());
        for (ServerConfig.Tls.Provider p : ServerConfig.Tls.Provider.values()) {
            if (p.configValue().equalsIgnoreCase(v)) {
                return p;
            }
        }
        throw new ConfigException(CRYPTO_MANAGER + ": ds-cfg-ssl-provider: '" + v + "' is not jdk or conscrypt");
    }

    private static ServerConfig.Tls.HandshakeCrypto handshakeCrypto(Entry crypto) throws ConfigException {
        String v = string(crypto, "ds-cfg-ssl-handshake-crypto",
                ServerConfig.Tls.HandshakeCrypto.BOUNCY_CASTLE.configValue());
        for (ServerConfig.Tls.HandshakeCrypto h : ServerConfig.Tls.HandshakeCrypto.values()) {
            if (h.configValue().equalsIgnoreCase(v)) {
                return h;
            }
        }
        throw new ConfigException(CRYPTO_MANAGER + ": ds-cfg-ssl-handshake-crypto: '" + v
                + "' is not bouncycastle or jdk");
    }

    private static ServerConfig.SecurePasswordBinds securePasswordBinds(Entry root) throws ConfigException {
        String attr = "ds-cfg-require-secure-password-binds";
        String v = string(root, attr, ServerConfig.SecurePasswordBinds.NON_LOOPBACK.configValue());
        for (ServerConfig.SecurePasswordBinds b : ServerConfig.SecurePasswordBinds.values()) {
            if (b.configValue().equalsIgnoreCase(v)) {
                return b;
            }
        }
        throw new ConfigException(root.getName() + ": " + attr + ": '" + v
                + "' is not one of all-clients, non-loopback-clients, no-clients");
    }

    private static List<String> strings(Entry e, String attr) {
        List<String> out = new ArrayList<>();
        for (ByteString v : values(e, attr)) {
            String t = v.toString().trim();
            if (!t.isEmpty()) {
                out.add(t);
            }
        }
        return out;
    }

    private ServerConfig.RootUser rootUser(Entry e) throws ConfigException {
        List<DN> alternates = new ArrayList<>();
        Attribute alt = e.getAttribute("ds-cfg-alternate-bind-dn");
        if (alt != null) {
            for (ByteString v : alt) {
                alternates.add(dn(e, "ds-cfg-alternate-bind-dn", v.toString()));
            }
        }
        // The server schema is not loaded yet: the LDIF reader described the entries with the SDK's default one.
        Attribute pw = e.getAttribute(PasswordAttribute.description(Schema.getDefaultSchema()));
        if (pw == null || pw.isEmpty()) {
            throw new ConfigException(e.getName() + ": " + PasswordAttribute.NAME + ": a root user needs a password");
        }
        return new ServerConfig.RootUser(e.getName(), alternates, new ArrayList<>(pw));
    }

    private BackendConfig backend(Entry e) throws ConfigException {
        String id = requiredString(e, "ds-cfg-backend-id");
        String type = requiredString(e, "ds-cfg-backend-type").toLowerCase(Locale.ROOT);
        List<DN> baseDNs = new ArrayList<>();
        for (ByteString v : values(e, "ds-cfg-base-dn")) {
            DN dn = dn(e, "ds-cfg-base-dn", v.toString());
            if (dn.isRootDN() || dn.isSubordinateOrEqualTo(ROOT) || dn.equals(DN.valueOf("cn=schema"))) {
                throw new ConfigException(e.getName() + ": ds-cfg-base-dn: '" + dn + "' is reserved");
            }
            baseDNs.add(dn);
        }
        if (baseDNs.isEmpty()) {
            throw new ConfigException(e.getName() + ": ds-cfg-base-dn: a backend needs at least one base DN");
        }
        Set<String> indexes = new LinkedHashSet<>();
        for (ByteString v : values(e, "ds-cfg-equality-index")) {
            indexes.add(v.toString().trim().toLowerCase(Locale.ROOT));
        }
        java.util.Map<IndexType, Set<String>> others = new java.util.EnumMap<>(IndexType.class);
        for (IndexType kind : IndexType.values()) {
            if (kind != IndexType.EQUALITY) {
                Set<String> names = new LinkedHashSet<>();
                for (ByteString v : values(e, kind.configAttribute())) {
                    names.add(v.toString().trim().toLowerCase(Locale.ROOT));
                }
                others.put(kind, names);
            }
        }
        long cacheMb = integer(e, "ds-cfg-db-cache-size-mb", 0, 0, 1 << 20);
        int bindCache = integer(e, "ds-cfg-bind-cache-entries", BackendConfig.DEFAULT_BIND_CACHE_ENTRIES, 0,
                10_000_000);
        int lookupCache = integer(e, "ds-cfg-lookup-cache-entries", BackendConfig.DEFAULT_LOOKUP_CACHE_ENTRIES, 0,
                10_000_000);
        long freeDiskMb = integer(e, "ds-cfg-disk-full-threshold-mb",
                (int) (BackendConfig.DEFAULT_FREE_DISK_BYTES >> 20), 1, 1 << 30);
        return new BackendConfig(id, type, baseDNs, path(e, "ds-cfg-db-directory", "db/" + id), indexes,
                cacheMb * 1024 * 1024, bindCache, others, freeDiskMb << 20, lookupCache,
                ReplicationConfigReader.read(e, v -> instanceRoot.resolve(v).normalize()));
    }

    private static void checkDistinctBaseDNs(List<BackendConfig> backends) throws ConfigException {
        List<DN> seen = new ArrayList<>();
        for (BackendConfig b : backends) {
            for (DN dn : b.baseDNs()) {
                for (DN other : seen) {
                    if (dn.isSubordinateOrEqualTo(other) || other.isSubordinateOrEqualTo(dn)) {
                        throw new ConfigException("ds-backend-id=" + b.id() + ": ds-cfg-base-dn: '" + dn
                                + "' overlaps the base DN '" + other + "' of another backend");
                    }
                }
                seen.add(dn);
            }
        }
    }

    // --- typed attribute access with errors that name entry and attribute ---

    private Entry require(DN dn) throws ConfigException {
        Entry e = entries.get(dn);
        if (e == null) {
            throw new ConfigException("The configuration has no entry " + dn);
        }
        return e;
    }

    static List<ByteString> values(Entry e, String attr) {
        Attribute a = e.getAttribute(attr);
        return a == null ? List.of() : new ArrayList<>(a);
    }

    private static String single(Entry e, String attr) throws ConfigException {
        List<ByteString> v = values(e, attr);
        if (v.size() > 1) {
            throw new ConfigException(e.getName() + ": " + attr + ": takes one value, has " + v.size());
        }
        return v.isEmpty() ? null : v.get(0).toString().trim();
    }

    private static AccessLogFormat logFormat(Entry logger) throws ConfigException {
        String name = string(logger, "ds-cfg-log-format", "text");
        AccessLogFormat format = AccessLogFormat.named(name);
        if (format == null) {
            throw new ConfigException(logger.getName() + ": ds-cfg-log-format: '" + name + "' is not a format; "
                    + "text (OpenDJ's lines) or json (one JSON object per line)");
        }
        return format;
    }

    /** The cost settings of the schemes that have one; each range is the one a stored value may have. */
    private static SchemeCosts schemeCosts(Entry pw) throws ConfigException {
        SchemeCosts d = SchemeCosts.DEFAULTS;
        return new SchemeCosts(
                integer(pw, "ds-cfg-pbkdf2-iterations", d.pbkdf2Iterations(), 1, Pbkdf2HmacSha256Scheme.MAX_ITERATIONS),
                integer(pw, "ds-cfg-bcrypt-cost", d.bcryptCost(), SchemeCosts.MIN_BCRYPT_COST, 15),
                integer(pw, "ds-cfg-argon2-memory", d.argon2MemoryKib(), SchemeCosts.MIN_ARGON2_MEMORY_KIB,
                        Argon2Scheme.MAX_MEMORY_KIB),
                integer(pw, "ds-cfg-argon2-iterations", d.argon2Iterations(), 1, 100),
                integer(pw, "ds-cfg-argon2-parallelism", d.argon2Parallelism(), 1, Argon2Scheme.MAX_PARALLELISM));
    }

    static String string(Entry e, String attr, String dflt) throws ConfigException {
        String v = single(e, attr);
        return v == null || v.isEmpty() ? dflt : v;
    }

    private static ServerConfig.Listener.Inline inline(Entry ldap) throws ConfigException {
        String attr = "ds-cfg-inline-cheap-operations";
        String v = string(ldap, attr, ServerConfig.Listener.Inline.WHEN_WORKERS_IDLE.configValue());
        for (ServerConfig.Listener.Inline i : ServerConfig.Listener.Inline.values()) {
            if (i.configValue().equalsIgnoreCase(v)) {
                return i;
            }
        }
        throw new ConfigException(ldap.getName() + ": " + attr + ": '" + v
                + "' is not one of always, when-workers-idle, never");
    }

    private static String requiredString(Entry e, String attr) throws ConfigException {
        String v = single(e, attr);
        if (v == null || v.isEmpty()) {
            throw new ConfigException(e.getName() + ": " + attr + ": a value is required");
        }
        return v;
    }

    static int integer(Entry e, String attr, int dflt, int min, int max) throws ConfigException {
        String v = single(e, attr);
        if (v == null) {
            return dflt;
        }
        try {
            long n = Long.parseLong(v);
            if (n >= min && n <= max) {
                return (int) n;
            }
        } catch (NumberFormatException ignored) {
            // reported below with the accepted range
        }
        throw new ConfigException(e.getName() + ": " + attr + ": '" + v + "' is not an integer from " + min
                + " to " + max);
    }

    static boolean bool(Entry e, String attr, boolean dflt) throws ConfigException {
        String v = single(e, attr);
        if (v == null) {
            return dflt;
        }
        switch (v.toLowerCase(Locale.ROOT)) {
            case "true": return true;
            case "false": return false;
            default:
                throw new ConfigException(e.getName() + ": " + attr + ": '" + v + "' is not true or false");
        }
    }

    private Path path(Entry e, String attr, String dflt) throws ConfigException {
        String v = string(e, attr, dflt);
        try {
            return instanceRoot.resolve(v).normalize();
        } catch (java.nio.file.InvalidPathException ex) {
            throw new ConfigException(e.getName() + ": " + attr + ": '" + v + "' is not a valid path");
        }
    }

    static DN dn(Entry e, String attr, String value) throws ConfigException {
        try {
            return DN.valueOf(value);
        } catch (LocalizedIllegalArgumentException ex) {
            throw new ConfigException(e.getName() + ": " + attr + ": '" + value + "' is not a valid DN: "
                    + ex.getMessage());
        }
    }
}
