package io.bindfirst.server.backend;

import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * How a backend's storage takes part in a replication group, read from the {@code ds-cfg-replication-*} settings of
 * its {@code cn=Backends,cn=config} entry. The storage engine replicates itself (the JE backend: JE High
 * Availability): one node of the group is the master and takes the writes, the others replay its log.
 *
 * @param groupName the group's name: every node of one group gives the same
 * @param nodeName this node's name, unique in the group and kept for its life (its data know it)
 * @param address where this node listens for the other nodes, {@code host:port}
 * @param helpers addresses of nodes already in the group (or this node's own, for the first node), through which
 *        this node finds the group when it starts
 * @param nodeType whether this node votes in elections and acknowledgements
 * @param ldapUrl how the other nodes reach this one over LDAP ({@code ldap://host:port}), or {@code null} for the
 *        host of {@code address} and the server's LDAP port
 * @param writes what this node does with a client's write while it is a replica
 * @param engineProperties JE High Availability parameters ({@code je.rep.*}) set as given: tuning, and in the tests
 *        the channel factory that routes the nodes' links through proxies the test can cut
 */
public record ReplicationSettings(String groupName, String nodeName, String address, List<String> helpers,
                                  NodeType nodeType, String ldapUrl, ReplicaWrites writes,
                                  Map<String, String> engineProperties) {

    /** What a replica does with a client's write. */
    public enum WriteMode {
        /** Sends it to the master as the client (Proxied Authorization) and answers with the master's result. */
        FORWARD,
        /** Answers a referral to the master's LDAP URL (RFC 4511 4.1.10). */
        REFERRAL,
        /** Answers unwillingToPerform, naming the master. */
        REFUSE;

        /** The mode named {@code name} (any case), or {@code null}. */
        public static WriteMode named(String name) {
            return byName(values(), name);
        }
    }

    /**
     * A replica's writes: the mode, and for {@link WriteMode#FORWARD} the account this node binds as on the master
     * (it must be allowed to act as other users: a root user, or one with the proxied-auth privilege and the proxy
     * right) and the file that holds its password (the first line).
     */
    public record ReplicaWrites(WriteMode mode, String bindDn, Path passwordFile) {
        /** A replica's writes answered with a referral. */
        public static final ReplicaWrites REFERRAL = new ReplicaWrites(WriteMode.REFERRAL, null, null);

        public ReplicaWrites {
            Objects.requireNonNull(mode, "mode");
            if (mode == WriteMode.FORWARD && (bindDn == null || passwordFile == null)) {
                throw new IllegalArgumentException("forwarding needs an account and its password file");
            }
        }
    }

    /** A node with the defaults: its LDAP URL from its address and port, a replica's writes answered by referral. */
    public ReplicationSettings(String groupName, String nodeName, String address, List<String> helpers,
                               NodeType nodeType) {
        this(groupName, nodeName, address, helpers, nodeType, null, ReplicaWrites.REFERRAL, Map.of());
    }

    /** Whether a node votes. */
    public enum NodeType {
        /** Votes in elections and acknowledges writes; may become the master. */
        ELECTABLE,
        /**
         * Replays the log and serves reads, but neither votes nor acknowledges: more read capacity without making a
         * majority larger.
         */
        SECONDARY;

        /** The type named {@code name} (any case), or {@code null}. */
        public static NodeType named(String name) {
            return byName(values(), name);
        }

        /** As the setting spells it. */
        public String configName() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    public ReplicationSettings {
        Objects.requireNonNull(groupName, "groupName");
        Objects.requireNonNull(nodeName, "nodeName");
        Objects.requireNonNull(address, "address");
        Objects.requireNonNull(nodeType, "nodeType");
        Objects.requireNonNull(writes, "writes");
        helpers = List.copyOf(helpers);
        engineProperties = Map.copyOf(engineProperties);
    }

    private static <E extends Enum<E>> E byName(E[] values, String name) {
        for (E e : values) {
            if (e.name().equalsIgnoreCase(name.trim())) {
                return e;
            }
        }
        return null;
    }
}
