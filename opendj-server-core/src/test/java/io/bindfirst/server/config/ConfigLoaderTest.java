package io.bindfirst.server.config;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertFalse;
import static org.testng.Assert.assertNull;
import static org.testng.Assert.assertTrue;
import static org.testng.Assert.expectThrows;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.forgerock.opendj.ldap.DN;
import org.testng.annotations.AfterClass;
import org.testng.annotations.Test;

import io.bindfirst.server.backend.BackendConfig;
import io.bindfirst.server.backend.ReplicationSettings;
import io.bindfirst.server.testsupport.ConfigText;
import io.bindfirst.server.testsupport.TempFolders;

public class ConfigLoaderTest {
    private static final Path SHIPPED = locate();
    private final TempFolders temp = new TempFolders();

    @AfterClass(alwaysRun = true)
    public void deleteTempFolders() {
        temp.close();
    }

    private static Path locate() {
        for (Path p = Path.of("").toAbsolutePath(); p != null; p = p.getParent()) {
            Path c = p.resolve("config/config.ldif");
            if (Files.exists(c)) {
                return c;
            }
        }
        throw new IllegalStateException("config/config.ldif not found above " + Path.of("").toAbsolutePath());
    }

    private ServerConfig loadEdited(String from, String to) throws Exception {
        return load(ConfigText.read(SHIPPED).replace(from, to));
    }

    private ServerConfig load(ConfigText edited) throws Exception {
        Path dir = temp.create("config-test");
        Path file = dir.resolve("config.ldif");
        edited.write(file);
        return ConfigLoader.load(file, dir);
    }

    @Test
    public void indexesOfEveryKindAreReadPerAttribute() throws Exception {
        BackendConfig b = loadEdited("ds-cfg-equality-index: givenName\n", "ds-cfg-equality-index: givenName\n"
                + "ds-cfg-presence-index: Mail\nds-cfg-substring-index: cn\nds-cfg-substring-index: SN\n"
                + "ds-cfg-ordering-index: uidNumber\n").backends().get(0);
        assertEquals(b.otherIndexes(), java.util.Map.of(io.bindfirst.server.backend.IndexType.PRESENCE,
                Set.of("aci", "mail"),
                io.bindfirst.server.backend.IndexType.SUBSTRING, Set.of("cn", "sn"),
                io.bindfirst.server.backend.IndexType.ORDERING, Set.of("uidnumber")));
        assertEquals(b.indexes().get(io.bindfirst.server.backend.IndexType.EQUALITY), b.equalityIndexes());
    }

    @Test
    public void shippedDefaults() throws Exception {
        Path root = temp.create("instance");
        ServerConfig c = ConfigLoader.load(SHIPPED, root);
        assertEquals(c.listener().address(), "127.0.0.1");
        assertEquals(c.listener().port(), 1389);
        assertEquals(c.listener().inlineOperations(), ServerConfig.Listener.Inline.WHEN_WORKERS_IDLE);
        assertEquals(c.limits(), new ServerConfig.Limits(1000, 60, 5000));
        assertEquals(c.passwords(), new ServerConfig.Passwords("SSHA512", false));
        assertEquals(c.rootUsers().size(), 1);
        assertEquals(c.rootUsers().get(0).alternateBindDNs(), java.util.List.of(DN.valueOf("cn=Directory Manager")));
        assertTrue(c.rootUsers().get(0).passwords().get(0).toString().startsWith("{SSHA512}"));
        BackendConfig b = c.backends().get(0);
        assertEquals(b.id(), "userRoot");
        assertEquals(b.type(), "je");
        assertEquals(b.baseDNs(), java.util.List.of(DN.valueOf("dc=example,dc=com")));
        assertEquals(b.directory(), root.toAbsolutePath().resolve("db/userRoot"));
        assertEquals(b.equalityIndexes(), Set.of("objectclass", "uid", "mail", "cn", "sn", "givenname"));
        // The entries holding ACIs, found at start through it.
        assertEquals(b.otherIndexes(), java.util.Map.of(io.bindfirst.server.backend.IndexType.PRESENCE, Set.of("aci")));
        assertEquals(b.bindCacheEntries(), 10_000);
        assertEquals(c.sampleEntries().get("userRoot"), Integer.valueOf(10_000));
        assertEquals(c.accessLog().file(), root.toAbsolutePath().resolve("logs/access"));
        assertEquals(c.accessLog().rotation(),
                new io.bindfirst.server.log.LogRotation(100_000_000, java.time.Duration.ofDays(1), 10));
        assertTrue(c.workQueue().workerThreads() >= 4);
        assertFalse(c.entries().isEmpty());
        assertTrue(c.listener().allowStartTls());
        assertEquals(c.ldapsListener().address(), "127.0.0.1");
        assertEquals(c.ldapsListener().port(), 1636);
        assertTrue(c.ldapsListener().useSsl());
        assertFalse(c.ldapsListener().allowStartTls());
        assertEquals(c.tls(), new ServerConfig.Tls(ServerConfig.Tls.KeyStoreType.PEM,
                root.toAbsolutePath().resolve("config/tls/server.pem"),
                root.toAbsolutePath().resolve("config/tls/server-key.pem"), null, null, true,
                java.util.List.of("TLSv1.3", "TLSv1.2"), java.util.List.of(), java.time.Duration.ofSeconds(10),
                java.time.Duration.ofSeconds(10), ServerConfig.Tls.Provider.JDK,
                ServerConfig.Tls.HandshakeCrypto.BOUNCY_CASTLE, ServerConfig.Tls.ClientCertificates.NONE,
                ServerConfig.Tls.SessionCache.JDK_DEFAULTS, 2, 19));
        assertEquals(c.securePasswordBinds(), ServerConfig.SecurePasswordBinds.NON_LOOPBACK);
    }

