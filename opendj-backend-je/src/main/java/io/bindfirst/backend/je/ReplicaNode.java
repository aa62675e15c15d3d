package io.bindfirst.backend.je;

import java.io.File;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import org.forgerock.opendj.ldap.ResultCode;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import com.sleepycat.je.Durability;
import com.sleepycat.je.EnvironmentConfig;
import com.sleepycat.je.EnvironmentFailureException;
import com.sleepycat.je.rep.InsufficientAcksException;
import com.sleepycat.je.rep.InsufficientLogException;
import com.sleepycat.je.rep.InsufficientReplicasException;
import com.sleepycat.je.rep.NetworkRestore;
import com.sleepycat.je.rep.NetworkRestoreConfig;
import com.sleepycat.je.rep.NoConsistencyRequiredPolicy;
import com.sleepycat.je.rep.NodeType;
import com.sleepycat.je.rep.QuorumPolicy;
import com.sleepycat.je.rep.RepInternal;
import com.sleepycat.je.rep.RestartRequiredException;
import com.sleepycat.je.rep.RollbackException;
import com.sleepycat.je.rep.ReplicaWriteException;
import com.sleepycat.je.rep.ReplicatedEnvironment;
import com.sleepycat.je.rep.ReplicationConfig;
import com.sleepycat.je.rep.ReplicationNode;
import com.sleepycat.je.rep.StateChangeEvent;
import com.sleepycat.je.rep.StateChangeException;
import com.sleepycat.je.rep.TimeConsistencyPolicy;
import com.sleepycat.je.rep.UnknownMasterException;
import com.sleepycat.je.rep.impl.node.CommitFreezeLatch;
import com.sleepycat.je.rep.util.DbEnableReplication;
import com.sleepycat.je.rep.util.ReplicationGroupAdmin;
import com.sleepycat.je.rep.utilint.ServiceDispatcher.ServiceConnectFailedException;

import io.bindfirst.server.backend.BackendException;
import io.bindfirst.server.backend.Replication;
import io.bindfirst.server.backend.ReplicationSettings;

/**
 * One node of a JE High Availability group: opens the replicated environment of a backend's storage, follows the
 * node's role as JE elects masters, and says in LDAP terms why JE refused a write.
 *
 * <p>Settings chosen here, and why:
 * <ul>
 * <li>A write commits once a simple majority of the electable nodes has it: the master fsyncs its log, a replica
 *     acknowledges once the change is in its memory (its own log is written soon after); a change a majority holds
 *     survives the loss of any minority, so it is never fsynced twice on the path of a client's answer.</li>
 * <li>Reads never wait for a replica to catch up ({@link NoConsistencyRequiredPolicy}): a login must not stall
 *     because its node is a second behind. JE's default would block a read for up to an hour on a lagging node.</li>
 * <li>When it starts, a node waits up to {@link #CATCH_UP_SECONDS} for its replica to come within a second of the
 *     master, so that it does not serve from a stale copy from its first answer; and without a master in reach (no
 *     majority) it opens anyway after {@link #UNKNOWN_STATE_SECONDS}, serving reads, so that a node alone still
 *     answers binds.</li>
 * </ul>
 */
