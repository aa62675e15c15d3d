package io.bindfirst.server;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.security.SecureRandom;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.ServiceLoader;

import org.forgerock.opendj.ldap.ByteString;
import org.forgerock.opendj.ldap.DN;
import org.forgerock.opendj.ldap.Filter;
import org.forgerock.opendj.ldap.SearchScope;
import org.forgerock.opendj.ldap.schema.Schema;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import com.sun.management.UnixOperatingSystemMXBean;

import io.bindfirst.server.core.ServerContext;
import io.bindfirst.server.access.AccessPolicy;
import io.bindfirst.server.access.RootOnlyPolicy;
import io.bindfirst.server.access.aci.AciParser;
import io.bindfirst.server.access.aci.AciPolicy;
import io.bindfirst.server.access.aci.BackendDirectory;
import io.bindfirst.server.auth.Accounts;
import io.bindfirst.server.auth.AuthenticatedUsersListener;
import io.bindfirst.server.auth.AuthenticatedUsers;
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
import io.bindfirst.server.config.AccessControlConfig;
import io.bindfirst.server.config.ServerConfig;
import io.bindfirst.server.core.OperationFactory;
import io.bindfirst.server.group.Groups;
import io.bindfirst.server.group.ReferentialIntegrityPlugin;
import io.bindfirst.server.log.AccessLog;
import io.bindfirst.server.log.FileAccessLog;
import io.bindfirst.server.metrics.HttpMetricsListener;
import io.bindfirst.server.metrics.ServerMetrics;
import io.bindfirst.server.monitor.MonitorBackend;
import io.bindfirst.server.monitor.MonitorSubtree;
import io.bindfirst.server.stats.OperationCounts;
import io.bindfirst.server.net.ClientConnections;
import io.bindfirst.server.net.LdapConnectionHandler;
import io.bindfirst.server.commit.ChangeListener;
import io.bindfirst.server.commit.CommitPath;
import io.bindfirst.server.plugin.Plugin;
import io.bindfirst.server.plugin.PluginInvoker;
import io.bindfirst.server.pwd.PasswordAttribute;
import io.bindfirst.server.pwd.PasswordSchemes;
import io.bindfirst.server.pwd.PasswordStorageScheme;
import io.bindfirst.server.pwd.VerifiedCredentials;
import io.bindfirst.server.pwd.VerifiedCredentialsListener;
import io.bindfirst.server.schema.SchemaLoadException;
import io.bindfirst.server.schema.SchemaLoader;
import io.bindfirst.server.tls.TlsConfigException;
import io.bindfirst.server.tls.TlsContext;
import io.bindfirst.server.tls.TlsStatistics;
import io.bindfirst.server.virtual.VirtualEntries;
import io.bindfirst.server.work.SlowLane;
import io.bindfirst.server.work.WorkQueue;
import io.bindfirst.server.work.WorkerPool;
import io.reactivex.rxjava3.plugins.RxJavaPlugins;

/**
 * One running server: built from a {@link ServerConfig}, started, stopped. An instance, not a static
 * singleton, so tests run several in one JVM.
 */