    @Test
    public void withoutAKeyManagerThereIsNoStartTlsAndLdapsIsRefused() throws Exception {
        String km = "cn=Default Key Manager,cn=Key Manager Providers,cn=config";
        String ldaps = "cn=LDAPS Connection Handler,cn=Connection Handlers,cn=config";
        ConfigException e = expectThrows(ConfigException.class,
                () -> load(ConfigText.read(SHIPPED).set(km, "ds-cfg-enabled", "false")));
        assertTrue(e.getMessage().contains(ldaps) && e.getMessage().contains(km), e.getMessage());
        ServerConfig c = load(ConfigText.read(SHIPPED).set(km, "ds-cfg-enabled", "false")
                .set(ldaps, "ds-cfg-enabled", "false"));
        assertNull(c.tls());
        assertNull(c.ldapsListener());
        assertFalse(c.listener().allowStartTls());
    }

    @Test
    public void clientCertificatesAreOffUntilTheTrustManagerIsEnabled() throws Exception {
        assertEquals(load(ConfigText.read(SHIPPED)).tls().clientCertificates(),
                ServerConfig.Tls.ClientCertificates.NONE);
        String off = "ds-cfg-enabled: false\nds-cfg-trust-store-file";
        String on = "ds-cfg-enabled: true\nds-cfg-trust-store-file";
        ServerConfig.Tls.ClientCertificates c = loadEdited(off, on).tls().clientCertificates();
        assertTrue(c.requested());
        assertTrue(c.trustStoreFile().endsWith("config/tls/client-ca.pem"), c.toString());
        assertEquals(c.policy(), ServerConfig.Tls.ClientCertificates.Policy.OPTIONAL);
        assertEquals(c.validation(), ServerConfig.Tls.ClientCertificates.Validation.IF_PRESENT);
        ConfigException e = expectThrows(ConfigException.class, () -> load(ConfigText.read(SHIPPED).replace(off, on)
                .replace("validation-policy: ifpresent", "validation-policy: x")));
        assertTrue(e.getMessage().contains("always, ifpresent or never"), e.getMessage());
        e = expectThrows(ConfigException.class, () -> load(ConfigText.read(SHIPPED).replace(off, on)
                .replace("mapping: subject-equals-dn", "mapping: fingerprint")));
        assertTrue(e.getMessage().contains("not subject-equals-dn or user-certificate"), e.getMessage());
        assertEquals(load(ConfigText.read(SHIPPED).replace(off, on).replace("mapping: subject-equals-dn",
                "mapping: user-certificate")).tls().clientCertificates().mapping(),
                ServerConfig.Tls.ClientCertificates.Mapping.USER_CERTIFICATE);
    }

    @Test
    public void tlsSettingsAreCheckedWhereTheyAreRead() throws Exception {
        ConfigException e = expectThrows(ConfigException.class, () -> loadEdited("ds-cfg-key-store-type: PEM",
                "ds-cfg-key-store-type: JKS"));
        assertTrue(e.getMessage().contains("ds-cfg-key-store-type") && e.getMessage().contains("PKCS12"),
                e.getMessage());
        e = expectThrows(ConfigException.class, () -> loadEdited("ds-cfg-ssl-handshake-timeout: 10 s",
                "ds-cfg-ssl-handshake-timeout: soon"));
        assertTrue(e.getMessage().contains("ds-cfg-ssl-handshake-timeout"), e.getMessage());
        assertEquals(loadEdited("ds-cfg-ssl-handshake-threads: 2", "ds-cfg-ssl-handshake-threads: 0").tls()
                .handshakeThreads(), 0);
        e = expectThrows(ConfigException.class, () -> loadEdited("ds-cfg-ssl-handshake-threads: 2",
                "ds-cfg-ssl-handshake-threads: 1000"));
        assertTrue(e.getMessage().contains("ds-cfg-ssl-handshake-threads"), e.getMessage());
        assertEquals(loadEdited("ds-cfg-ssl-handshake-thread-nice: 19", "ds-cfg-ssl-handshake-thread-nice: 0").tls()
                .handshakeNice(), 0);
        e = expectThrows(ConfigException.class, () -> loadEdited("ds-cfg-ssl-handshake-thread-nice: 19",
                "ds-cfg-ssl-handshake-thread-nice: 20"));
        assertTrue(e.getMessage().contains("ds-cfg-ssl-handshake-thread-nice"), e.getMessage());
        e = expectThrows(ConfigException.class, () -> loadEdited("ds-cfg-ssl-session-cache-size: 20480",
                "ds-cfg-ssl-session-cache-size: 0"));
        assertTrue(e.getMessage().contains("ds-cfg-ssl-session-cache-size"), e.getMessage());
        assertEquals(loadEdited("ds-cfg-ssl-session-timeout: 24 h", "ds-cfg-ssl-session-timeout: 5 m").tls()
                .sessionCache().lifetime(), java.time.Duration.ofMinutes(5));
        e = expectThrows(ConfigException.class, () -> loadEdited("ds-cfg-ssl-provider: jdk",
                "ds-cfg-ssl-provider: openssl"));
        assertTrue(e.getMessage().contains("'openssl' is not jdk or conscrypt"), e.getMessage());
        assertEquals(loadEdited("ds-cfg-ssl-provider: jdk", "ds-cfg-ssl-provider: conscrypt").tls().provider(),
                ServerConfig.Tls.Provider.CONSCRYPT);
        assertEquals(loadEdited("ds-cfg-ssl-handshake-crypto: bouncycastle", "ds-cfg-ssl-handshake-crypto: jdk").tls()
                .handshakeCrypto(), ServerConfig.Tls.HandshakeCrypto.JDK);
        e = expectThrows(ConfigException.class, () -> loadEdited("ds-cfg-ssl-handshake-crypto: bouncycastle",
                "ds-cfg-ssl-handshake-crypto: fast"));
        assertTrue(e.getMessage().contains("'fast' is not bouncycastle or jdk"), e.getMessage());
        e = expectThrows(ConfigException.class, () -> loadEdited(
                "ds-cfg-require-secure-password-binds: non-loopback-clients",
                "ds-cfg-require-secure-password-binds: sometimes"));
        assertTrue(e.getMessage().contains("all-clients, non-loopback-clients, no-clients"), e.getMessage());
        assertEquals(loadEdited("ds-cfg-require-secure-password-binds: non-loopback-clients",
                "ds-cfg-require-secure-password-binds: all-clients").securePasswordBinds(),
                ServerConfig.SecurePasswordBinds.ALWAYS);
        ServerConfig p12 = loadEdited("ds-cfg-key-store-type: PEM", "ds-cfg-key-store-type: PKCS12");
        assertEquals(p12.tls().keyStoreType(), ServerConfig.Tls.KeyStoreType.PKCS12);
        assertTrue(p12.tls().keyStoreFile().endsWith("config/tls/keystore.p12"));
        assertTrue(p12.tls().keyStorePinFile().endsWith("config/tls/keystore.pin"));
    }

