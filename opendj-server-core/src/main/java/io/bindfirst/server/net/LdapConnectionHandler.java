package io.bindfirst.server.net;

import java.io.IOException;
import java.net.InetSocketAddress;

import org.forgerock.opendj.ldap.DecodeOptions;
import org.forgerock.opendj.ldap.LDAPListener;
import org.forgerock.util.Options;

import io.bindfirst.server.ServerContext;
import io.bindfirst.server.config.ServerConfig;
import io.bindfirst.server.log.AccessRecord;
import io.bindfirst.server.work.WorkQueue;

/**
 * The LDAP listener: the OpenDJ SDK's Grizzly transport, with one {@link LdapRequestHandler} per accepted
 * connection.
 */
public final class LdapConnectionHandler implements AutoCloseable {
    private final LDAPListener listener;

    public LdapConnectionHandler(ServerContext server, WorkQueue workQueue) throws IOException {
        ServerConfig.Listener cfg = server.config().listener();
        // Decode leniently: with the strict schema an unknown attribute in a request fails decoding, and
        // the client gets protocolError instead of the operation's own answer (undefinedAttributeType for
        // an add, a read-only refusal for cn=config...). Operations check names against the strict schema.
        DecodeOptions decodeOptions = new DecodeOptions().setSchema(server.schema().asNonStrictSchema());
        Options options = Options.defaultOptions()
                .set(LDAPListener.CONNECT_MAX_BACKLOG, cfg.backlog())
                .set(LDAPListener.REQUEST_MAX_SIZE_IN_BYTES, cfg.maxRequestBytes())
                .set(LDAPListener.MAX_CONCURRENT_REQUESTS, cfg.maxConcurrentOpsPerConnection())
                .set(LDAPListener.LDAP_DECODE_OPTIONS, decodeOptions)
                .set(LDAPListener.TCP_NO_DELAY, true);
        this.listener = new LDAPListener(cfg.address(), cfg.port(), context -> {
            LdapRequestHandler handler = new LdapRequestHandler(server, workQueue, decodeOptions, context);
            InetSocketAddress peer = context.getPeerAddress();
            InetSocketAddress local = context.getLocalAddress();
            server.accessLog().log(AccessRecord.connection("CONNECT", handler.connection().id(),
                    "from=" + hostPort(peer) + " to=" + hostPort(local) + " protocol=LDAP"));
            return handler;
        }, options);
    }

    private static String hostPort(InetSocketAddress a) {
        return a == null ? "unknown" : a.getAddress().getHostAddress() + ":" + a.getPort();
    }

    /** The address actually bound (the port is chosen by the system when configured as 0). */
    public InetSocketAddress address() {
        return listener.firstSocketAddress();
    }

    @Override
    public void close() {
        listener.close();
    }
}
