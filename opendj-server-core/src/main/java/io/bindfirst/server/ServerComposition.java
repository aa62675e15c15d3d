package io.bindfirst.server;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.security.SecureRandom;
import java.time.Clock;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;

import org.forgerock.opendj.ldap.ByteString;
import org.forgerock.opendj.ldap.DN;
import org.forgerock.opendj.ldap.Filter;
import org.forgerock.opendj.ldap.SearchScope;
import org.forgerock.opendj.ldap.schema.Schema;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.bindfirst.server.cache.LookupCache;
import io.bindfirst.server.access.AccessPolicy;
import io.bindfirst.server.access.RootOnlyPolicy;
import io.bindfirst.server.access.aci.AciParser;
import io.bindfirst.server.access.aci.AciPolicy;
import io.bindfirst.server.access.aci.BackendDirectory;
import io.bindfirst.server.auth.Accounts;
import io.bindfirst.server.auth.AuthenticatedUsers;
import io.bindfirst.server.auth.AuthenticatedUsersListener;
import io.bindfirst.server.auth.BindAttributes;
import io.bindfirst.server.auth.BindDns;
import io.bindfirst.server.auth.BoundConnection;
import io.bindfirst.server.auth.ExactMatchIdentityMapper;
import io.bindfirst.server.auth.RootUsers;
import io.bindfirst.server.auth.WriteEpoch;
import io.bindfirst.server.backend.Backend;
import io.bindfirst.server.backend.BackendConfig;
import io.bindfirst.server.backend.BackendException;
import io.bindfirst.server.backend.BackendProvider;
import io.bindfirst.server.backend.Backends;
import io.bindfirst.server.backend.ReadOnlyMemoryBackend;
import io.bindfirst.server.backend.Replication;
import io.bindfirst.server.backend.ReplicationSettings;
import io.bindfirst.server.commit.Change;
import io.bindfirst.server.commit.ChangeListener;
import io.bindfirst.server.commit.CommitPath;
import io.bindfirst.server.config.AccessControlConfig;
import io.bindfirst.server.config.ServerConfig;
import io.bindfirst.server.core.ServerContext;
import io.bindfirst.server.replication.ReplicaWrites;
import io.bindfirst.server.group.Groups;
import io.bindfirst.server.group.ReferentialIntegrityPlugin;
import io.bindfirst.server.log.AccessLog;
import io.bindfirst.server.log.FileAccessLog;
import io.bindfirst.server.monitor.MonitorBackend;
import io.bindfirst.server.monitor.MonitorSubtree;
import io.bindfirst.server.net.ClientConnections;
import io.bindfirst.server.plugin.Plugin;
import io.bindfirst.server.plugin.PluginInvoker;
import io.bindfirst.server.pwd.PasswordAttribute;
import io.bindfirst.server.pwd.PasswordSchemes;
import io.bindfirst.server.pwd.PasswordStorageScheme;
import io.bindfirst.server.pwd.VerifiedCredentials;
import io.bindfirst.server.pwd.VerifiedCredentialsListener;
import io.bindfirst.server.schema.SchemaLoadException;
import io.bindfirst.server.schema.SchemaLoader;
import io.bindfirst.server.stats.OperationCounts;
import io.bindfirst.server.tls.TlsConfigException;
import io.bindfirst.server.tls.TlsContext;
import io.bindfirst.server.tls.TlsStatistics;
import io.bindfirst.server.virtual.VirtualEntries;
import io.bindfirst.server.work.SlowLane;
import io.bindfirst.server.work.WorkerPool;

/**
 * A server without its transport: everything {@link DirectoryServer} builds from a {@link ServerConfig} before it
 * opens a listener (schema, password schemes, root users, TLS context, the backends through their providers and
 * the first start's sample data, access log, workers and slow lane, the table of connections, the commit path and
 * its listeners, access policy, groups, plugins), composed into the {@link ServerContext} operations run with.
 * {@code DirectoryServer} puts the listeners around one; a test runs operations on one directly, without a
 * socket, composed exactly as the server's is, so the two cannot drift apart.
 */
public final class ServerComposition implements AutoCloseable {
    /** DirectoryServer's logger: what a start writes to the server log is the same as before this class. */
    private static final Logger LOG = LoggerFactory.getLogger(DirectoryServer.class);
    /** The root password shipped in config.ldif, refused on anything but a loopback listener. */
    static final ByteString DEMO_ROOT_PASSWORD = ByteString.valueOfUtf8("password");

