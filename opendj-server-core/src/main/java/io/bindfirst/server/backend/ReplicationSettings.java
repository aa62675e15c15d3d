package io.bindfirst.server.backend;

import java.util.List;
import java.util.Locale;
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
 */
public record ReplicationSettings(String groupName, String nodeName, String address, List<String> helpers,
                                  NodeType nodeType) {

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
            for (NodeType t : values()) {
                if (t.name().equalsIgnoreCase(name.trim())) {
                    return t;
                }
            }
            return null;
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
        helpers = List.copyOf(helpers);
    }
}
