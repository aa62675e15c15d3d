package io.bindfirst.it.support;

import static org.testng.Assert.assertTrue;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.SearchResultEntry;

import io.bindfirst.server.testsupport.ConfigText;

/**
 * Servers of one replication group, each a {@link ForkedServer} (a process of its own) on loopback, started in
 * order: node 0 forms the group (its helper is itself) and gets the sample users, the others join through it. A
 * replica forwards writes to the master as the root user (whose password is in a file of the group's), unless the
 * test gives the node another {@code ds-cfg-replication-replica-writes}. For the tests of replication;
 * {@link #close} stops them all and deletes their instances and that file.
 */
public final class ReplicaGroup implements AutoCloseable {
    private static final String BACKEND = "ds-cfg-backend-id=userRoot,cn=Backends,cn=config";

    /** Something a test waits for. */
    @FunctionalInterface
    public interface Condition {
        boolean holds() throws Exception;
    }

    private final List<String> jvm;
    private final List<ForkedServer> nodes = new ArrayList<>();
    private final List<String> addresses = new ArrayList<>();
    /** The forwarding account's password, for every node. */
    private final Path forwardPassword;
    private final Map<Integer, String> replicaWrites;
    private final UnaryOperator<ConfigText> edit;
    /** The proxies the nodes' links go through, or {@code null} when the links cannot be cut. */
    private LinkProxies links;

    private ReplicaGroup(List<String> jvm, Map<Integer, String> replicaWrites, UnaryOperator<ConfigText> edit)
            throws IOException {
        this.jvm = List.copyOf(jvm);
        this.replicaWrites = Map.copyOf(replicaWrites);
        this.edit = edit;
        this.forwardPassword = Files.createTempFile("replica-group-forward", ".pin");
        Files.writeString(forwardPassword, TestServer.ROOT_PASSWORD + "\n");
    }

    /** Starts {@code size} nodes, named n0, n1, ..., of the group {@code name}, each forwarding a replica's writes. */
    public static ReplicaGroup start(String name, int size, int users, List<String> jvm) throws Exception {
        return start(name, size, users, jvm, Map.of());
    }

    /**
     * As {@link #start(String, int, int, List)}, node {@code i} answering writes while a replica as
     * {@code replicaWrites.get(i)} says (forward, referral, refuse) where it says.
     */
    public static ReplicaGroup start(String name, int size, int users, List<String> jvm,
                                     Map<Integer, String> replicaWrites) throws Exception {
        return start(name, size, users, jvm, replicaWrites, UnaryOperator.identity());
    }

    /** As {@link #start(String, int, int, List, Map)}, each node's configuration changed by {@code edit} too. */
    public static ReplicaGroup start(String name, int size, int users, List<String> jvm,
                                     Map<Integer, String> replicaWrites, UnaryOperator<ConfigText> edit)
            throws Exception {
        return start(name, size, users, jvm, replicaWrites, edit, false);
    }

    /**
     * As {@link #start(String, int, int, List, Map, UnaryOperator)}; with {@code cuttable}, the nodes reach each
     * other through {@link LinkProxies}, so that {@link #cut} can cut a node off.
     */
    public static ReplicaGroup start(String name, int size, int users, List<String> jvm,
                                     Map<Integer, String> replicaWrites, UnaryOperator<ConfigText> edit,
                                     boolean cuttable) throws Exception {
        ReplicaGroup group = new ReplicaGroup(jvm, replicaWrites, edit);
        try {
            List<Integer> ports = new ArrayList<>();
            for (int i = 0; i < size; i++) {
                ports.add(freePort());
                group.addresses.add("127.0.0.1:" + ports.get(i));
            }
            group.links = cuttable ? new LinkProxies(ports) : null;
            for (int i = 0; i < size; i++) {
                int node = i;
                group.nodes.add(ForkedServer.start(users, jvm, text -> group.replicated(text, name, node)));
            }
            return group;
        } catch (Exception | Error e) {
            group.close();
            throw e;
        }
    }

