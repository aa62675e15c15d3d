package io.bindfirst.server.core;

import java.util.Set;

import org.forgerock.opendj.ldap.schema.Schema;

import io.bindfirst.server.replication.ReplicaWrites;
import io.bindfirst.server.cache.LookupCache;
import io.bindfirst.server.access.AccessPolicy;
import io.bindfirst.server.auth.Accounts;
import io.bindfirst.server.auth.AuthenticatedUsers;
import io.bindfirst.server.auth.BindDns;
import io.bindfirst.server.auth.BoundConnection;
import io.bindfirst.server.auth.RootUsers;
import io.bindfirst.server.auth.WriteEpoch;
import io.bindfirst.server.backend.Backends;
import io.bindfirst.server.commit.CommitPath;
import io.bindfirst.server.config.ServerConfig;
import io.bindfirst.server.group.Groups;
import io.bindfirst.server.log.AccessLog;
import io.bindfirst.server.stats.OperationCounts;
import io.bindfirst.server.plugin.PluginInvoker;
import io.bindfirst.server.pwd.PasswordAttribute;
import io.bindfirst.server.pwd.PasswordSchemes;
import io.bindfirst.server.virtual.VirtualEntries;
import io.bindfirst.server.work.SlowLane;

/**
 * What operations need from the running server, passed in rather than reached through statics, so a
 * test can run several servers in one JVM.
 */
public record ServerContext(ServerConfig config, Schema schema, Backends backends, PasswordSchemes passwordSchemes,
                            RootUsers rootUsers, AuthenticatedUsers<BoundConnection> authenticatedUsers,
                            WriteEpoch writeEpoch, AccessPolicy accessPolicy, AccessLog accessLog,
                            VirtualEntries virtualEntries, Set<String> bindAttributes, PluginInvoker plugins,
                            SlowLane slowLane, PasswordAttribute passwordAttribute, Accounts accounts,
                            OperationCounts operationCounts, Groups groups, BindDns bindDns, CommitPath commits,
                            LookupCache lookups, ReplicaWrites replicaWrites) {

    /** The same context with these plugins: built after the plugins, which are themselves given a context. */
    public ServerContext withPlugins(PluginInvoker newPlugins) {
        return new ServerContext(config, schema, backends, passwordSchemes, rootUsers, authenticatedUsers,
                writeEpoch, accessPolicy, accessLog, virtualEntries, bindAttributes, newPlugins, slowLane,
                passwordAttribute, accounts, operationCounts, groups, bindDns, commits, lookups, replicaWrites);
    }
}
