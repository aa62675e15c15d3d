package io.bindfirst.server.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.UnaryOperator;

import org.forgerock.opendj.io.ASN1;
import org.forgerock.opendj.io.ASN1Writer;
import org.forgerock.opendj.io.LDAP;
import org.forgerock.opendj.io.LDAPWriter;
import org.forgerock.opendj.ldap.ByteStringBuilder;
import org.forgerock.opendj.ldap.DN;
import org.forgerock.opendj.ldap.DecodeOptions;
import org.forgerock.opendj.ldap.ResultCode;
import org.forgerock.opendj.ldap.controls.Control;
import org.forgerock.opendj.ldap.requests.AddRequest;
import org.forgerock.opendj.ldap.requests.CompareRequest;
import org.forgerock.opendj.ldap.requests.DeleteRequest;
import org.forgerock.opendj.ldap.requests.ExtendedRequest;
import org.forgerock.opendj.ldap.requests.GenericBindRequest;
import org.forgerock.opendj.ldap.requests.ModifyDNRequest;
import org.forgerock.opendj.ldap.requests.ModifyRequest;
import org.forgerock.opendj.ldap.requests.Request;
import org.forgerock.opendj.ldap.requests.Requests;
import org.forgerock.opendj.ldap.requests.SearchRequest;

import io.bindfirst.server.ServerComposition;
import io.bindfirst.server.ServerStartException;
import io.bindfirst.server.config.ConfigException;
import io.bindfirst.server.config.ConfigLoader;
import io.bindfirst.server.config.ServerConfig;
import io.bindfirst.server.core.Operation;
import io.bindfirst.server.core.OperationFactory;
import io.bindfirst.server.core.ServerContext;
import io.bindfirst.server.net.RequestReader;

/**
 * A server without a socket, for tests of operations: the shipped configuration (config/config.ldif) with its user
 * backend in memory ({@link MemoryBackend}) holding the first start's sample data, composed by
 * {@link ServerComposition} as a running server is, without what would write into the repository (TLS, whose
 * first start creates a CA under config/tls, and the access log) and without listeners.
 *
 * <p>A request runs as the transport runs it: encoded as a client sends it and read by the server's own
 * {@link RequestReader} (DNs and attributes decoded with the server's schema, controls as the transport attaches
 * them), made an operation by the server's {@link OperationFactory}, recorded as started by its session, attached
 * to a {@link RecordingSink}, then run on the calling thread as a worker runs it ({@link Operation#run}).
 */
public final class InMemoryServer implements AutoCloseable {
    public static final String ROOT_DN = "cn=Directory Manager";
    public static final String ROOT_PASSWORD = "password";
    /** The sample users' password. */
    public static final String PASSWORD = "password";
    public static final String SUFFIX = "dc=example,dc=com";
    public static final String PEOPLE = "ou=People," + SUFFIX;
    /** An operation moved to the slow lane finishes there; none of these tests' operations should take long. */
    private static final Duration ANSWER_WITHIN = Duration.ofSeconds(10);

    private final ServerComposition composition;
    private final OperationFactory operations;
    private final DecodeOptions decodeOptions;
    private final AtomicLong sessionIds = new AtomicLong(1);

    private InMemoryServer(ServerComposition composition) {
        this.composition = composition;
        this.operations = new OperationFactory(composition.context());
        // As the transport's listeners decode requests (LdapConnectionHandler).
        this.decodeOptions = new DecodeOptions().setSchema(composition.context().schema().asNonStrictSchema());
    }

    /** A server whose backend holds the sample data with {@code users} users ({@link #user}). */
    public static InMemoryServer start(int users) throws ConfigException, ServerStartException {
        return start(users, UnaryOperator.identity());
    }

    /** @param tweak changes to the configuration, after those this class makes */
    public static InMemoryServer start(int users, UnaryOperator<ServerConfig> tweak)
            throws ConfigException, ServerStartException {
        Path root = ServerSchema.directory().getParent().getParent();
        ServerConfig shipped = ConfigLoader.load(root.resolve("config").resolve("config.ldif"), root);
        ServerConfig config = shipped.withBackendType("userRoot", MemoryBackendProvider.TYPE)
                .withSampleEntries(Map.of("userRoot", users))
                .withTls(null).withLdapsListener(null).withAccessLog(null);
        return new InMemoryServer(ServerComposition.open(tweak.apply(config), List.of()));
    }