    final ServerContext context;
    /** The server's TLS, or {@code null}. */
    final TlsContext tls;
    final WorkerPool workers;
    final ClientConnections connections;
    final TlsStatistics tlsStatistics;
    /** What cn=monitor and the HTTP metrics read live. */
    final MonitorSubtree.Sources monitored;
    final List<Backend> userBackends;
    /** Sample entries this start created (a first start of the demo), 0 when the backends held data. */
    final long sampleEntriesCreated;

    private ServerComposition(ServerContext context, TlsContext tls, WorkerPool workers,
                              ClientConnections connections, TlsStatistics tlsStatistics,
                              MonitorSubtree.Sources monitored, List<Backend> userBackends,
                              long sampleEntriesCreated) {
        this.context = context;
        this.tls = tls;
        this.workers = workers;
        this.connections = connections;
        this.tlsStatistics = tlsStatistics;
        this.monitored = monitored;
        this.userBackends = userBackends;
        this.sampleEntriesCreated = sampleEntriesCreated;
    }

    /**
     * Opens the backends (creating sample data on a first start) and builds everything operations use. The
     * listeners' safety checks run first, before any backend opens, so a refused start creates nothing.
     *
     * @param extraListeners told of every committed change after the server's own listeners
     */
    public static ServerComposition open(ServerConfig config, List<ChangeListener> extraListeners)
            throws ServerStartException {
        Schema schema;
        try {
            schema = SchemaLoader.load(config.schemaDirectory());
        } catch (SchemaLoadException e) {
            throw new ServerStartException(e.getMessage(), e);
        }
        try {
            new ExactMatchIdentityMapper(config.sasl().identityMapper(), schema); // its attribute types exist
        } catch (IllegalArgumentException e) {
            throw new ServerStartException(e.getMessage(), e);
        }
        PasswordSchemes schemes;
        try {
            schemes = new PasswordSchemes(config.passwords().defaultScheme(), config.passwords().allowClearText(),
                    config.passwords().costs());
        } catch (IllegalArgumentException e) {
            throw new ServerStartException("cn=Password Storage Schemes,cn=config: "
                    + "ds-cfg-default-password-storage-scheme: " + e.getMessage(), e);
        }
        // The verified-credential cache's HMAC key is made here, for this process only (see VerifiedCredentials).
        PasswordAttribute passwords = new PasswordAttribute(schema, schemes,
                new VerifiedCredentials(config.passwords().verifiedCredentialCacheSize(), new SecureRandom()));
        RootUsers rootUsers = new RootUsers(config.rootUsers(), passwords);
        checkListenerIsSafe(config, config.listener(), rootUsers);
        if (config.ldapsListener() != null) {
            checkListenerIsSafe(config, config.ldapsListener(), rootUsers);
        }
        TlsContext tls = null;
        if (config.tls() != null) {
            try {
                tls = TlsContext.open(config.tls(), config.instanceRoot().getFileName() == null ? "bindfirst"
                        : config.instanceRoot().getFileName().toString());
            } catch (TlsConfigException e) {
                throw new ServerStartException(e.getMessage(), e);
            }
        }

        List<Backend> opened = new ArrayList<>();
        AccessLog accessLog = AccessLog.DISABLED;
        WorkerPool pool = null;
        SlowLane slowLane = null;
        ClientConnections connections = null;
        long sampleEntries = 0;
        try {
            for (BackendConfig bc : config.backends()) {
                Backend b = open(bc, schema);
                opened.add(b);
                sampleEntries += createSampleData(b, config.sampleEntries().getOrDefault(bc.id(), 0), schema,
                        schemes, passwords);
            }
            if (config.accessLog() != null) {
                try {
                    accessLog = new FileAccessLog(config.accessLog().file(), config.accessLog().rotation(),
                            config.accessLog().format(), 65_536);
                } catch (IOException e) {
                    throw new ServerStartException("Cannot open the access log " + config.accessLog().file() + ": "
                            + e.getMessage(), e);
                }
            }
            // After the read gate closes, each selector (and each worker resuming parked reads) may still be
            // decoding one connection's pipelined requests, at most the per-connection limit of them.
            ServerConfig.Listener l = config.listener();
            int burst = (l.selectorThreads() + config.workQueue().workerThreads()) * l.maxConcurrentOpsPerConnection();
            pool = new WorkerPool(config.workQueue().workerThreads(), config.workQueue().capacity(), burst);
            ServerConfig.WorkQueue wq = config.workQueue();
            slowLane = new SlowLane(wq.slowLaneThreads(), wq.capacity(), wq.slowLaneCpuShare(), pool);
            connections = new ClientConnections(l.maxConnections(), config.limits().idleTimeLimitSeconds());
            AuthenticatedUsers<BoundConnection> authenticatedUsers =
                    new AuthenticatedUsers<>(BoundConnection::id, connections::byId);
            OperationCounts operationCounts = new OperationCounts();
            TlsStatistics tlsStatistics = new TlsStatistics();
            // cn=monitor reads these parts of the server live, whenever it is searched, and so do the HTTP metrics.
            CommitPath commits = new CommitPath();
            ReplicaWrites replicaWrites = replicaWrites(config, opened);
            Accounts accounts = new Accounts(schema, config.passwords().policies(), passwords,
                    System::currentTimeMillis, commits, replicaWrites);
            LookupCache lookups = new LookupCache(lookupCacheEntries(config));
            MonitorSubtree.Sources monitored = new MonitorSubtree.Sources(
                    System.currentTimeMillis(), System::currentTimeMillis, connections, operationCounts,
                    tlsStatistics, pool, slowLane, authenticatedUsers, passwords.verifiedCredentials(), opened,
                    accounts, lookups);
            MonitorBackend monitor = MonitorSubtree.backend(schema, monitored);
            DN configSuffix = DN.valueOf("cn=config");
            Backends backends = new Backends(opened, new ReadOnlyMemoryBackend(configSuffix, config.entries()),
                    monitor);
            Groups groups = new Groups(schema, backends, config.memberOfAlias());
            groups.load();
            WriteEpoch writeEpoch = new WriteEpoch();
            AccessPolicy accessPolicy = accessPolicy(config, schema, passwords, backends, configSuffix, groups);
            // The order every change is seen in (CommitPath says why): rules and groups, the epoch, then the
            // state derived from entries, the registry last.
            commits.register(accessPolicy).register(groups).register(lookups).register(writeEpoch).register(accounts)
                    .register(new VerifiedCredentialsListener(passwords))
                    .register(new AuthenticatedUsersListener(authenticatedUsers, accounts));
            extraListeners.forEach(commits::register);
            ServerContext withoutPlugins = new ServerContext(config, schema, backends, schemes, rootUsers,
                    authenticatedUsers, writeEpoch, accessPolicy, accessLog,
                    new VirtualEntries(schema, backends.namingContexts(), backends.privateSuffixes(),
                            tls != null && l.allowStartTls(),
                            tls != null && tls.requestsClientCertificates(), config.sasl().plainEnabled()),
                    BindAttributes.of(schema, config.passwords().policies()),
                    new PluginInvoker(List.of()), slowLane, passwords,
                    accounts, operationCounts, groups, new BindDns(schema, bindCacheEntries(config)), commits,
                    lookups, replicaWrites);
            ServerContext ctx = withoutPlugins.withPlugins(new PluginInvoker(plugins(config, withoutPlugins)));
            // A replica's changes are made by its group's master: here they take the same path as a local write's,
            // with no client waiting, once every listener is in place.
            for (Backend b : opened) {
                b.replication().follow(change -> commits.commit(Change.of(change, Change.NO_CONNECTION)));
            }
            return new ServerComposition(ctx, tls, pool, connections, tlsStatistics, monitored, opened,
                    sampleEntries);
        } catch (BackendException | RuntimeException | ServerStartException e) {
            closeAfterFailedStart(pool, slowLane, connections, accessLog, opened, tls);
            throw new ServerStartException(e.getMessage(), e);
        }
    }