final class ReplicaNode {
    /** How long a starting node waits to catch up with the master before it serves. */
    static final int CATCH_UP_SECONDS = 300;
    /** How long a starting node waits for a master before it opens without one (reads only). */
    static final int UNKNOWN_STATE_SECONDS = 10;
    /**
     * How long a commit waits for a majority's acknowledgement. After a failover, the new master's first commit
     * sometimes waits out the whole timeout although the other node has joined it (JE alone, three processes,
     * SIGKILL of the master: 1 in 5 to 9 failovers took JE's default 5 s more before the first write; with 2 s,
     * none in 15). A replica that is alive acknowledges in milliseconds, so 2 s is far above a real wait.
     */
    static final int ACK_TIMEOUT_SECONDS = 2;
    // The same bound for a write that finds too few nodes in reach when it begins (JE waits 10 s by default for
    // them to come back): the client hears "unavailable" in 2 s rather than 10, and nothing is written.
    /**
     * How long a replica holds back its replay while an election it answered is under way. When the master dies,
     * both survivors propose at once; a replica that promised the later proposal, and then learned that the earlier
     * one won, waits for news of the later one that never comes: JE 18.3.12 then holds the replay (and so every
     * acknowledgement the new master waits for) for 5 s, fixed, before it goes on as if the election were over.
     * Three processes, SIGKILL of the master, 10 kills: 6 of 10 failovers took 6.0 s to a confirmed write, all
     * spent here (thread dumps: the replay thread in {@code CommitFreezeLatch.awaitThaw}). An election on loopback
     * takes 20 ms, on a LAN tens of milliseconds, so 1 s still covers it many times over; an election slower than
     * this is the case JE's own 5 s already leaves to the syncup that follows.
     */
    static final int ELECTION_FREEZE_MILLIS = 1_000;
    /**
     * How long a replica hears nothing from its master (and a master from a replica) before it takes the link as
     * broken: a master that is cut off or hung, not dead (its connections stay open), is replaced this long after
     * it went silent. JE's default is 30 s; a heartbeat goes every second, so 10 s is ten missed in a row, and longer
     * than a full collection of this server's heaps takes.
     */
    static final int SILENCE_TIMEOUT_SECONDS = 10;
    /**
     * How long an election waits to connect to a node and for its answer (JE: 10 s each). A node across a cut
     * link answers nothing, and with JE's defaults the majority side took 31 s from the cut to a new master (10 s
     * of silence, then elections waiting on the cut-off node); an election message takes milliseconds on a LAN.
     */
    static final int ELECTION_WAIT_SECONDS = 2;
    /**
     * How often the master repeats the election's result to every node: how a master that was cut off learns, once
     * the link heals, that another was elected (JE's default is a minute; a message per node each time).
     */
    static final int ELECTION_REBROADCAST_SECONDS = 5;

    private static final Logger LOG = LoggerFactory.getLogger(ReplicaNode.class);

    private final String backendId;
    private final ReplicationSettings settings;
    private volatile ReplicatedEnvironment env;
    private volatile Replication.Status status;
    /** Called each time this node becomes the master, before JE's listener returns. */
    private final Runnable becameMaster;
    /**
     * This node's LDAP URL, as JE hands it to any node that asks ({@link #advertise}); {@code null} until known,
     * never empty: JE answers an empty application state with an IllegalStateException in the thread that serves
     * the group's questions, and a node joining then waits forever for the group's membership (found in the tests:
     * the second node of a group whose first had advertised nothing yet never opened).
     */
    private volatile byte[] advertised;
    /** Who is told when JE says the storage must be reopened ({@link #whenRestartRequired}). */
    private final java.util.concurrent.atomic.AtomicReference<java.util.function.Consumer<String>> onRestart =
            new java.util.concurrent.atomic.AtomicReference<>();
    /** Why the storage must be reopened, once JE said so; {@code null} before. */
    private volatile String restartReason;
    /** The master's LDAP URL once asked; dropped at each change of role. */
    private volatile MasterUrl masterUrl;

    /** What master {@code node} advertised. */
    private record MasterUrl(String node, String url) {
    }

    ReplicaNode(String backendId, ReplicationSettings settings, Runnable becameMaster) {
        this.backendId = backendId;
        this.settings = settings;
        this.becameMaster = becameMaster;
        this.status = new Replication.Status(Replication.Role.UNKNOWN, settings.groupName(), settings.nodeName(),
                null, null);
    }

    /** The durability of every write: see the class comment. */
    static Durability durability() {
        return new Durability(Durability.SyncPolicy.SYNC, Durability.SyncPolicy.NO_SYNC,
                Durability.ReplicaAckPolicy.SIMPLE_MAJORITY);
    }