    /** The settings the integration tests set through the typed records: here, that the file's names reach them. */
    @Test
    public void limitsThreadsAndBackendTypeAreReadFromTheirEntries() throws Exception {
        String handler = "cn=LDAP Connection Handler,cn=Connection Handlers,cn=config";
        String workQueue = "cn=Work Queue,cn=config";
        String userRoot = "ds-cfg-backend-id=userRoot,cn=Backends,cn=config";
        ServerConfig c = load(ConfigText.read(SHIPPED)
                .set(handler, "ds-cfg-max-allowed-client-connections", "5")
                .set(handler, "ds-cfg-max-request-size", "2048")
                .set(handler, "ds-cfg-max-concurrent-ops-per-connection", "2")
                .set(handler, "ds-cfg-num-request-handlers", "3")
                .set(workQueue, "ds-cfg-num-worker-threads", "6")
                .set(workQueue, "ds-cfg-max-work-queue-capacity", "4")
                .set("cn=config", "ds-cfg-idle-time-limit", "7")
                .set("cn=config", "ds-cfg-sort-limit", "25")
                .set(userRoot, "ds-cfg-backend-type", "slow-je")
                .set(userRoot, "ds-cfg-sample-entries", "10"));
        assertEquals(c.listener().maxConnections(), 5);
        assertEquals(c.listener().maxRequestBytes(), 2048);
        assertEquals(c.listener().maxConcurrentOpsPerConnection(), 2);
        assertEquals(c.listener().selectorThreads(), 3);
        assertEquals(c.workQueue().workerThreads(), 6);
        assertEquals(c.workQueue().capacity(), 4);
        assertEquals(c.limits().idleTimeLimitSeconds(), 7);
        assertEquals(c.limits().sortLimit(), 25);
        assertEquals(c.backends().get(0).type(), "slow-je");
        assertEquals(c.sampleEntries().get("userRoot"), Integer.valueOf(10));
    }

    @Test
    public void badPortNamesEntryAndAttribute() {
        ConfigException e = expectThrows(ConfigException.class,
                () -> loadEdited("ds-cfg-listen-port: 1389", "ds-cfg-listen-port: 99999"));
        assertTrue(e.getMessage().contains("cn=LDAP Connection Handler,cn=Connection Handlers,cn=config"),
                e.getMessage());
        assertTrue(e.getMessage().contains("ds-cfg-listen-port"), e.getMessage());
        assertTrue(e.getMessage().contains("99999"), e.getMessage());
    }

    @Test
    public void inlineCheapOperationsTakesItsThreeValuesAndRefusesOthers() throws Exception {
        String shipped = "ds-cfg-inline-cheap-operations: when-workers-idle";
        assertEquals(loadEdited(shipped, "ds-cfg-inline-cheap-operations: always").listener().inlineOperations(),
                ServerConfig.Listener.Inline.ALWAYS);
        assertEquals(loadEdited(shipped, "ds-cfg-inline-cheap-operations: never").listener().inlineOperations(),
                ServerConfig.Listener.Inline.NEVER);
        ConfigException e = expectThrows(ConfigException.class,
                () -> loadEdited(shipped, "ds-cfg-inline-cheap-operations: sometimes"));
        assertTrue(e.getMessage().contains("ds-cfg-inline-cheap-operations: 'sometimes' is not one of always, "
                + "when-workers-idle, never"), e.getMessage());
    }

    @Test
    public void bindCacheCanBeTurnedOffButNotMadeNegative() throws Exception {
        assertEquals(loadEdited("ds-cfg-bind-cache-entries: 10000", "ds-cfg-bind-cache-entries: 0")
                .backends().get(0).bindCacheEntries(), 0);
        ConfigException e = expectThrows(ConfigException.class,
                () -> loadEdited("ds-cfg-bind-cache-entries: 10000", "ds-cfg-bind-cache-entries: -1"));
        assertTrue(e.getMessage().contains(
                "ds-cfg-backend-id=userRoot,cn=Backends,cn=config: ds-cfg-bind-cache-entries"),
                e.getMessage());
    }