    /** Each replicated backend's setting for a client's write while it is a replica. */
    private static ReplicaWrites replicaWrites(ServerConfig config, List<Backend> opened) {
        Map<Backend, ReplicationSettings.ReplicaWrites> settings = new IdentityHashMap<>();
        for (int i = 0; i < opened.size(); i++) {
            ReplicationSettings r = config.backends().get(i).replication();
            if (r != null) {
                settings.put(opened.get(i), r.writes());
            }
        }
        return new ReplicaWrites(settings);
    }

    /**
     * Tells each replicated backend's group how to reach this server over LDAP, once its listener is bound: the
     * node's {@code ds-cfg-replication-ldap-url}, else the listener's address (when it is not a wildcard) or the
     * host of the node's replication address, with the listener's port.
     */
    void advertise(InetSocketAddress ldap) {
        ServerConfig config = context.config();
        for (int i = 0; i < userBackends.size(); i++) {
            ReplicationSettings r = config.backends().get(i).replication();
            if (r != null) {
                String host = ldap.getAddress() != null && !ldap.getAddress().isAnyLocalAddress()
                        ? ldap.getAddress().getHostAddress() : r.address().substring(0, r.address().lastIndexOf(':'));
                String url = r.ldapUrl() != null ? r.ldapUrl()
                        : "ldap://" + (host.contains(":") ? "[" + host + "]" : host) + ":" + ldap.getPort();
                userBackends.get(i).replication().advertise(url);
                LOG.info("Backend {}: this node tells its replication group it takes LDAP at {}",
                        config.backends().get(i).id(), url);
            }
        }
    }