    /** Opens (joining the group, creating the directory's environment if new) with {@code envConfig}. */
    ReplicatedEnvironment open(File home, EnvironmentConfig envConfig) {
        ReplicationConfig rep = new ReplicationConfig(settings.groupName(), settings.nodeName(), settings.address());
        rep.setHelperHosts(String.join(",", settings.helpers()));
        rep.setNodeType(settings.nodeType() == ReplicationSettings.NodeType.SECONDARY ? NodeType.SECONDARY
                : NodeType.ELECTABLE);
        rep.setConsistencyPolicy(NoConsistencyRequiredPolicy.NO_CONSISTENCY);
        rep.setConfigParam(ReplicationConfig.ENV_UNKNOWN_STATE_TIMEOUT, UNKNOWN_STATE_SECONDS + " s");
        rep.setConfigParam(ReplicationConfig.REPLICA_ACK_TIMEOUT, ACK_TIMEOUT_SECONDS + " s");
        rep.setConfigParam(ReplicationConfig.INSUFFICIENT_REPLICAS_TIMEOUT, ACK_TIMEOUT_SECONDS + " s");
        rep.setConfigParam(ReplicationConfig.REPLICA_TIMEOUT, SILENCE_TIMEOUT_SECONDS + " s");
        rep.setConfigParam(ReplicationConfig.FEEDER_TIMEOUT, SILENCE_TIMEOUT_SECONDS + " s");
        // Parameters JE accepts by name without a constant in ReplicationConfig.
        rep.setConfigParam("je.rep.electionsOpenTimeout", ELECTION_WAIT_SECONDS + " s");
        rep.setConfigParam("je.rep.electionsReadTimeout", ELECTION_WAIT_SECONDS + " s");
        rep.setConfigParam(ReplicationConfig.ELECTIONS_REBROADCAST_PERIOD, ELECTION_REBROADCAST_SECONDS + " s");
        applyEngineProperties(rep);
        envConfig.setDurability(durability());
        ReplicatedEnvironment opened;
        try {
            opened = openConverting(home, rep, envConfig);
        } catch (InsufficientLogException e) {
            // An empty node joining a group whose early log is gone, or a node stopped for longer than the others
            // keep their log for it: JE's network restore copies a current node's files, then the node opens.
            LOG.warn("Backend {}: node {} is too far behind the other nodes' logs to catch up by replay; copying "
                    + "the database from another node of group {} over the network", backendId,
                    settings.nodeName(), settings.groupName());
            long started = System.nanoTime();
            NetworkRestore restore = new NetworkRestore();
            restore.execute(e, new NetworkRestoreConfig().setRetainLogFiles(false));
            LOG.info("Backend {}: node {} copied the database from node {} in {} ms", backendId, settings.nodeName(),
                    restore.getLogProvider().getName(), (System.nanoTime() - started) / 1_000_000);
            opened = openOnce(home, rep, envConfig);
        }
        env = opened;
        shortenElectionFreeze(opened);
        opened.registerAppStateMonitor(() -> advertised);
        opened.setStateChangeListener(this::stateChanged);
        return opened;
    }

    /**
     * The node's {@code ds-cfg-replication-je-property} values, after this class's own settings (so they can change
     * them): the channel's ({@code je.rep.channel*}, {@code je.rep.ssl*}) in JE's network configuration, the others
     * in its replication configuration. JE checks each name and value.
     */
    private void applyEngineProperties(ReplicationConfig rep) {
        java.util.Properties channel = new java.util.Properties();
        try {
            for (java.util.Map.Entry<String, String> p : settings.engineProperties().entrySet()) {
                if (p.getKey().startsWith("je.rep.channel") || p.getKey().startsWith("je.rep.ssl")) {
                    channel.setProperty(p.getKey(), p.getValue());
                } else {
                    rep.setConfigParam(p.getKey(), p.getValue());
                }
            }
            if (!channel.isEmpty()) {
                rep.setRepNetConfig(com.sleepycat.je.rep.ReplicationNetworkConfig.create(channel));
            }
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("Backend " + backendId + ": ds-cfg-replication-je-property: "
                    + e.getMessage(), e);
        }
    }

    /**
     * Sets {@link #ELECTION_FREEZE_MILLIS} on the node's freeze latch: JE has no setting for it, only this method of
     * its node's implementation. Set under the latch's own lock, which JE takes each time it starts a freeze, so the
     * acceptor's thread reads the new value.
     */
    private void shortenElectionFreeze(ReplicatedEnvironment opened) {
        try {
            CommitFreezeLatch latch = RepInternal.getNonNullRepImpl(opened).getRepNode().getVLSNFreezeLatch();
            synchronized (latch) {
                latch.setTimeOut(ELECTION_FREEZE_MILLIS);
            }
        } catch (RuntimeException e) {
            LOG.warn("Backend {}: node {} keeps JE's 5 s replay freeze during elections ({}): a failover may take "
                    + "5 s longer", backendId, settings.nodeName(), e.toString());
        }
    }