    @Test
    public void lookupCacheHasASizeThatZeroTurnsOff() throws Exception {
        assertEquals(loadEdited("ds-cfg-lookup-cache-entries: 10000", "ds-cfg-lookup-cache-entries: 10000")
                .backends().get(0).lookupCacheEntries(), 10000);
        assertEquals(loadEdited("ds-cfg-lookup-cache-entries: 10000", "ds-cfg-lookup-cache-entries: 0")
                .backends().get(0).lookupCacheEntries(), 0);
        ConfigException e = expectThrows(ConfigException.class,
                () -> loadEdited("ds-cfg-lookup-cache-entries: 10000", "ds-cfg-lookup-cache-entries: -1"));
        assertTrue(e.getMessage().contains(
                "ds-cfg-backend-id=userRoot,cn=Backends,cn=config: ds-cfg-lookup-cache-entries"), e.getMessage());
    }

    @Test
    public void aBackendIsReplicatedOnlyWithAGroupANodeAnAddressAndAHelper() throws Exception {
        String lookup = "ds-cfg-lookup-cache-entries: 10000";
        assertNull(loadEdited(lookup, lookup).backends().get(0).replication(), "shipped: not replicated");
        String replicated = lookup + "\nds-cfg-replication-group-name: logins\nds-cfg-replication-node-name: ds1"
                + "\nds-cfg-replication-address: 127.0.0.1:8989\nds-cfg-replication-helper-address: 127.0.0.1:8989"
                + "\nds-cfg-replication-helper-address: 127.0.0.1:8990";
        ReplicationSettings r = loadEdited(lookup, replicated).backends().get(0).replication();
        assertEquals(r, new ReplicationSettings("logins", "ds1", "127.0.0.1:8989",
                List.of("127.0.0.1:8989", "127.0.0.1:8990"), ReplicationSettings.NodeType.ELECTABLE));
        assertEquals(loadEdited(lookup, replicated + "\nds-cfg-replication-node-type: Secondary").backends().get(0)
                .replication().nodeType(), ReplicationSettings.NodeType.SECONDARY);
        String group = "\nds-cfg-replication-group-name: logins";
        String node = "\nds-cfg-replication-node-name: ds1";
        String address = "\nds-cfg-replication-address: 127.0.0.1:8989";
        String helper = "\nds-cfg-replication-helper-address: 127.0.0.1:8989";
        String[][] bad = {
            {group + node + address, "ds-cfg-replication-helper-address"},
            {group + address + helper, "ds-cfg-replication-node-name"},
            {group + node + helper + "\nds-cfg-replication-address: 8989", "'8989' is not host:port"},
            {group + address + helper + "\nds-cfg-replication-node-name: ds 1", "'ds 1' is not a name"},
            {group + node + address + helper + "\nds-cfg-replication-node-type: voter", "'voter' is not one of"},
        };
        for (String[] b : bad) {
            ConfigException e = expectThrows(ConfigException.class, () -> loadEdited(lookup, lookup + b[0]));
            assertTrue(e.getMessage().contains("ds-cfg-backend-id=userRoot,cn=Backends,cn=config: "), e.getMessage());
            assertTrue(e.getMessage().contains(b[1]), e.getMessage());
        }
    }

    @Test
    public void aReplicaForwardsWritesOnceGivenAnAccountAndOtherwiseRefers() throws Exception {
        String lookup = "ds-cfg-lookup-cache-entries: 10000";
        String replicated = lookup + "\nds-cfg-replication-group-name: logins\nds-cfg-replication-node-name: ds1"
                + "\nds-cfg-replication-address: 10.0.0.1:8989\nds-cfg-replication-helper-address: 10.0.0.1:8989";
        ReplicationSettings plain = loadEdited(lookup, replicated).backends().get(0).replication();
        assertEquals(plain.writes(), ReplicationSettings.ReplicaWrites.REFERRAL, "no account: a referral");
        assertNull(plain.ldapUrl(), "from the replication host and the LDAP port, once the listener is bound");
        String forwarding = replicated + "\nds-cfg-replication-forward-bind-dn: cn=Directory Manager"
                + "\nds-cfg-replication-forward-bind-password-file: config/forward.pin"
                + "\nds-cfg-replication-ldap-url: LDAP://ds1.example.com:389/";
        ReplicationSettings r = loadEdited(lookup, forwarding).backends().get(0).replication();
        assertEquals(r.writes().mode(), ReplicationSettings.WriteMode.FORWARD);
        assertEquals(r.writes().bindDn(), "cn=Directory Manager");
        assertTrue(r.writes().passwordFile().isAbsolute() && r.writes().passwordFile().endsWith("config/forward.pin"),
                r.writes().passwordFile().toString());
        assertEquals(r.ldapUrl(), "ldap://ds1.example.com:389");
        assertEquals(loadEdited(lookup, forwarding + "\nds-cfg-replication-replica-writes: REFUSE").backends().get(0)
                .replication().writes().mode(), ReplicationSettings.WriteMode.REFUSE);
        String[][] bad = {
            {replicated + "\nds-cfg-replication-replica-writes: forward", "ds-cfg-replication-forward-bind-dn"},
            {replicated + "\nds-cfg-replication-replica-writes: proxy", "'proxy' is not one of forward"},
            {replicated + "\nds-cfg-replication-forward-bind-dn: cn=Directory Manager",
                "ds-cfg-replication-forward-bind-password-file"},
            {replicated + "\nds-cfg-replication-ldap-url: ds1:389", "'ds1:389' is not ldap://host:port"},
            {replicated + "\nds-cfg-replication-ldap-url: ldap://ds1/", "'ds1' is not host:port"},
        };
        for (String[] b : bad) {
            ConfigException e = expectThrows(ConfigException.class, () -> loadEdited(lookup, b[0]));
            assertTrue(e.getMessage().contains("ds-cfg-backend-id=userRoot,cn=Backends,cn=config"), e.getMessage());
            assertTrue(e.getMessage().contains(b[1]), e.getMessage());
        }
    }

