package io.bindfirst.server.replication;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.BiFunction;

import org.forgerock.opendj.ldap.Connection;
import org.forgerock.opendj.ldap.ConnectionFactory;
import org.forgerock.opendj.ldap.Connections;
import org.forgerock.opendj.ldap.LDAPConnectionFactory;
import org.forgerock.opendj.ldap.LdapException;
import org.forgerock.opendj.ldap.ResultCode;
import org.forgerock.opendj.ldap.controls.Control;
import org.forgerock.opendj.ldap.controls.ProxiedAuthV2RequestControl;
import org.forgerock.opendj.ldif.ChangeRecord;
import org.forgerock.opendj.ldap.requests.ExtendedRequest;
import org.forgerock.opendj.ldap.requests.Request;
import org.forgerock.opendj.ldap.requests.Requests;
import org.forgerock.opendj.ldap.responses.Result;
import org.forgerock.util.Options;
import org.forgerock.util.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.bindfirst.server.auth.AuthenticationInfo;
import io.bindfirst.server.backend.Backend;
import io.bindfirst.server.backend.Replication;
import io.bindfirst.server.backend.ReplicationSettings;

/**
 * What a replica does with a client's write to a replicated backend (the backend's
 * {@code ds-cfg-replication-replica-writes}): it sends it to the master as the client, or answers a referral to the
 * master, or leaves it to the backend, which refuses it naming the master.
 *
 * <p>A forwarded write goes over LDAP to the master's URL (which the master advertises through the storage's
 * replication), on a pooled connection bound as the configured account, with the client's identity in a Proxied
 * Authorization control (RFC 4370): the master checks access, schema, password policy and every control as for a
 * client of its own, and its answer (result code, message, response controls such as Pre/Post-Read) is the
 * client's. Before a success is answered, this node waits until it has applied the master's changes up to that
 * write, so the client reads it here next (read-your-writes).
 */
public final class ReplicaWrites implements AutoCloseable {
    /** How long a forwarded write may take at the master. */
    static final int REQUEST_SECONDS = 10;
    /** How long a forwarded success waits for this node to have the change, before it is answered anyway. */
    static final int READ_YOUR_WRITES_MILLIS = 5_000;
    /** Connections to the master at most (the writes a replica takes at once). */
    static final int POOL_SIZE = 16;
    private static final Logger LOG = LoggerFactory.getLogger(ReplicaWrites.class);
    private static final String OID_PROXIED_AUTH_V1 = "2.16.840.1.113730.3.4.12";
    /**
     * Where the result codes the client library makes up itself begin (RFC 4511 leaves 80 and above to APIs: the
     * SDK's lost connection, timeout, ...): from there on, the master did not answer.
     */
    private static final int CLIENT_SIDE_CODES = 80;

    /** A write's answer of the operation's own kind (a Password Modify's is an extended result). */
    public interface Answers extends BiFunction<ResultCode, String, Result> {
    }

    /** Each replicated backend's setting; a backend not here is not replicated. */
    private final Map<Backend, ReplicationSettings.ReplicaWrites> settings;
    /** The connection pools, one per master URL and account (a new master, a new pool). */
    private final Map<String, ConnectionFactory> pools = new ConcurrentHashMap<>();
    private volatile boolean closed;

    /** For the backends in {@code settings}, each with its setting. */
    public ReplicaWrites(Map<Backend, ReplicationSettings.ReplicaWrites> settings) {
        this.settings = new java.util.IdentityHashMap<>(settings);
    }

    /**
     * The answer to a client's write {@code request} (a copy this class may change) to {@code backend}, made as
     * {@code as}; or {@code null} when this node makes the write itself (it is not a replica now, or it refuses
     * its writes: the backend says why). May block (a forwarded write waits for the master).
     */
    public Result write(Backend backend, Request request, AuthenticationInfo as, Answers answers) {
        Replication replication = backend.replication();
        Replication.Status status = replication.status();
        ReplicationSettings.ReplicaWrites writes = settings.get(backend);
        if (status.role() != Replication.Role.REPLICA || writes == null
                || writes.mode() == ReplicationSettings.WriteMode.REFUSE) {
            return null;
        }
        String url = replication.masterLdapUrl();
        if (url == null) {
            return answers.apply(ResultCode.UNAVAILABLE, "This server is a replica in replication group "
                    + status.group() + " and cannot reach the master" + (status.master() == null ? ""
                    : ", node " + status.master()) + ", to learn its LDAP address now: nothing was written; "
                    + "try again shortly");
        }
        if (writes.mode() == ReplicationSettings.WriteMode.REFERRAL) {
            return answers.apply(ResultCode.REFERRAL, "This server is a replica: send writes to the master, "
                    + url).addReferralURI(url);
        }
        return forward(replication, writes, url, request, as, answers);
    }

