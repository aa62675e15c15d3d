package io.bindfirst.server.config;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.forgerock.opendj.ldap.ByteString;
import org.forgerock.opendj.ldap.DN;
import org.forgerock.opendj.ldap.Entry;

import io.bindfirst.server.backend.BackendConfig;

/**
 * The whole server configuration, parsed once from {@code config/config.ldif} by {@link ConfigLoader}.
 * Immutable; changing a setting means building a new record (the {@code with...} methods, for tests and
 * launch options) and restarting.
 *
 * @param instanceRoot the folder relative paths were resolved against
 * @param schemaDirectory where the schema LDIF files are
 * @param listener the LDAP listener
 * @param limits server-wide search limits, which root users are exempt from
 * @param workQueue the operation worker pool
 * @param passwords password storage settings
 * @param rootUsers the root users, with their hashed passwords
 * @param backends the enabled user-data backends
 * @param sampleEntries per backend id, how many sample users to create on a first start
 * @param plugins the enabled plugins, in configuration order
 * @param accessLog the access log file, or {@code null} when disabled
 * @param entries the configuration entries as read, served read-only under {@code cn=config}
 */
public record ServerConfig(Path instanceRoot, Path schemaDirectory, Listener listener, Limits limits,
                           WorkQueue workQueue, Passwords passwords, List<RootUser> rootUsers,
                           List<BackendConfig> backends, Map<String, Integer> sampleEntries,
                           List<PluginConfig> plugins, Path accessLog, List<Entry> entries) {

    public ServerConfig {
        rootUsers = List.copyOf(rootUsers);
        backends = List.copyOf(backends);
        sampleEntries = Map.copyOf(sampleEntries);
        plugins = List.copyOf(plugins);
        entries = List.copyOf(entries);
    }

    /** @param entry the plugin's configuration entry (named in errors); @param className its class */
    public record PluginConfig(DN entry, String className) {
    }

    /**
     * @param address the address to listen on (127.0.0.1 by default)
     * @param port the port; 0 picks a free one (tests)
     * @param backlog the TCP accept backlog
     * @param maxRequestBytes the largest request PDU accepted
     * @param maxConcurrentOpsPerConnection requests one connection may have outstanding
     * @param bindCeiling benchmark only: every bind succeeds without backend or password check
     */
    public record Listener(String address, int port, int backlog, int maxRequestBytes,
                           int maxConcurrentOpsPerConnection, boolean bindCeiling) {
    }

    /** Zero means unlimited, as in RFC 4511 requests. */
    public record Limits(int sizeLimit, int timeLimitSeconds, int lookthroughLimit) {
    }

    /** @param workerThreads worker threads (already resolved from 0 = automatic) */
    public record WorkQueue(int workerThreads, int capacity) {
    }

    public record Passwords(String defaultScheme, boolean allowClearText) {
    }

    /**
     * @param dn the root user's entry under {@code cn=Root DNs,cn=config}
     * @param alternateBindDNs other DNs it may bind with, e.g. {@code cn=Directory Manager}
     * @param passwords its stored (hashed) passwords
     */
    public record RootUser(DN dn, List<DN> alternateBindDNs, List<ByteString> passwords) {
        public RootUser {
            alternateBindDNs = List.copyOf(alternateBindDNs);
            passwords = List.copyOf(passwords);
        }
    }

    public ServerConfig withListener(Listener newListener) {
        return new ServerConfig(instanceRoot, schemaDirectory, newListener, limits, workQueue, passwords,
                rootUsers, backends, sampleEntries, plugins, accessLog, entries);
    }

    public ServerConfig withListenPort(int port) {
        return withListener(new Listener(listener.address(), port, listener.backlog(),
                listener.maxRequestBytes(), listener.maxConcurrentOpsPerConnection(), listener.bindCeiling()));
    }

    public ServerConfig withBindCeiling(boolean on) {
        return withListener(new Listener(listener.address(), listener.port(), listener.backlog(),
                listener.maxRequestBytes(), listener.maxConcurrentOpsPerConnection(), on));
    }

    public ServerConfig withLimits(Limits newLimits) {
        return new ServerConfig(instanceRoot, schemaDirectory, listener, newLimits, workQueue, passwords,
                rootUsers, backends, sampleEntries, plugins, accessLog, entries);
    }

    public ServerConfig withWorkQueue(WorkQueue newWorkQueue) {
        return new ServerConfig(instanceRoot, schemaDirectory, listener, limits, newWorkQueue, passwords,
                rootUsers, backends, sampleEntries, plugins, accessLog, entries);
    }

    public ServerConfig withSampleEntries(Map<String, Integer> newSampleEntries) {
        return new ServerConfig(instanceRoot, schemaDirectory, listener, limits, workQueue, passwords,
                rootUsers, backends, newSampleEntries, plugins, accessLog, entries);
    }
}