    /** What operations run with. */
    public ServerContext context() {
        return context;
    }

    /**
     * Undoes a start that failed after this was composed (a listener that could not bind): what a start that fails
     * closes, in the same order as when it fails while composing.
     */
    void closeAfterFailedStart() {
        closeAfterFailedStart(workers, context.slowLane(), connections, context.accessLog(), userBackends, tls);
    }

    private static void closeAfterFailedStart(WorkerPool pool, SlowLane slowLane, ClientConnections connections,
                                              AccessLog accessLog, List<Backend> opened, TlsContext tls) {
        if (pool != null) {
            pool.close();
        }
        if (slowLane != null) {
            slowLane.close();
        }
        if (connections != null) {
            connections.close();
        }
        accessLog.close();
        opened.forEach(Backend::close);
        if (tls != null) {
            tls.close();
        }
    }

    /**
     * Closes what it opened, after the transport (if any) has stopped: the TLS context, the workers, the slow
     * lane, the deferred account writes, the backends, then the access log; last the connections' timer, which a
     * transport closes first itself (closing it again does nothing).
     */
    @Override
    public void close() {
        if (tls != null) {
            tls.close();
        }
        workers.close();
        context.slowLane().close();
        context.accounts().close();
        context.replicaWrites().close();
        context.backends().close();
        context.accessLog().close();
        connections.close();
    }

    /**
     * Builds each configured plugin: the server's own from the parts each needs (they live below the operations,
     * so they cannot take the {@link ServerContext}), any other with its public constructor taking the context.
     */
    private static List<Plugin> plugins(ServerConfig config, ServerContext context) throws ServerStartException {
        List<Plugin> out = new ArrayList<>();
        for (ServerConfig.PluginConfig pc : config.plugins()) {
            try {
                Class<? extends Plugin> type = Class.forName(pc.className()).asSubclass(Plugin.class);
                if (type == ReferentialIntegrityPlugin.class) {
                    out.add(new ReferentialIntegrityPlugin(pc, context.schema(), context.groups(),
                            context.backends(), context.commits()));
                    continue;
                }
                out.add(type.getConstructor(ServerContext.class).newInstance(context));
            } catch (java.lang.reflect.InvocationTargetException e) {
                // The plugin's constructor refused its configuration: its message names the entry and attribute.
                Throwable cause = e.getCause();
                throw new ServerStartException(cause.getMessage() != null ? cause.getMessage()
                        : pc.entry() + ": the plugin " + pc.className() + " failed to start (" + cause + ")", cause);
            } catch (IllegalArgumentException e) {
                throw new ServerStartException(e.getMessage(), e); // a built-in plugin refused its configuration
            } catch (ReflectiveOperationException | ClassCastException e) {
                throw new ServerStartException(pc.entry() + ": ds-cfg-java-class: cannot create plugin '"
                        + pc.className() + "' (" + e.getClass().getSimpleName() + "); it must implement "
                        + Plugin.class.getName() + " with a public constructor taking a ServerContext", e);
            }
        }
        return out;
    }