    private Result forward(Replication replication, ReplicationSettings.ReplicaWrites writes, String url,
                           Request request, AuthenticationInfo as, Answers answers) {
        ConnectionFactory pool;
        try {
            pool = pool(url, writes);
        } catch (IOException e) {
            LOG.warn("Cannot forward writes to the master: the password file {} of {} cannot be read ({})",
                    writes.passwordFile(), writes.bindDn(), e.toString());
            return answers.apply(ResultCode.UNAVAILABLE, "This replica cannot forward writes to the master now "
                    + "(its forwarding account's password file cannot be read; the server log says more): "
                    + "nothing was written");
        }
        List<Control> controls = request.getControls();
        controls.removeIf(c -> c.getOID().equals(ProxiedAuthV2RequestControl.OID)
                || c.getOID().equals(OID_PROXIED_AUTH_V1));
        controls.add(ProxiedAuthV2RequestControl.newControl(as.authzId()));
        Connection connection;
        try {
            connection = pool.getConnection();
        } catch (LdapException e) {
            return unreachable(url, writes, e.getResult(), false, answers);
        }
        Result result;
        try (Connection c = connection) {
            result = request instanceof ExtendedRequest<?> extended ? c.extendedRequest(extended)
                    : c.applyChange((ChangeRecord) request);
        } catch (LdapException e) {
            result = e.getResult();
            if (result.getResultCode().intValue() >= CLIENT_SIDE_CODES) {
                return unreachable(url, writes, result, true, answers);
            }
        }
        if (result.isSuccess() && !replication.awaitMaster(READ_YOUR_WRITES_MILLIS)) {
            LOG.debug("A write forwarded to {} succeeded, but this replica had not applied it within {} ms",
                    url, READ_YOUR_WRITES_MILLIS);
        }
        return result;
    }

    private Result unreachable(String url, ReplicationSettings.ReplicaWrites writes, Result failure, boolean sent,
                               Answers answers) {
        ResultCode code = failure.getResultCode();
        if (code.equals(ResultCode.INVALID_CREDENTIALS)) {
            LOG.warn("Cannot forward writes to the master at {}: it refused the bind as {} (check "
                    + "ds-cfg-replication-forward-bind-dn and its password file)", url, writes.bindDn());
            return answers.apply(ResultCode.UNAVAILABLE, "This replica cannot forward writes to the master: the "
                    + "master refused its forwarding account (the server log says more): nothing was written");
        }
        LOG.debug("A write forwarded to the master at {} failed: {} {}", url, code, failure.getDiagnosticMessage());
        return answers.apply(ResultCode.UNAVAILABLE, sent
                ? "This replica forwarded the write to the master at " + url + ", which did not answer ("
                        + failure.getDiagnosticMessage() + "): the write may or may not have been made; read "
                        + "the entry to see, then try again"
                : "This replica cannot reach the master at " + url + " (" + failure.getDiagnosticMessage()
                        + "): nothing was written; try again shortly");
    }

    private ConnectionFactory pool(String url, ReplicationSettings.ReplicaWrites writes) throws IOException {
        String key = url + " " + writes.bindDn();
        ConnectionFactory existing = pools.get(key);
        if (existing != null) {
            return existing;
        }
        char[] password = firstLine(writes.passwordFile());
        URI uri = URI.create(url);
        Options options = Options.defaultOptions()
                .set(LDAPConnectionFactory.AUTHN_BIND_REQUEST, Requests.newSimpleBindRequest(writes.bindDn(),
                        password))
                .set(LDAPConnectionFactory.CONNECT_TIMEOUT, Duration.duration(5, TimeUnit.SECONDS))
                .set(LDAPConnectionFactory.REQUEST_TIMEOUT, Duration.duration(REQUEST_SECONDS, TimeUnit.SECONDS));
        ConnectionFactory pool = Connections.newCachedConnectionPool(
                new LDAPConnectionFactory(uri.getHost(), uri.getPort(), options), 0, POOL_SIZE, 60, TimeUnit.SECONDS);
        synchronized (this) {
            if (closed) {
                pool.close();
                throw new IOException("the server is stopping");
            }
            ConnectionFactory raced = pools.putIfAbsent(key, pool);
            if (raced != null) {
                pool.close();
                return raced;
            }
        }
        return pool;
    }

    private static char[] firstLine(Path file) throws IOException {
        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        return lines.isEmpty() ? new char[0] : lines.get(0).toCharArray();
    }

    @Override
    public synchronized void close() {
        closed = true;
        pools.values().forEach(ConnectionFactory::close);
        pools.clear();
    }
}