    /**
     * On a replica, waits (at most {@code timeoutMillis}) until this node has replayed every transaction the master
     * had ended when it was asked: JE opens a replica once it is within a second of the master, which may leave the
     * last second's changes (a database just created, an index just built) still to come. A node with no master, or
     * one that cannot ask it, goes on as it is and says so.
     */
    void awaitCatchUp(long timeoutMillis) {
        Replication.Status s = status;
        if (s.role() != Replication.Role.REPLICA || s.master() == null) {
            return;
        }
        try {
            if (!caughtUp(s.master(), timeoutMillis, 20)) {
                LOG.warn("Backend {}: node {} has not caught up with master {} in {} s; it serves what it has",
                        backendId, settings.nodeName(), s.master(), timeoutMillis / 1000);
            }
        } catch (IOException | ServiceConnectFailedException | RuntimeException e) {
            LOG.warn("Backend {}: node {} could not ask master {} how far it is: {}", backendId,
                    settings.nodeName(), s.master(), e.toString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Whether this node, a replica, has applied (within {@code timeoutMillis}) every transaction the master had ended
     * when asked: after a write it forwarded, so that its client reads the write here next. The master and this
     * node are asked over JE's service port, a few milliseconds each.
     */
    boolean awaitMaster(long timeoutMillis) {
        Replication.Status s = status;
        if (s.role() != Replication.Role.REPLICA || s.master() == null) {
            return s.role() == Replication.Role.MASTER;
        }
        try {
            return caughtUp(s.master(), timeoutMillis, 2);
        } catch (IOException | ServiceConnectFailedException | RuntimeException e) {
            LOG.debug("Backend {}: node {} could not ask master {} how far it is", backendId, settings.nodeName(),
                    s.master(), e);
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private boolean caughtUp(String masterName, long timeoutMillis, long pollMillis)
            throws IOException, ServiceConnectFailedException, InterruptedException {
        ReplicationGroupAdmin admin = groupAdmin();
        ReplicationNode master = admin.getGroup().getMember(masterName);
        ReplicationNode self = admin.getGroup().getMember(settings.nodeName());
        if (master == null || self == null) {
            LOG.warn("Backend {}: node {} does not find itself and master {} in its group", backendId,
                    settings.nodeName(), masterName);
            return false;
        }
        int askMillis = (int) Math.min(timeoutMillis, 5_000);
        long target = admin.getNodeState(master, askMillis).getCurrentTxnEndVLSN();
        long deadline = System.currentTimeMillis() + timeoutMillis;
        while (admin.getNodeState(self, askMillis).getCurrentTxnEndVLSN() < target) {
            if (System.currentTimeMillis() > deadline) {
                return false;
            }
            Thread.sleep(pollMillis);
        }
        return true;
    }

    /** The group as the master knows it: this node's own record may not have been replayed here yet. */
    private ReplicationGroupAdmin groupAdmin() {
        Set<InetSocketAddress> known = new java.util.HashSet<>();
        known.add(socket(settings.address()));
        settings.helpers().forEach(h -> known.add(socket(h)));
        return new ReplicationGroupAdmin(settings.groupName(), known);
    }

    /** Sets the LDAP URL this node gives any node that asks (see {@link Replication#advertise}). */
    void advertise(String ldapUrl) {
        advertised = ldapUrl.isEmpty() ? null : ldapUrl.getBytes(java.nio.charset.StandardCharsets.UTF_8);
    }

    /**
     * The master's LDAP URL, asked of the master (its application state, which JE serves on its replication port)
     * the first time after each change of role; {@code null} when this node is not a replica or the master does not
     * answer or has advertised none yet.
     */
    String masterLdapUrl() {
        Replication.Status s = status;
        if (s.role() != Replication.Role.REPLICA || s.master() == null) {
            return null;
        }
        MasterUrl known = masterUrl;
        if (known != null && known.node().equals(s.master())) {
            return known.url();
        }
        try {
            ReplicationGroupAdmin admin = groupAdmin();
            ReplicationNode master = admin.getGroup().getMember(s.master());
            byte[] state = master == null ? null : admin.getNodeState(master, 2_000).getAppState();
            if (state == null || state.length == 0) {
                return null;
            }
            String url = new String(state, java.nio.charset.StandardCharsets.UTF_8);
            masterUrl = new MasterUrl(s.master(), url);
            return url;
        } catch (IOException | ServiceConnectFailedException | RuntimeException e) {
            LOG.debug("Backend {}: node {} could not ask master {} for its LDAP URL", backendId, settings.nodeName(),
                    s.master(), e);
            return null;
        }
    }

    private static InetSocketAddress socket(String hostPort) {
        int colon = hostPort.lastIndexOf(':');
        return new InetSocketAddress(hostPort.substring(0, colon), Integer.parseInt(hostPort.substring(colon + 1)));
    }

    /**
     * Hands the master's part to one of {@code candidates} (node names), waiting up to {@code seconds} for it to
     * catch up: how a master stops without an election. Returns the new master's name.
     */
    String transferMaster(Set<String> candidates, int seconds) {
        return env.transferMaster(candidates, seconds, TimeUnit.SECONDS);
    }

    /**
     * Opens the environment; one made without replication (by bin/setup or bin/import-ldif, or a server that ran
     * standalone) is first converted with JE's {@code DbEnableReplication}, if this node founds the group (it is
     * its own helper): its data become the group's. A node that joins a group must join empty.
     */
    private ReplicatedEnvironment openConverting(File home, ReplicationConfig rep, EnvironmentConfig envConfig) {
        try {
            return openOnce(home, rep, envConfig);
        } catch (UnsupportedOperationException e) {
            if (!settings.helpers().contains(settings.address())) {
                throw new IllegalStateException("Backend " + backendId + " holds a database made without "
                        + "replication, and node " + settings.nodeName() + " joins an existing group: a joining node "
                        + "starts empty (remove " + home + ", and it copies the group's data), and only the first "
                        + "node of a new group (its own ds-cfg-replication-helper-address) starts from such a "
                        + "database", e);
            }
            LOG.info("Backend {}: its database was made without replication; node {} makes it the first of "
                    + "replication group {}", backendId, settings.nodeName(), settings.groupName());
            new DbEnableReplication(home, settings.groupName(), settings.nodeName(), settings.address()).convert();
            return openOnce(home, rep, envConfig);
        }
    }

    /**
     * The quorum policy must be given: with null (which the constructor accepts) every election after the first one
     * waits forever, and a group whose master dies never elects another (found with three processes and kill -9).
     */
    private static ReplicatedEnvironment openOnce(File home, ReplicationConfig rep, EnvironmentConfig envConfig) {
        return new ReplicatedEnvironment(home, rep, envConfig,
                new TimeConsistencyPolicy(1, TimeUnit.SECONDS, CATCH_UP_SECONDS, TimeUnit.SECONDS),
                QuorumPolicy.SIMPLE_MAJORITY);
    }

    private void stateChanged(StateChangeEvent event) {
        ReplicatedEnvironment.State state = event.getState();
        String master = state.isActive() ? event.getMasterNodeName() : null;
        Replication.Role role = state.isMaster() ? Replication.Role.MASTER
                : state.isReplica() ? Replication.Role.REPLICA : Replication.Role.UNKNOWN;
        Replication.Role before = status.role();
        masterUrl = null;
        status = new Replication.Status(role, settings.groupName(), settings.nodeName(), master,
                master == null ? null : addressOf(master));
        if (state.isDetached()) {
            LOG.info("Backend {}: node {} left replication group {}", backendId, settings.nodeName(),
                    settings.groupName());
            restartIfRequired();
            return;
        }
        if (role != before) {
            LOG.info("Backend {}: node {} of replication group {} is now {}{}", backendId, settings.nodeName(),
                    settings.groupName(), role.name().toLowerCase(java.util.Locale.ROOT),
                    role == Replication.Role.REPLICA ? " of " + master : role == Replication.Role.UNKNOWN
                            ? " (no master in reach: reads go on, writes are refused)" : "");
        }
        if (role == Replication.Role.MASTER) {
            becameMaster.run();
        }
    }

    /**
     * Runs {@code action} (once) when JE invalidates the environment with a {@link RestartRequiredException}; at
     * once if it did already.
     */
    void whenRestartRequired(java.util.function.Consumer<String> action) {
        onRestart.set(action);
        if (restartReason != null) {
            fireRestart();
        }
    }

    /**
     * After JE detached the node: if it did so because the environment must be opened again (a rollback when a
     * master that was cut off rejoins: JE's hard recovery, which only a new environment completes; a node too far
     * behind), says so and tells the server, which opens everything again from what is now true.
     */
    synchronized void restartIfRequired() {
        ReplicatedEnvironment e = env;
        EnvironmentFailureException failure = e == null ? null : e.getInvalidatingException();
        if (!(failure instanceof RestartRequiredException) || restartReason != null) {
            return;
        }
        restartReason = failure instanceof RollbackException
                ? "it must roll back transactions its replication group never confirmed (" + failure.getMessage()
                        .lines().findFirst().orElse("") + ")"
                : "its replication group's log moved on without it (" + failure.getClass().getSimpleName() + ")";
        LOG.warn("Backend {}: node {} {}; the server opens its storage again and rebuilds its caches and "
                + "connections from what the group holds now", backendId, settings.nodeName(), restartReason);
        fireRestart();
    }

    private void fireRestart() {
        java.util.function.Consumer<String> action = onRestart.getAndSet(null);
        if (action != null) {
            action.accept(restartReason);
        }
    }

    /** The replication address of the node named {@code name}, or {@code null} if JE does not know it now. */
    private String addressOf(String name) {
        ReplicatedEnvironment e = env;
        if (e == null) {
            return null;
        }
        try {
            ReplicationNode node = e.getGroup().getMember(name);
            if (node == null) {
                return null;
            }
            InetSocketAddress a = node.getSocketAddress();
            return a.getHostString() + ":" + a.getPort();
        } catch (RuntimeException ex) {
            return null; // the group's membership is being read again: the address is for messages only
        }
    }

    Replication.Status status() {
        Replication.Status s = status;
        if (s.master() != null && s.masterAddress() == null) {
            String address = addressOf(s.master()); // JE may not have known it when the role changed
            if (address != null) {
                s = new Replication.Status(s.role(), s.group(), s.node(), s.master(), address);
                status = s;
            }
        }
        return s;
    }

    /** See {@link Replication#lagMillis}: JE's replay commit lag on a replica. */
    long lagMillis() {
        Replication.Status s = status;
        if (s.role() == Replication.Role.MASTER) {
            return 0;
        }
        ReplicatedEnvironment e = env;
        if (s.role() != Replication.Role.REPLICA || e == null) {
            return -1;
        }
        try {
            return Math.max(0, e.getRepStats(new com.sleepycat.je.StatsConfig().setFast(true))
                    .getReplayLatestCommitLagMs());
        } catch (RuntimeException ex) {
            return -1; // the environment is closing or failed: no master to be behind
        }
    }

    /** Whether this node takes writes now. */
    boolean isMaster() {
        return status.role() == Replication.Role.MASTER;
    }

    /**
     * What to answer for an exception of JE's replication, or {@code null} if {@code e} is not one. None of these
     * leaves anything written: JE raises them before the commit ({@link InsufficientAcksException}, after it, is
     * not handled here).
     */
    BackendException refusal(RuntimeException e) {
        if (e instanceof ReplicaWriteException || (e instanceof StateChangeException && isReplicaNow())) {
            Replication.Status s = status();
            return new BackendException(ResultCode.UNWILLING_TO_PERFORM, "This server is a replica in replication "
                    + "group " + settings.groupName() + ": it takes no writes; send them to the master"
                    + (s.master() == null ? "" : ", node " + s.master()
                    + (s.masterAddress() == null ? "" : " (replication address " + s.masterAddress() + ")")), e);
        }
        if (e instanceof UnknownMasterException || e instanceof StateChangeException) {
            return new BackendException(ResultCode.UNAVAILABLE, "Replication group " + settings.groupName()
                    + " has no master now (an election is under way, or a majority of its nodes is out of reach): "
                    + "nothing was written; reads and binds go on; try the write again shortly", e);
        }
        if (e instanceof InsufficientReplicasException) {
            return new BackendException(ResultCode.UNAVAILABLE, "Replication group " + settings.groupName()
                    + ": a majority of its nodes is out of reach, so no write can be made durable: nothing was "
                    + "written; reads and binds go on", e);
        }
        return null;
    }

    private boolean isReplicaNow() {
        return status.role() == Replication.Role.REPLICA;
    }
}