    private static void checkListenerIsSafe(ServerConfig config, ServerConfig.Listener listener, RootUsers rootUsers)
            throws ServerStartException {
        String address = listener.address();
        String entry = listener.useSsl() ? "cn=LDAPS Connection Handler,cn=Connection Handlers,cn=config"
                : "cn=LDAP Connection Handler,cn=Connection Handlers,cn=config";
        boolean loopback;
        try {
            loopback = InetAddress.getByName(address).isLoopbackAddress();
        } catch (UnknownHostException e) {
            throw new ServerStartException(entry + ": ds-cfg-listen-address: cannot resolve '" + address + "'");
        }
        // The bind ceiling is the operation factory's, for every listener: check each listener's address.
        if (!loopback && config.listener().bindCeiling()) {
            throw new ServerStartException(entry + ": ds-cfg-benchmark-bind-ceiling: refused on the non-loopback "
                    + "address " + address
                    + ": it accepts every bind without a password");
        }
        if (config.listener().bindCeiling() && !listener.useSsl()) {
            LOG.warn("Benchmark bind ceiling mode: every bind succeeds without a password check");
        }
        if (!loopback && rootUsers.anyUses(DEMO_ROOT_PASSWORD)) {
            throw new ServerStartException("Refusing to listen on " + address + ": the root user still has the "
                    + "shipped demo password. Set a new userPassword in cn=Directory Manager,cn=Root DNs,cn=config "
                    + "or listen on 127.0.0.1");
        }
    }

    /**
     * The access rules: ACIs (global ones from the configuration, and every {@code aci} value in the user
     * backends, found by one search of each at start), or the fixed root-only rules when access control is off.
     */
    private static AccessPolicy accessPolicy(ServerConfig config, Schema schema, PasswordAttribute passwords,
                                             Backends backends, DN configSuffix, Groups groups)
            throws ServerStartException, BackendException {
        AccessControlConfig settings = config.accessControl();
        if (!settings.enabled()) {
            return new RootOnlyPolicy(passwords, configSuffix, MonitorBackend.BASE_DN);
        }
        AciPolicy policy = new AciPolicy(schema, passwords,
                new BackendDirectory(backends, groups::isMember, Clock.systemUTC()), configSuffix,
                MonitorBackend.BASE_DN, VirtualEntries.SCHEMA_DN);
        policy.setUnindexedSearchNeedsPrivilege(settings.unindexedSearchNeedsPrivilege());
        try {
            policy.setGlobal(settings.globalAcis());
        } catch (AciParser.AciSyntaxException e) {
            throw new ServerStartException(AccessControlConfig.ENTRY + ": ds-cfg-global-aci: " + e.getMessage());
        }
        Filter holders = Filter.present(policy.aciAttribute().toString());
        for (Backend b : backends.userBackends()) {
            for (DN base : b.baseDNs()) {
                if (b.entryExists(base)) {
                    b.search(base, SearchScope.WHOLE_SUBTREE, holders, e -> {
                        policy.load(e);
                        return true;
                    });
                }
            }
        }
        return policy;
    }

    /** As many parsed bind DNs as the backends keep entries for binds: a DN is worth keeping while its entry is. */
    private static long bindCacheEntries(ServerConfig config) {
        long n = 0;
        for (BackendConfig bc : config.backends()) {
            n += bc.bindCacheEntries();
        }
        return n;
    }

    /** ds-cfg-lookup-cache-entries summed over the backends. */
    private static int lookupCacheEntries(ServerConfig config) {
        long n = 0;
        for (BackendConfig bc : config.backends()) {
            n += bc.lookupCacheEntries();
        }
        return (int) Math.min(n, 10_000_000);
    }

    private static Backend open(BackendConfig bc, Schema schema) throws BackendException, ServerStartException {
        for (BackendProvider p : ServiceLoader.load(BackendProvider.class)) {
            if (p.type().equals(bc.type())) {
                return p.open(bc, schema);
            }
        }
        throw new ServerStartException("ds-cfg-backend-id=" + bc.id() + ",cn=Backends,cn=config: "
                + "ds-cfg-backend-type: no backend implementation of type '" + bc.type() + "' is installed");
    }

    /** Fills an empty backend with the demo's users; returns the entries created (0: it held data). */
    private static long createSampleData(Backend backend, int users, Schema schema, PasswordSchemes schemes,
                                         PasswordAttribute passwords) throws BackendException {
        Replication.Role role = backend.replication().status().role();
        if (users <= 0 || backend.maintenance().entryCount() > 0
                || (role != Replication.Role.STANDALONE && role != Replication.Role.MASTER)) {
            return 0; // a replica's entries come from its master
        }
        PasswordStorageScheme ssha = schemes.scheme("SSHA").orElseThrow();
        long t0 = System.nanoTime();
        long n = backend.maintenance().importEntries(new SampleData(backend.baseDNs().get(0), users, schema, ssha,
                passwords));
        LOG.info("Created {} sample entries under {} in {} ms", n, backend.baseDNs().get(0),
                (System.nanoTime() - t0) / 1_000_000);
        return n;
    }
}