public final class DirectoryServer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(DirectoryServer.class);
    /** The root password shipped in config.ldif, refused on anything but a loopback listener. */
    static final ByteString DEMO_ROOT_PASSWORD = ByteString.valueOfUtf8("password");
    /** File descriptors the server needs besides its client connections: JE files, logs, the JVM's jars. */
    static final int FILE_DESCRIPTOR_RESERVE = 256;

    private final ServerContext context;
    private final WorkQueue workQueue;
    private final LdapConnectionHandler connectionHandler;
    /** The server's TLS, or {@code null}; its file watcher stops with the server. */
    private final TlsContext tls;
    /** The HTTP listener for metrics and health probes, or {@code null} when it is disabled. */
    private final HttpMetricsListener httpMetrics;
    private final java.util.concurrent.atomic.AtomicBoolean closed = new java.util.concurrent.atomic.AtomicBoolean();
    /** Sample entries this start created (a first start of the demo), 0 when the backends held data. */
    private final long sampleEntriesCreated;

    private DirectoryServer(ServerContext context, WorkQueue workQueue, LdapConnectionHandler handler,
                            TlsContext tls, HttpMetricsListener httpMetrics, long sampleEntriesCreated) {
        this.sampleEntriesCreated = sampleEntriesCreated;
        this.context = context;
        this.workQueue = workQueue;
        this.connectionHandler = handler;
        this.tls = tls;
        this.httpMetrics = httpMetrics;
    }

    /** Opens the backends (creating sample data on a first start), then starts listening. */
    public static DirectoryServer start(ServerConfig config) throws ServerStartException {
        return start(config, List.of());
    }

    /**
     * As {@link #start(ServerConfig)}, with {@code extraListeners} told of every committed change after the
     * server's own listeners (a test's recorder; later, change feeds).
     */
    public static DirectoryServer start(ServerConfig config, List<ChangeListener> extraListeners)
            throws ServerStartException {
        // Errors delivered after a subscriber went away (a client that closed mid-response) are noise.
        RxJavaPlugins.setErrorHandler(e -> LOG.debug("Undeliverable reactive error", e));
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
        WorkQueue workQueue = null;
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
            WorkerPool pool = new WorkerPool(config.workQueue().workerThreads(), config.workQueue().capacity(), burst);
            workQueue = pool;
            ServerConfig.WorkQueue wq = config.workQueue();
            slowLane = new SlowLane(wq.slowLaneThreads(), wq.capacity(), wq.slowLaneCpuShare(), pool);
            connections = new ClientConnections(l.maxConnections(), config.limits().idleTimeLimitSeconds());
            AuthenticatedUsers<BoundConnection> authenticatedUsers =
                    new AuthenticatedUsers<>(BoundConnection::id, connections::byId);
            OperationCounts operationCounts = new OperationCounts();
            TlsStatistics tlsStatistics = new TlsStatistics();
            // cn=monitor reads these parts of the server live, whenever it is searched, and so do the HTTP metrics.
            CommitPath commits = new CommitPath();
            Accounts accounts = new Accounts(schema, config.passwords().policies(), passwords,
                    System::currentTimeMillis, commits);
            MonitorSubtree.Sources monitored = new MonitorSubtree.Sources(
                    System.currentTimeMillis(), System::currentTimeMillis, connections, operationCounts,
                    tlsStatistics, pool, slowLane, authenticatedUsers, passwords.verifiedCredentials(), opened,
                    accounts);
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
            commits.register(accessPolicy).register(groups).register(writeEpoch).register(accounts)
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
                    accounts, operationCounts, groups, new BindDns(schema, bindCacheEntries(config)), commits);
            ServerContext ctx = withoutPlugins.withPlugins(new PluginInvoker(plugins(config, withoutPlugins)));
            LdapConnectionHandler handler = new LdapConnectionHandler(l, config.ldapsListener(), tls, schema,
                    new OperationFactory(ctx), ctx.authenticatedUsers(), accessLog, workQueue, connections,
                    tlsStatistics);
            HttpMetricsListener httpMetrics = null;
            if (config.httpMetrics().enabled()) {
                try {
                    httpMetrics = HttpMetricsListener.start(config.httpMetrics(),
                            ServerMetrics.registry(monitored, handler::timesReadsParked), handler.address(), opened);
                } catch (IOException | RuntimeException e) {
                    handler.close();
                    throw e;
                }
            }
            warnIfTooFewFileDescriptors(config.listener().maxConnections());
            return new DirectoryServer(ctx, workQueue, handler, tls, httpMetrics, sampleEntries);
        } catch (IOException | BackendException | RuntimeException | ServerStartException e) {
            if (workQueue != null) {
                workQueue.close();
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
            // The connection handler's IOException names the listener that could not start.
            throw new ServerStartException(e.getMessage(), e);
        }
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
     * Each client connection is a file descriptor, and a server out of them stops accepting without a word
     * from the transport: say so at start when the limit cannot hold the configured maximum.
     */
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

    private static void warnIfTooFewFileDescriptors(int maxConnections) {
        if (ManagementFactory.getOperatingSystemMXBean() instanceof UnixOperatingSystemMXBean os) {
            long limit = os.getMaxFileDescriptorCount();
            long needed = (long) maxConnections + FILE_DESCRIPTOR_RESERVE;
            if (limit < needed) {
                LOG.warn("The open-files limit is {}, below the {} client connections allowed "
                        + "(ds-cfg-max-allowed-client-connections) plus {} for the server itself: connections "
                        + "beyond about {} will not be accepted. Raise the limit or lower the setting.",
                        limit, maxConnections, FILE_DESCRIPTOR_RESERVE, Math.max(0, limit - FILE_DESCRIPTOR_RESERVE));
            }
        }
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
        if (users <= 0 || backend.maintenance().entryCount() > 0) {
            return 0;
        }
        PasswordStorageScheme ssha = schemes.scheme("SSHA").orElseThrow();
        long t0 = System.nanoTime();
        long n = backend.maintenance().importEntries(new SampleData(backend.baseDNs().get(0), users, schema, ssha,
                passwords));
        LOG.info("Created {} sample entries under {} in {} ms", n, backend.baseDNs().get(0),
                (System.nanoTime() - t0) / 1_000_000);
        return n;
    }

    /** How many sample entries this start created: more than 0 only on a first start with sample data. */
    public long sampleEntriesCreated() {
        return sampleEntriesCreated;
    }

    public ServerContext context() {
        return context;
    }

    /** The open client connections (their count, the limits). */
    public ClientConnections clientConnections() {
        return connectionHandler.connections();
    }

    /** The work queue operations run from (its high-water figures are for tests and benchmarks). */
    public WorkQueue workQueue() {
        return workQueue;
    }

    /** How often a saturated work queue parked a connection's read since the start (per-connection limits aside). */
    public long timesReadsParked() {
        return connectionHandler.timesReadsParked();
    }

    /** Operations started on the selector thread that read them ({@code ds-cfg-inline-cheap-operations}). */
    public long operationsStartedInline() {
        return workQueue.startedInline();
    }

    /** Where the LDAP listener is bound (with the real port when 0 was configured). */
    public InetSocketAddress ldapAddress() {
        return connectionHandler.address();
    }

    /** Where the LDAPS listener is bound, or {@code null} when it is disabled. */
    public InetSocketAddress ldapsAddress() {
        return connectionHandler.ldapsAddress();
    }

    /**
     * Reads the TLS key and certificate files again now, if they changed, instead of at the next periodic check
     * (bin/reload-tls asks it with SIGHUP). New connections get the new certificate; established ones carry on.
     *
     * @return whether a new certificate is now in use ({@code false}: no TLS, the files unchanged, or unusable:
     *         the server log says which)
     */
    public boolean reloadTls() {
        if (tls == null) {
            LOG.info("Asked to reload the TLS key and certificate, but TLS is not configured");
            return false;
        }
        boolean reloaded = tls.reloadIfChanged();
        if (!reloaded) {
            LOG.info("Asked to reload the TLS key and certificate: no new certificate is in use (the files are "
                    + "unchanged, or a warning above says why they cannot be used)");
        }
        return reloaded;
    }

    /** Where the HTTP metrics listener is bound, or {@code null} when it is disabled. */
    public InetSocketAddress httpMetricsAddress() {
        return httpMetrics == null ? null : httpMetrics.address();
    }

    /** What the TLS handshakes did since the start: for a monitor to publish. */
    public TlsStatistics tlsStatistics() {
        return connectionHandler.tlsStatistics();
    }

    /**
     * Stops listening (HTTP first, so health probes fail from the start of the shutdown), sends each connection
     * a notice of disconnection, finishes queued operations, closes the backends and the access log.
     */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        if (httpMetrics != null) {
            httpMetrics.close();
        }
        connectionHandler.close();
        if (tls != null) {
            tls.close();
        }
        workQueue.close();
        context.slowLane().close();
        context.accounts().close();
        context.backends().close();
        context.accessLog().close();
    }
}