    @Test
    public void aReplicatedBackendTakesEngineParametersAsNameEqualsValue() throws Exception {
        String lookup = "ds-cfg-lookup-cache-entries: 10000";
        String replicated = lookup + "\nds-cfg-replication-group-name: logins\nds-cfg-replication-node-name: ds1"
                + "\nds-cfg-replication-address: 10.0.0.1:8989\nds-cfg-replication-helper-address: 10.0.0.1:8989";
        assertEquals(loadEdited(lookup, replicated + "\nds-cfg-replication-je-property: je.rep.replicaTimeout=20 s"
                + "\nds-cfg-replication-je-property: je.rep.channelFactoryParams=1>2,3>4").backends().get(0)
                .replication().engineProperties(), Map.of("je.rep.replicaTimeout", "20 s",
                "je.rep.channelFactoryParams", "1>2,3>4"));
        for (String bad : List.of("je.log.fileMax=10", "je.rep.replicaTimeout", "=1")) {
            ConfigException e = expectThrows(ConfigException.class, () -> loadEdited(lookup, replicated
                    + "\nds-cfg-replication-je-property: " + bad));
            assertTrue(e.getMessage().contains("ds-cfg-replication-je-property: '" + bad + "' is not je.rep."),
                    e.getMessage());
        }
    }

    @Test
    public void verifiedCredentialCacheHasASizeThatZeroTurnsOff() throws Exception {
        String shipped = "ds-cfg-verified-credential-cache-size: 10000";
        assertEquals(load(ConfigText.read(SHIPPED)).passwords().verifiedCredentialCacheSize(), 10_000);
        assertEquals(loadEdited(shipped, "ds-cfg-verified-credential-cache-size: 0")
                .passwords().verifiedCredentialCacheSize(), 0);
        assertEquals(loadEdited(shipped, "").passwords().verifiedCredentialCacheSize(),
                ServerConfig.Passwords.DEFAULT_VERIFIED_CREDENTIAL_CACHE_SIZE, "absent: the default");
        for (String bad : new String[] {"-1", "many", "3000000000"}) {
            ConfigException e = expectThrows(ConfigException.class,
                    () -> loadEdited(shipped, "ds-cfg-verified-credential-cache-size: " + bad));
            assertEquals(e.getMessage(), "cn=Password Storage Schemes,cn=config: "
                    + "ds-cfg-verified-credential-cache-size: '" + bad + "' is not an integer from 0 to 2147483647");
        }
    }

    @Test
    public void notANumberNamesEntryAndAttribute() {
        ConfigException e = expectThrows(ConfigException.class,
                () -> loadEdited("ds-cfg-size-limit: 1000", "ds-cfg-size-limit: lots"));
        assertTrue(e.getMessage().startsWith("cn=config: ds-cfg-size-limit: 'lots'"), e.getMessage());
    }

    @Test
    public void badBooleanNamesEntryAndAttribute() {
        ConfigException e = expectThrows(ConfigException.class,
                () -> loadEdited("ds-cfg-allow-clear-text-passwords: false",
                        "ds-cfg-allow-clear-text-passwords: maybe"));
        assertTrue(e.getMessage().contains("cn=Password Storage Schemes,cn=config: ds-cfg-allow-clear-text-passwords"),
                e.getMessage());
    }

    @Test
    public void badDnNamesEntryAndAttribute() {
        ConfigException e = expectThrows(ConfigException.class,
                () -> loadEdited("ds-cfg-base-dn: dc=example,dc=com", "ds-cfg-base-dn: not a dn"));
        assertTrue(e.getMessage().contains("ds-cfg-backend-id=userRoot,cn=Backends,cn=config: ds-cfg-base-dn"),
                e.getMessage());
    }

    @Test
    public void rootUserWithoutPasswordIsRefused() {
        ConfigException e = expectThrows(ConfigException.class,
                () -> loadEdited("userPassword: {SSHA512}", "description: {SSHA512}"));
        assertTrue(e.getMessage().contains("cn=Directory Manager,cn=Root DNs,cn=config: userPassword"), e.getMessage());
    }

    @Test
    public void missingEntryIsNamed() {
        ConfigException e = expectThrows(ConfigException.class,
                () -> loadEdited("dn: cn=Work Queue,cn=config", "dn: cn=Work Queues,cn=config"));
        assertTrue(e.getMessage().contains("no entry cn=Work Queue,cn=config"), e.getMessage());
    }

    @Test
    public void missingFileAndBrokenLdifAreClear() throws Exception {
        ConfigException missing = expectThrows(ConfigException.class,
                () -> ConfigLoader.load(Path.of("/nonexistent/config.ldif"), Path.of("/tmp")));
        assertTrue(missing.getMessage().contains("does not exist"), missing.getMessage());
        ConfigException broken = expectThrows(ConfigException.class,
                () -> loadEdited("dn: cn=Loggers,cn=config", "dn cn=Loggers,cn=config"));
        assertTrue(broken.getMessage().contains("not valid LDIF"), broken.getMessage());
    }

