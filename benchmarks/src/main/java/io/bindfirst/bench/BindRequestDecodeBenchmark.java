package io.bindfirst.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.forgerock.opendj.io.ASN1;
import org.forgerock.opendj.io.AbstractLDAPMessageHandler;
import org.forgerock.opendj.io.LDAP;
import org.forgerock.opendj.ldap.ByteString;
import org.forgerock.opendj.ldap.ByteStringBuilder;
import org.forgerock.opendj.ldap.DecodeOptions;
import org.forgerock.opendj.ldap.controls.Control;
import org.forgerock.opendj.ldap.requests.GenericBindRequest;
import org.forgerock.opendj.ldap.requests.Requests;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import io.bindfirst.server.net.RequestReader;

/**
 * Decoding one simple BindRequest PDU (message ID 1, LDAPv3, {@code uid=user.4242,ou=People,dc=example,dc=com},
 * password {@code password}, no controls) into the SDK's request object, as the server does on the
 * selector thread for every request.
 *
 * <p>{@link #serverPath} runs the server's own {@link RequestReader} (envelope, re-framed operation,
 * controls) with a handler that keeps the request; the server's RequestDecoder also builds a
 * {@code BindOperation}, which needs a running server's context: not included. Differences from the
 * server: the envelope reader here is the SDK's in-memory {@code ASN1.getReader(ByteString)}, where the
 * server gets Grizzly's buffer reader (package-private in opendj-grizzly), and Grizzly's framing of the
 * bytes is not measured.
 *
 * <p>{@link #sdkDirect} is the SDK's own one-step {@code readMessage} on the whole message, which the
 * server cannot use (its control handling is broken in SDK 5.0.3, see RequestReader) but which works for
 * a message without controls: the difference is what the re-framing workaround costs.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
@State(Scope.Benchmark)
public class BindRequestDecodeBenchmark {

    static final String BIND_DN = "uid=user.4242,ou=People,dc=example,dc=com";

    private ByteString pdu;
    private DecodeOptions decodeOptions;
    private RequestReader reader;

    /** Keeps the decoded request, like RequestDecoder.bindRequest. */
    static final class KeepRequest extends AbstractLDAPMessageHandler {
        GenericBindRequest request;
        int messageId;
        int version;

        @Override
        public void bindRequest(int messageID, int version, GenericBindRequest request) {
            this.messageId = messageID;
            this.version = version;
            this.request = request;
        }
    }

    @Setup
    public void setUp() throws IOException {
        // As LdapConnectionHandler configures it.
        decodeOptions = new DecodeOptions().setSchema(ServerSchema.load().asNonStrictSchema());
        reader = new RequestReader(decodeOptions);
        ByteStringBuilder bytes = new ByteStringBuilder();
        LDAP.getWriter(ASN1.getWriter(bytes), 3).writeBindRequest(1, 3, Requests.newGenericBindRequest(
                BIND_DN, LDAP.TYPE_AUTHENTICATION_SIMPLE, "password".getBytes(StandardCharsets.UTF_8)));
        pdu = bytes.toByteString();
        for (GenericBindRequest r : new GenericBindRequest[] { serverPath(), sdkDirect() }) {
            if (!BIND_DN.equals(r.getName()) || r.getAuthenticationType() != LDAP.TYPE_AUTHENTICATION_SIMPLE
                    || !Arrays.equals("password".getBytes(StandardCharsets.UTF_8), r.getAuthenticationValue())) {
                throw new IllegalStateException("decoded " + r + " from " + pdu.toHexString());
            }
        }
    }

    /** The server's own RequestReader, then the controls attached as the server does. */
    @Benchmark
    public GenericBindRequest serverPath() throws IOException {
        KeepRequest decoder = new KeepRequest();
        List<Control> controls = reader.read(ASN1.getReader(pdu), decoder);
        for (Control c : controls) {
            decoder.request.addControl(c);
        }
        return decoder.request;
    }

    /** The SDK's own decoding of the whole message, for comparison. */
    @Benchmark
    public GenericBindRequest sdkDirect() throws IOException {
        KeepRequest decoder = new KeepRequest();
        LDAP.getReader(ASN1.getReader(pdu), decodeOptions).readMessage(decoder);
        return decoder.request;
    }
}
