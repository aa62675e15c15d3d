package io.bindfirst.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.forgerock.opendj.io.ASN1;
import org.forgerock.opendj.io.ASN1Reader;
import org.forgerock.opendj.io.ASN1Writer;
import org.forgerock.opendj.io.AbstractLDAPMessageHandler;
import org.forgerock.opendj.io.LDAP;
import org.forgerock.opendj.ldap.ByteString;
import org.forgerock.opendj.ldap.ByteStringBuilder;
import org.forgerock.opendj.ldap.DecodeOptions;
import org.forgerock.opendj.ldap.controls.Control;
import org.forgerock.opendj.ldap.controls.GenericControl;
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

/**
 * Decoding one simple BindRequest PDU (message ID 1, LDAPv3, {@code uid=user.4242,ou=People,dc=example,dc=com},
 * password {@code password}, no controls) into the SDK's request object, as the server does on the
 * selector thread for every request.
 *
 * <p>{@code io.bindfirst.server.net.RequestReader} and {@code RequestDecoder} are package-private, so
 * {@link #serverPath} repeats RequestReader.read's SDK calls step for step: read the envelope (message ID,
 * operation element, optional controls), re-frame the operation alone, and hand it to
 * {@code LDAP.getReader(..).readMessage} with a handler that keeps the request (RequestDecoder also builds a
 * {@code BindOperation}, which needs a running server's context: not included). Differences from the
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
    private static final byte TYPE_BOOLEAN = 0x01;
    private static final byte TYPE_OCTET_STRING = 0x04;

    private ByteString pdu;
    private DecodeOptions decodeOptions;

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

    /** RequestReader.read, step for step. */
    @Benchmark
    public GenericBindRequest serverPath() throws IOException {
        KeepRequest decoder = new KeepRequest();
        ASN1Reader in = ASN1.getReader(pdu);
        in.readStartSequence();
        long messageId = in.readInteger();
        if (messageId < 0 || messageId > Integer.MAX_VALUE) {
            throw new IOException("Invalid message ID " + messageId);
        }
        byte opType = in.peekType();
        ByteString opContent = in.readOctetString(opType);
        List<Control> controls = List.of();
        if (in.hasNextElement() && in.peekType() == LDAP.TYPE_CONTROL_SEQUENCE) {
            controls = readControls(in.readOctetString(LDAP.TYPE_CONTROL_SEQUENCE));
        }
        while (in.hasNextElement()) {
            in.skipElement();
        }
        in.readEndSequence();

        ByteStringBuilder framed = new ByteStringBuilder(opContent.length() + 16);
        ASN1Writer w = ASN1.getWriter(framed);
        w.writeStartSequence();
        w.writeInteger(messageId);
        w.writeOctetString(opType, opContent);
        w.writeEndSequence();
        LDAP.getReader(ASN1.getReader(framed), decodeOptions).readMessage(decoder);
        if (decoder.request != null) {
            for (Control c : controls) {
                decoder.request.addControl(c);
            }
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

    /** RequestReader.readControls; not reached by this PDU, kept so the code path is the server's. */
    private static List<Control> readControls(ByteString content) throws IOException {
        List<Control> out = new ArrayList<>(2);
        ASN1Reader r = ASN1.getReader(content);
        while (r.hasNextElement()) {
            r.readStartSequence();
            String oid = r.readOctetStringAsString();
            boolean critical = false;
            if (r.hasNextElement() && r.peekType() == TYPE_BOOLEAN) {
                critical = r.readBoolean();
            }
            ByteString value = null;
            if (r.hasNextElement() && r.peekType() == TYPE_OCTET_STRING) {
                value = r.readOctetString();
            }
            while (r.hasNextElement()) {
                r.skipElement();
            }
            r.readEndSequence();
            out.add(GenericControl.newControl(oid, critical, value));
        }
        return out;
    }
}