    public ServerContext context() {
        return composition.context();
    }

    /** The user backend (dc=example,dc=com). */
    public MemoryBackend backend() {
        return (MemoryBackend) context().backends().userBackends().get(0);
    }

    /** The DN of sample user {@code n}. */
    public static String user(int n) {
        return "uid=user." + n + "," + PEOPLE;
    }

    /** {@code dn} parsed with the server's schema. */
    public DN dn(String dn) {
        return DN.valueOf(dn, context().schema());
    }

    /** A new anonymous connection. */
    public TestSession newSession() {
        return new TestSession(sessionIds.getAndIncrement(), context().authenticatedUsers());
    }

    /** A new connection bound as {@code dn}; fails unless the bind succeeds. */
    public TestSession boundAs(String dn, String password) {
        TestSession s = newSession();
        RecordingSink bind = send(s, simpleBind(dn, password));
        if (bind.code() != ResultCode.SUCCESS) {
            throw new AssertionError("The bind as " + dn + " failed: " + bind);
        }
        return s;
    }

    /** A simple bind as the wire carries it (the SDK's SimpleBindRequest is for clients). */
    public static GenericBindRequest simpleBind(String dn, String password) {
        return Requests.newGenericBindRequest(dn, LDAP.TYPE_AUTHENTICATION_SIMPLE,
                password.getBytes(StandardCharsets.UTF_8));
    }

    /**
     * Sends {@code request} on {@code session} and returns what the operation answered, once it has: the request's
     * DN, attributes and filter as the server decodes them, its controls as the transport attaches them.
     */
    public RecordingSink send(TestSession session, Request request) {
        Operation op = decode(session, session.nextMessageId(), request);
        session.started(op);
        RecordingSink sink = new RecordingSink();
        op.attach(sink);
        op.run();
        sink.await(ANSWER_WITHIN);
        if (session.unfinished() != 0) {
            throw new AssertionError("The operation answered without telling its session it was done");
        }
        return sink;
    }

    /** The bytes a client sends for {@code request}, read back by the server's reader into its operation. */
    private Operation decode(TestSession session, int messageId, Request request) {
        ByteStringBuilder bytes = new ByteStringBuilder();
        try {
            write(LDAP.getWriter(ASN1.getWriter(bytes), 3), messageId, request);
            TestDecoder decoder = new TestDecoder(operations, session);
            List<Control> controls = new RequestReader(decodeOptions).read(ASN1.getReader(bytes), decoder);
            if (decoder.operation == null) {
                throw new IllegalArgumentException("No operation answers " + request);
            }
            controls.forEach(decoder.request::addControl);
            return decoder.operation;
        } catch (IOException e) {
            // The transport answers these itself (protocolError, invalidDNSyntax) before any operation exists.
            throw new UncheckedIOException("The server cannot decode " + request, e);
        }
    }

    private static void write(LDAPWriter<ASN1Writer> writer, int id, Request r) throws IOException {
        if (r instanceof GenericBindRequest bind) {
            writer.writeBindRequest(id, 3, bind);
        } else if (r instanceof SearchRequest search) {
            writer.writeSearchRequest(id, search);
        } else if (r instanceof CompareRequest compare) {
            writer.writeCompareRequest(id, compare);
        } else if (r instanceof AddRequest add) {
            writer.writeAddRequest(id, add);
        } else if (r instanceof ModifyRequest modify) {
            writer.writeModifyRequest(id, modify);
        } else if (r instanceof DeleteRequest delete) {
            writer.writeDeleteRequest(id, delete);
        } else if (r instanceof ModifyDNRequest modifyDN) {
            writer.writeModifyDNRequest(id, modifyDN);
        } else if (r instanceof ExtendedRequest<?> extended) {
            writer.writeExtendedRequest(id, extended);
        } else {
            throw new IllegalArgumentException("Cannot send " + r);
        }
    }

    /** Stops the workers, the slow lane and the deferred account writes, and closes the backends. */
    @Override
    public void close() {
        composition.close();
    }
}