    /**
     * The registry's upkeep is built in now: the plugin entry an older config.ldif holds for it is ignored, even
     * disabled, and names no class that must load.
     */
    @Test
    public void theRetiredAuthenticatedUsersPluginEntryIsIgnored() throws Exception {
        String retired = "dn: cn=Authenticated Users,cn=Plugins,cn=config\n"
                + "objectClass: top\nobjectClass: ds-cfg-plugin\ncn: Authenticated Users\nds-cfg-enabled: false\n"
                + "ds-cfg-java-class: io.bindfirst.server.auth.AuthenticatedUsersPlugin\n\n";
        String text = Files.readString(SHIPPED);
        int at = text.indexOf("dn: cn=Referential Integrity,cn=Plugins,cn=config");
        assertTrue(at > 0);
        Path edited = temp.create("retired").resolve("config.ldif");
        Files.writeString(edited, text.substring(0, at) + retired + text.substring(at));
        ServerConfig c = ConfigLoader.load(edited, temp.create("instance"));
        assertTrue(c.plugins().stream().noneMatch(p -> p.className().endsWith("AuthenticatedUsersPlugin")),
                c.plugins().toString());
        assertTrue(ConfigLoader.load(SHIPPED, temp.create("instance2")).plugins().stream()
                .noneMatch(p -> p.className().endsWith("AuthenticatedUsersPlugin")));
    }

    @Test
    public void disabledAccessLog() throws Exception {
        assertNull(load(ConfigText.read(SHIPPED)
                .set("cn=File-Based Access Logger,cn=Loggers,cn=config", "ds-cfg-enabled", "false")).accessLog());
    }

    @Test
    public void passwordPoliciesLockNothingOutByDefault() throws Exception {
        ServerConfig c = ConfigLoader.load(SHIPPED, temp.create("instance"));
        io.bindfirst.server.pwd.PasswordPolicy p = c.passwords().policies().defaultPolicy();
        assertEquals(p.dn(), io.bindfirst.server.pwd.PasswordPolicies.DEFAULT_DN);
        assertFalse(p.locksOut());
        assertFalse(c.passwords().policies().anyLocksOut());
    }

    @Test
    public void passwordPoliciesAreReadWithTheirLockoutSettings() throws Exception {
        String dflt = "cn=Default Password Policy,cn=Password Policies,cn=config";
        String other = "\ndn: cn=Services,cn=Password Policies,cn=config\nobjectClass: top\n"
                + "objectClass: ds-cfg-password-policy\ncn: Services\nds-cfg-lockout-failure-count: 10\n";
        ServerConfig c = load(ConfigText.read(SHIPPED).set(dflt, "ds-cfg-lockout-failure-count", "3")
                .set(dflt, "ds-cfg-lockout-duration", "15 m")
                .set(dflt, "ds-cfg-lockout-failure-expiration-interval", "1 h")
                .replace("dn: cn=Root DNs,cn=config", other + "\ndn: cn=Root DNs,cn=config"));
        io.bindfirst.server.pwd.PasswordPolicies policies = c.passwords().policies();
        assertEquals(policies.defaultPolicy(), new io.bindfirst.server.pwd.PasswordPolicy(DN.valueOf(dflt), 3,
                java.time.Duration.ofMinutes(15), java.time.Duration.ofHours(1)));
        assertEquals(policies.named(DN.valueOf("cn=services,cn=password policies,cn=config")).lockoutFailureCount(),
                10);
        assertTrue(policies.anyLocksOut());
        ServerConfig expiring = load(ConfigText.read(SHIPPED).set(dflt, "ds-cfg-max-password-age", "90 d")
                .set(dflt, "ds-cfg-password-expiration-warning-interval", "1 w")
                .set(dflt, "ds-cfg-grace-login-count", "2").set(dflt, "ds-cfg-password-history-count", "5")
                .set(dflt, "ds-cfg-min-password-age", "1 d"));
        assertEquals(expiring.passwords().policies().defaultPolicy().expiry().minAge(), java.time.Duration.ofDays(1));
        assertEquals(expiring.passwords().policies().defaultPolicy().historyCount(), 5);
        assertEquals(expiring.passwords().policies().defaultPolicy().expiry(), new io.bindfirst.server.pwd
                .PasswordPolicy.Expiry(java.time.Duration.ofDays(90), java.time.Duration.ofDays(7), 2,
                java.time.Duration.ofDays(1)));
    }

    @Test
    public void badLockoutSettingsNameTheEntryAndTheAttribute() throws Exception {
        String dflt = "cn=Default Password Policy,cn=Password Policies,cn=config";
        ConfigException e = expectThrows(ConfigException.class,
                () -> load(ConfigText.read(SHIPPED).set(dflt, "ds-cfg-lockout-failure-count", "-2")));
        assertTrue(e.getMessage().contains(dflt) && e.getMessage().contains("ds-cfg-lockout-failure-count"),
                e.getMessage());
        e = expectThrows(ConfigException.class,
                () -> load(ConfigText.read(SHIPPED).set(dflt, "ds-cfg-lockout-duration", "a while")));
        assertTrue(e.getMessage().contains("ds-cfg-lockout-duration") && e.getMessage().contains("duration"),
                e.getMessage());
    }

