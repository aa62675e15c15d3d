package io.bindfirst.server.config;

import java.util.ArrayList;
import java.util.List;

import org.forgerock.opendj.ldap.ByteString;
import org.forgerock.opendj.ldap.Entry;

import io.bindfirst.server.backend.ReplicationSettings;

/**
 * Reads a backend entry's {@code ds-cfg-replication-*} settings: none of them (a backend of its own), or the group,
 * this node's name and address, at least one helper, and optionally the node's type.
 */
final class ReplicationConfigReader {
    static final String GROUP = "ds-cfg-replication-group-name";
    static final String NODE = "ds-cfg-replication-node-name";
    static final String ADDRESS = "ds-cfg-replication-address";
    static final String HELPER = "ds-cfg-replication-helper-address";
    static final String TYPE = "ds-cfg-replication-node-type";
    /** JE's limit on group and node names. */
    private static final int MAX_NAME = 64;

    private ReplicationConfigReader() {
    }

    /** The backend's replication, or {@code null} if it names none. */
    static ReplicationSettings read(Entry backend) throws ConfigException {
        String group = ConfigLoader.string(backend, GROUP, null);
        String node = ConfigLoader.string(backend, NODE, null);
        String address = ConfigLoader.string(backend, ADDRESS, null);
        List<String> helpers = new ArrayList<>();
        for (ByteString v : ConfigLoader.values(backend, HELPER)) {
            helpers.add(hostPort(backend, HELPER, v.toString().trim()));
        }
        String type = ConfigLoader.string(backend, TYPE, null);
        if (group == null && node == null && address == null && helpers.isEmpty() && type == null) {
            return null;
        }
        String missing = group == null ? GROUP : node == null ? NODE : address == null ? ADDRESS
                : helpers.isEmpty() ? HELPER : null;
        if (missing != null) {
            throw new ConfigException(backend.getName() + ": " + missing + ": a replicated backend needs "
                    + GROUP + ", " + NODE + ", " + ADDRESS + " (host:port) and at least one " + HELPER
                    + " (this node's own address for the first node of a group)");
        }
        name(backend, GROUP, group);
        name(backend, NODE, node);
        hostPort(backend, ADDRESS, address);
        ReplicationSettings.NodeType nodeType = type == null ? ReplicationSettings.NodeType.ELECTABLE
                : ReplicationSettings.NodeType.named(type);
        if (nodeType == null) {
            throw new ConfigException(backend.getName() + ": " + TYPE + ": '" + type + "' is not one of electable "
                    + "(votes, may become the master) or secondary (serves reads, never votes)");
        }
        return new ReplicationSettings(group, node, address, helpers, nodeType);
    }

    private static void name(Entry backend, String attr, String value) throws ConfigException {
        if (value.length() > MAX_NAME || !value.matches("[A-Za-z0-9_.-]+")) {
            throw new ConfigException(backend.getName() + ": " + attr + ": '" + value + "' is not a name: use up to "
                    + MAX_NAME + " letters, digits, '.', '_' or '-'");
        }
    }

    private static String hostPort(Entry backend, String attr, String value) throws ConfigException {
        int colon = value.lastIndexOf(':');
        String host = colon > 0 ? value.substring(0, colon) : "";
        int port = -1;
        if (colon > 0) {
            try {
                port = Integer.parseInt(value.substring(colon + 1));
            } catch (NumberFormatException e) {
                port = -1;
            }
        }
        if (host.isEmpty() || port < 1 || port > 65535) {
            throw new ConfigException(backend.getName() + ": " + attr + ": '" + value + "' is not host:port (for "
                    + "example 127.0.0.1:8989)");
        }
        return value;
    }
}
