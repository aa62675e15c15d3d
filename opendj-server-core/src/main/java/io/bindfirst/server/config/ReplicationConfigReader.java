package io.bindfirst.server.config;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

import org.forgerock.opendj.ldap.ByteString;
import org.forgerock.opendj.ldap.Entry;

import io.bindfirst.server.backend.ReplicationSettings;

/**
 * Reads a backend entry's {@code ds-cfg-replication-*} settings: none of them (a backend of its own), or the group,
 * this node's name and address, at least one helper, and optionally the node's type, its LDAP URL as the other nodes
 * reach it, and what it does with a write while it is a replica: forward it to the master (the default once an
 * account to forward with is given), answer a referral (the default without one), or refuse it.
 */
final class ReplicationConfigReader {
    static final String GROUP = "ds-cfg-replication-group-name";
    static final String NODE = "ds-cfg-replication-node-name";
    static final String ADDRESS = "ds-cfg-replication-address";
    static final String HELPER = "ds-cfg-replication-helper-address";
    static final String TYPE = "ds-cfg-replication-node-type";
    static final String LDAP_URL = "ds-cfg-replication-ldap-url";
    static final String WRITES = "ds-cfg-replication-replica-writes";
    static final String FORWARD_DN = "ds-cfg-replication-forward-bind-dn";
    static final String FORWARD_PASSWORD = "ds-cfg-replication-forward-bind-password-file";
    static final String ENGINE_PROPERTY = "ds-cfg-replication-je-property";
    private static final java.util.regex.Pattern LDAP_URL_FORM = java.util.regex.Pattern.compile(
            "(?i)(ldaps?)://([^/]+)/?");
    /** JE's limit on group and node names. */
    private static final int MAX_NAME = 64;

    private ReplicationConfigReader() {
    }

    /** The backend's replication, or {@code null} if it names none. */
    static ReplicationSettings read(Entry backend, Function<String, Path> resolve) throws ConfigException {
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
        return new ReplicationSettings(group, node, address, helpers, nodeType, ldapUrl(backend), writes(backend,
                resolve), engineProperties(backend));
    }

    /** Each {@code name=value} of {@link #ENGINE_PROPERTY}: a JE High Availability parameter, {@code je.rep.*}. */
    private static Map<String, String> engineProperties(Entry backend) throws ConfigException {
        Map<String, String> out = new java.util.LinkedHashMap<>();
        for (ByteString v : ConfigLoader.values(backend, ENGINE_PROPERTY)) {
            String text = v.toString().trim();
            int eq = text.indexOf('=');
            if (eq < 1 || !text.startsWith("je.rep.")) {
                throw new ConfigException(backend.getName() + ": " + ENGINE_PROPERTY + ": '" + text + "' is not "
                        + "je.rep.<parameter>=<value> (a parameter of JE High Availability)");
            }
            out.put(text.substring(0, eq).trim(), text.substring(eq + 1).trim());
        }
        return out;
    }

    private static String ldapUrl(Entry backend) throws ConfigException {
        String url = ConfigLoader.string(backend, LDAP_URL, null);
        if (url == null) {
            return null;
        }
        java.util.regex.Matcher m = LDAP_URL_FORM.matcher(url);
        if (!m.matches()) {
            throw new ConfigException(backend.getName() + ": " + LDAP_URL + ": '" + url + "' is not ldap://host:port "
                    + "or ldaps://host:port");
        }
        hostPort(backend, LDAP_URL, m.group(2));
        return m.group(1).toLowerCase(java.util.Locale.ROOT) + "://" + m.group(2);
    }

    private static ReplicationSettings.ReplicaWrites writes(Entry backend, Function<String, Path> resolve)
            throws ConfigException {
        String dn = ConfigLoader.string(backend, FORWARD_DN, null);
        String file = ConfigLoader.string(backend, FORWARD_PASSWORD, null);
        String named = ConfigLoader.string(backend, WRITES, null);
        ReplicationSettings.WriteMode mode = named == null ? (dn != null ? ReplicationSettings.WriteMode.FORWARD
                : ReplicationSettings.WriteMode.REFERRAL) : ReplicationSettings.WriteMode.named(named);
        if (mode == null) {
            throw new ConfigException(backend.getName() + ": " + WRITES + ": '" + named + "' is not one of forward "
                    + "(to the master, as the client), referral (to the master's LDAP URL) or refuse");
        }
        if (mode != ReplicationSettings.WriteMode.FORWARD) {
            return new ReplicationSettings.ReplicaWrites(mode, null, null);
        }
        if (dn == null || file == null) {
            throw new ConfigException(backend.getName() + ": a replica forwards writes to the master as an account "
                    + "allowed to act as other users: give " + FORWARD_DN + " (a root user, or one with the "
                    + "proxied-auth privilege) and " + FORWARD_PASSWORD + " (a file whose first line is its "
                    + "password), or set " + WRITES + " to referral or refuse");
        }
        ConfigLoader.dn(backend, FORWARD_DN, dn);
        Path path;
        try {
            path = resolve.apply(file);
        } catch (java.nio.file.InvalidPathException e) {
            throw new ConfigException(backend.getName() + ": " + FORWARD_PASSWORD + ": '" + file
                    + "' is not a valid path");
        }
        return new ReplicationSettings.ReplicaWrites(mode, dn, path);
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