    @Test
    public void aConfigurationWithoutPasswordPoliciesGetsTheDefaultWithoutLockout() throws Exception {
        String text = ConfigText.read(SHIPPED).toString();
        int from = text.indexOf("dn: cn=Password Policies,cn=config");
        int to = text.indexOf("dn: cn=Root DNs,cn=config");
        ServerConfig c = load(ConfigText.of(text.substring(0, from) + text.substring(to)));
        assertEquals(c.passwords().policies(), io.bindfirst.server.pwd.PasswordPolicies.defaults());
    }

    @Test
    public void aPolicyNamesItsValidators() throws Exception {
        String dflt = "cn=Default Password Policy,cn=Password Policies,cn=config";
        String length = "cn=Length-Based Password Validator,cn=Password Validators,cn=config";
        ServerConfig c = load(ConfigText.read(SHIPPED).replace("ds-cfg-password-history-count: 0\n",
                "ds-cfg-password-history-count: 0\nds-cfg-password-validator: " + length + "\n"));
        assertEquals(c.passwords().policies().defaultPolicy().validators(), java.util.List.of(
                new io.bindfirst.server.pwd.PasswordValidator.Length(DN.valueOf(length), 8, 0)));
        ConfigException e = expectThrows(ConfigException.class, () -> load(ConfigText.read(SHIPPED).replace(
                "ds-cfg-password-history-count: 0\n", "ds-cfg-password-history-count: 0\n"
                        + "ds-cfg-password-validator: cn=Nothing,cn=Password Validators,cn=config\n")));
        assertTrue(e.getMessage().contains(dflt) && e.getMessage().contains("cn=Nothing"), e.getMessage());
        e = expectThrows(ConfigException.class, () -> load(ConfigText.read(SHIPPED).replace(
                "ds-cfg-character-set: 1:0123456789", "ds-cfg-character-set: digits")));
        assertTrue(e.getMessage().contains("COUNT:CHARACTERS"), e.getMessage());
    }

    @Test
    public void aPolicyMayKeepTheLastLoginAndMovePasswordsOffDeprecatedSchemes() throws Exception {
        String dflt = "cn=Default Password Policy,cn=Password Policies,cn=config";
        io.bindfirst.server.pwd.PasswordPolicy.OnBind off = load(ConfigText.read(SHIPPED)).passwords().policies()
                .defaultPolicy().onBind();
        assertFalse(off.recordsLastLogin() || off.rehashes(), "nothing written by a bind by default");
        io.bindfirst.server.pwd.PasswordPolicy.OnBind on = load(withDefaultPolicyLines(
                "ds-cfg-last-login-time-attribute: ds-pwp-last-login-time", "ds-cfg-last-login-time-format: yyyyMMddHH",
                "ds-cfg-deprecated-password-storage-scheme: ssha", "ds-cfg-max-rehashes-per-second: 7"))
                .passwords().policies().defaultPolicy().onBind();
        assertEquals(on.lastLoginAttribute(), "ds-pwp-last-login-time");
        assertEquals(on.lastLoginFormat().format(java.time.Instant.parse("2026-11-24T07:45:00Z")), "2026112407");
        assertEquals(on.deprecatedSchemes(), java.util.Set.of("SSHA"));
        assertEquals(on.maxRehashesPerSecond(), 7);
        ConfigException e = expectThrows(ConfigException.class, () -> load(withDefaultPolicyLines(
                "ds-cfg-last-login-time-attribute: ds-pwp-last-login-time",
                "ds-cfg-last-login-time-format: yyyyMMddqqqqqqq")));
        assertTrue(e.getMessage().contains(dflt) && e.getMessage().contains("ds-cfg-last-login-time-format"),
                e.getMessage());
        e = expectThrows(ConfigException.class, () -> load(withDefaultPolicyLines(
                "ds-cfg-deprecated-password-storage-scheme: ROT13")));
        assertTrue(e.getMessage().contains("ROT13") && e.getMessage().contains("SSHA"), e.getMessage());
        e = expectThrows(ConfigException.class, () -> load(withDefaultPolicyLines(
                "ds-cfg-last-login-time-format: yyyyMMdd")));
        assertTrue(e.getMessage().contains("ds-cfg-last-login-time-attribute"), e.getMessage());
    }

    /** The shipped configuration with {@code lines} added to the default password policy. */
    private static ConfigText withDefaultPolicyLines(String... lines) throws Exception {
        return ConfigText.read(SHIPPED).replace("ds-cfg-password-history-count: 0\n",
                "ds-cfg-password-history-count: 0\n" + String.join("\n", lines) + "\n");
    }

    @Test
    public void theSchemesCostsAreRead() throws Exception {
        String schemes = "cn=Password Storage Schemes,cn=config";
        assertEquals(load(ConfigText.read(SHIPPED)).passwords().costs(), io.bindfirst.server.pwd.SchemeCosts.DEFAULTS);
        ServerConfig c = load(ConfigText.read(SHIPPED).set(schemes, "ds-cfg-pbkdf2-iterations", "600000")
                .set(schemes, "ds-cfg-bcrypt-cost", "12").set(schemes, "ds-cfg-argon2-memory", "65536")
                .set(schemes, "ds-cfg-argon2-iterations", "3").set(schemes, "ds-cfg-argon2-parallelism", "4"));
        assertEquals(c.passwords().costs(), new io.bindfirst.server.pwd.SchemeCosts(600_000, 12, 65_536, 3, 4));
        ConfigException e = expectThrows(ConfigException.class,
                () -> load(ConfigText.read(SHIPPED).set(schemes, "ds-cfg-bcrypt-cost", "31")));
        assertTrue(e.getMessage().contains("ds-cfg-bcrypt-cost"), e.getMessage());
    }

