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
import java.util.function.Supplier;

import org.forgerock.opendj.ldap.Attribute;
import org.forgerock.opendj.ldap.Connection;
import org.forgerock.opendj.ldap.ConnectionFactory;
import org.forgerock.opendj.ldap.Connections;
import org.forgerock.opendj.ldap.DN;
import org.forgerock.opendj.ldap.Entry;
import org.forgerock.opendj.ldap.LDAPConnectionFactory;
import org.forgerock.opendj.ldap.LdapException;
import org.forgerock.opendj.ldap.LinkedAttribute;
import org.forgerock.opendj.ldap.Modification;
import org.forgerock.opendj.ldap.ModificationType;
import org.forgerock.opendj.ldap.ResultCode;
import org.forgerock.opendj.ldap.controls.Control;
import org.forgerock.opendj.ldap.controls.GenericControl;
import org.forgerock.opendj.ldap.controls.ProxiedAuthV2RequestControl;
import org.forgerock.opendj.ldif.ChangeRecord;
import org.forgerock.opendj.ldap.requests.ExtendedRequest;
import org.forgerock.opendj.ldap.requests.ModifyRequest;
import org.forgerock.opendj.ldap.requests.Request;
import org.forgerock.opendj.ldap.requests.Requests;
import org.forgerock.opendj.ldap.responses.Result;
import org.forgerock.util.Options;
import org.forgerock.util.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.bindfirst.server.auth.AuthenticationInfo;
import io.bindfirst.server.backend.Backend;
import io.bindfirst.server.backend.BackendException;
import io.bindfirst.server.backend.EntryChange;
import io.bindfirst.server.backend.EntryUpdate;
import io.bindfirst.server.backend.EntryWriter;
import io.bindfirst.server.backend.Replication;
import io.bindfirst.server.backend.ReplicationSettings;
import io.bindfirst.server.virtual.VirtualEntries;

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
 *
 * <p>The account updates a bind makes ({@link #modify}: a lockout, a grace login, a last-login time, a rehash) go
 * the same way on a replica, as the forwarding account itself with the Relax Rules control (some of those
 * attributes are the server's own, NO-USER-MODIFICATION): so a lockout reached by binds on a replica locks the
 * account on every node, durably, before the bind that reached it is answered.
 */
public final class ReplicaWrites implements EntryWriter, AutoCloseable {
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
     * The answer to a client's write to {@code backend}, made as {@code as}; or {@code null} when this node makes
     * the write itself (it is not a replica now, or it refuses its writes: the backend says why). May block (a
     * forwarded write waits for the master).
     *
     * @param request a copy of the client's request, made only when it is forwarded (this class changes its
     *        controls)
     */
    public Result write(Backend backend, Supplier<Request> request, AuthenticationInfo as, Answers answers) {
        ReplicationSettings.ReplicaWrites writes = settings.get(backend);
        if (writes == null || writes.mode() == ReplicationSettings.WriteMode.REFUSE) {
            return null; // not replicated (the common case: one map lookup), or the backend refuses
        }
        Replication replication = backend.replication();
        Replication.Status status = replication.status();
        if (status.role() != Replication.Role.REPLICA) {
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
        return forward(replication, writes, url, request.get(), as, answers);
    }

    /**
     * An account update a bind makes: on this node's backend, or, while it is a replica, on the master (the change
     * from this node's copy of the entry, sent as a modify; see the class comment). A replica that does not forward
     * writes cannot make it, and says so.
     */
    @Override
    public EntryChange modify(Backend backend, DN dn, EntryUpdate update) throws BackendException {
        ReplicationSettings.ReplicaWrites writes = settings.get(backend);
        Replication replication = backend.replication();
        if (writes == null || replication.status().role() != Replication.Role.REPLICA) {
            return backend.modifyEntry(dn, update);
        }
        if (writes.mode() != ReplicationSettings.WriteMode.FORWARD) {
            throw new BackendException(ResultCode.UNWILLING_TO_PERFORM, "This replica records no account update "
                    + "(lockout, grace login, last login): it forwards nothing to the master without "
                    + "ds-cfg-replication-forward-bind-dn");
        }
        Entry current = backend.getEntry(dn);
        if (current == null) {
            throw new BackendException(ResultCode.NO_SUCH_OBJECT, "The entry " + dn + " does not exist");
        }
        Entry next = update.apply(current);
        ModifyRequest request = Requests.newModifyRequest(dn);
        for (Modification m : differences(current, next)) {
            request.addModification(m);
        }
        if (request.getModifications().isEmpty()) {
            return new EntryChange(current, next);
        }
        request.addControl(GenericControl.newControl(VirtualEntries.OID_RELAX_RULES, true));
        String url = replication.masterLdapUrl();
        if (url == null) {
            throw new BackendException(ResultCode.UNAVAILABLE, "This replica cannot reach its master to record an "
                    + "account update of " + dn);
        }
        try (Connection c = pool(url, writes).getConnection()) {
            c.modify(request);
        } catch (LdapException e) {
            throw new BackendException(e.getResult().getResultCode(), "The master at " + url + " did not record an "
                    + "account update of " + dn + ": " + e.getResult().getDiagnosticMessage());
        } catch (IOException e) {
            throw new BackendException(ResultCode.UNAVAILABLE, "This replica cannot forward to the master: the "
                    + "password file " + writes.passwordFile() + " cannot be read (" + e.getMessage() + ")");
        }
        replication.awaitMaster(READ_YOUR_WRITES_MILLIS);
        Entry after = backend.getEntry(dn);
        return new EntryChange(current, after == null ? next : after);
    }

    /** What turns {@code before} into {@code after}: each attribute that differs, replaced or deleted. */
    private static List<Modification> differences(Entry before, Entry after) {
        List<Modification> out = new java.util.ArrayList<>();
        for (Attribute a : after.getAllAttributes()) {
            Attribute was = before.getAttribute(a.getAttributeDescription());
            if (was == null || !was.equals(a)) {
                out.add(new Modification(ModificationType.REPLACE, a));
            }
        }
        for (Attribute a : before.getAllAttributes()) {
            if (after.getAttribute(a.getAttributeDescription()) == null) {
                out.add(new Modification(ModificationType.DELETE, new LinkedAttribute(a.getAttributeDescription())));
            }
        }
        return out;
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