    private ConfigText replicated(ConfigText text, String name, int node) {
        ConfigText edited = edit.apply(text);
        if (links != null) {
            edited = edited.add(BACKEND, "ds-cfg-replication-je-property",
                    "je.rep.channelFactoryClass=" + RoutedChannelFactory.class.getName())
                    .add(BACKEND, "ds-cfg-replication-je-property", "je.rep.channelFactoryParams="
                            + links.routesFrom(node));
        }
        return edited.add(BACKEND, "ds-cfg-replication-group-name", name)
                .add(BACKEND, "ds-cfg-replication-node-name", "n" + node)
                .add(BACKEND, "ds-cfg-replication-address", addresses.get(node))
                .add(BACKEND, "ds-cfg-replication-helper-address", addresses.get(0))
                .add(BACKEND, "ds-cfg-replication-replica-writes", replicaWrites.getOrDefault(node, "forward"))
                .add(BACKEND, "ds-cfg-replication-forward-bind-dn", TestServer.ROOT_DN)
                .add(BACKEND, "ds-cfg-replication-forward-bind-password-file", forwardPassword.toString());
    }

    public ForkedServer node(int i) {
        return nodes.get(i);
    }

    public int size() {
        return nodes.size();
    }

    /** Node {@code i}'s replication address, {@code 127.0.0.1:port}. */
    public String address(int i) {
        return addresses.get(i);
    }

    /** Kills node {@code i} (SIGKILL), keeping its instance. */
    public void kill(int i) throws InterruptedException {
        nodes.get(i).kill();
    }

    /** Cuts node {@code i} off from the others (a group started cuttable): see {@link LinkProxies#cut}. */
    public void cut(int i) {
        links.cut(i);
    }

    /** Ends the cut of node {@code i}. */
    public void heal(int i) {
        links.heal(i);
    }

    /** Freezes node {@code i} (SIGSTOP): cut off from the others and from clients, its connections left open. */
    public void pause(int i) throws IOException, InterruptedException {
        nodes.get(i).pause();
    }

    /** Thaws node {@code i} after {@link #pause}. */
    public void resume(int i) throws IOException, InterruptedException {
        nodes.get(i).resume();
    }

    /** Starts node {@code i} again on its instance (after {@link #kill}). */
    public void restart(int i) throws Exception {
        nodes.set(i, ForkedServer.startIn(nodes.get(i).instance(), jvm));
    }

    /** A connection to node {@code i}, bound as the root user. */
    public LDAPConnection root(int i) throws LDAPException {
        return new LDAPConnection("127.0.0.1", nodes.get(i).port(), TestServer.ROOT_DN, TestServer.ROOT_PASSWORD);
    }

    /** The first value of {@code attribute} of {@code dn} on node {@code i}, as root; null if none or no answer. */
    public String attribute(int i, String dn, String attribute) {
        try (LDAPConnection c = root(i)) {
            SearchResultEntry e = c.getEntry(dn, attribute);
            return e == null ? null : e.getAttributeValue(attribute);
        } catch (LDAPException e) {
            return null;
        }
    }

    /** Node {@code i}'s role in its {@code cn=Replication,cn=monitor} (master, replica, unknown), or null. */
    public String role(int i) {
        return attribute(i, "cn=Replication,cn=monitor", "ds-mon-replication-role");
    }

    /** The last 40 lines of a file of node {@code i}'s instance (its logs, JE's log), for a failure's message. */
    public String tail(int i, String file) {
        try {
            List<String> lines = Files.readAllLines(nodes.get(i).instance().resolve(file));
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
        } catch (IOException e) {
            return e.toString();
        }
    }

    /** Waits for {@code condition}, checking every 20 ms, failing the test after {@code millis}. */
    public static void await(long millis, Condition condition) throws Exception {
        long deadline = System.currentTimeMillis() + millis;
        while (!condition.holds()) {
            assertTrue(System.currentTimeMillis() < deadline, "not reached within " + millis + " ms");
            Thread.sleep(20);
        }
    }

    @Override
    public void close() {
        for (ForkedServer n : nodes) {
            n.close();
        }
        if (links != null) {
            links.close();
        }
        try {
            Files.deleteIfExists(forwardPassword);
        } catch (IOException e) {
            // a temporary file: the system's cleaning takes it
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }
}