    private static final String HTTP = ServerConfig.HttpMetrics.ENTRY;

    @Test
    public void httpMetricsListenOnLoopback8080AsShipped() throws Exception {
        ServerConfig c = ConfigLoader.load(SHIPPED, temp.create("instance"));
        assertEquals(c.httpMetrics(), new ServerConfig.HttpMetrics(true, "127.0.0.1", 8080));
    }

    @Test
    public void httpMetricsDefaultToLoopbackWithoutAnAddressAndAreOffWithoutTheirEntry() throws Exception {
        ServerConfig c = loadEdited("ds-cfg-listen-address: 127.0.0.1\nds-cfg-listen-port: 8080",
                "ds-cfg-listen-port: 8080");
        assertEquals(c.httpMetrics(), new ServerConfig.HttpMetrics(true, "127.0.0.1", 8080));
        c = loadEdited("dn: " + HTTP, "dn: cn=Something Else,cn=Connection Handlers,cn=config");
        assertFalse(c.httpMetrics().enabled());
    }

    @Test
    public void httpMetricsCanBeDisabledOrMoved() throws Exception {
        ServerConfig c = load(ConfigText.read(SHIPPED).set(HTTP, "ds-cfg-enabled", "false"));
        assertFalse(c.httpMetrics().enabled());
        c = load(ConfigText.read(SHIPPED).set(HTTP, "ds-cfg-listen-port", "9100")
                .set(HTTP, "ds-cfg-listen-address", "::1"));
        assertEquals(c.httpMetrics(), new ServerConfig.HttpMetrics(true, "::1", 9100));
    }

    @Test
    public void aBadHttpMetricsPortNamesTheEntryAndTheAttribute() throws Exception {
        ConfigException e = expectThrows(ConfigException.class,
                () -> load(ConfigText.read(SHIPPED).set(HTTP, "ds-cfg-listen-port", "65536")));
        assertTrue(e.getMessage().startsWith(HTTP + ": ds-cfg-listen-port: '65536'"), e.getMessage());
    }

    private static final String PLAIN = ServerConfig.Sasl.PLAIN;
    private static final String MAPPER = ServerConfig.IdentityMapper.ENTRY;

    @Test
    public void plainIsOfferedAndNamesAreMappedByUidEverywhereAsShipped() throws Exception {
        ServerConfig c = ConfigLoader.load(SHIPPED, temp.create("instance"));
        assertEquals(c.sasl(), ServerConfig.Sasl.DEFAULTS);
        assertEquals(c.sasl(), new ServerConfig.Sasl(true,
                new ServerConfig.IdentityMapper(true, java.util.List.of("uid"), java.util.List.of())));
    }

    @Test
    public void plainCanBeDisabledAndTheMapperTakesSeveralAttributesAndBases() throws Exception {
        ServerConfig c = load(ConfigText.read(SHIPPED).set(PLAIN, "ds-cfg-enabled", "false")
                .set(MAPPER, "ds-cfg-match-attribute", "uid\nds-cfg-match-attribute: mail\n"
                        + "ds-cfg-match-base-dn: ou=People,dc=example,dc=com\nds-cfg-match-base-dn: dc=com"));
        assertFalse(c.sasl().plainEnabled());
        assertEquals(c.sasl().identityMapper().matchAttributes(), java.util.List.of("uid", "mail"));
        assertEquals(c.sasl().identityMapper().matchBaseDNs(),
                java.util.List.of(DN.valueOf("ou=People,dc=example,dc=com"), DN.valueOf("dc=com")));
    }

    @Test
    public void badMapperSettingsNameTheEntryAndTheAttribute() throws Exception {
        ConfigException e = expectThrows(ConfigException.class,
                () -> load(ConfigText.read(SHIPPED).set(MAPPER, "ds-cfg-match-attribute", "uid;x")));
        assertTrue(e.getMessage().startsWith(MAPPER + ": ds-cfg-match-attribute: 'uid;x' is not"), e.getMessage());
        e = expectThrows(ConfigException.class, () -> load(ConfigText.read(SHIPPED)
                .set(MAPPER, "ds-cfg-match-attribute", "uid\nds-cfg-match-base-dn: not a dn")));
        assertTrue(e.getMessage().startsWith(MAPPER + ": ds-cfg-match-base-dn: 'not a dn' is not a valid DN"),
                e.getMessage());
        e = expectThrows(ConfigException.class, () -> load(ConfigText.read(SHIPPED)
                .set(MAPPER, "ds-cfg-match-attribute", "uid\nds-cfg-match-base-dn: cn=config")));
        assertTrue(e.getMessage().startsWith(MAPPER + ": ds-cfg-match-base-dn: 'cn=config' is in no user backend"),
                e.getMessage());
        e = expectThrows(ConfigException.class,
                () -> load(ConfigText.read(SHIPPED).set(PLAIN, "ds-cfg-identity-mapper", "cn=Other,cn=config")));
        assertTrue(e.getMessage().startsWith(PLAIN + ": ds-cfg-identity-mapper: 'cn=Other,cn=config' is not"),
                e.getMessage());
        e = expectThrows(ConfigException.class,
                () -> load(ConfigText.read(SHIPPED).set(PLAIN, "ds-cfg-enabled", "yes")));
        assertTrue(e.getMessage().startsWith(PLAIN + ": ds-cfg-enabled: 'yes'"), e.getMessage());
    }
}
