package io.bindfirst.server.net;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

import org.forgerock.i18n.LocalizableMessage;
import org.forgerock.opendj.io.ASN1;
import org.forgerock.opendj.io.ASN1Reader;
import org.forgerock.opendj.io.ASN1Writer;
import org.forgerock.opendj.io.LDAP;
import org.forgerock.opendj.io.LDAPMessageHandler;
import org.forgerock.opendj.io.LDAPReader;
import org.forgerock.opendj.ldap.ByteSequence;
import org.forgerock.opendj.ldap.ByteSequenceReader;
import org.forgerock.opendj.ldap.ByteString;
import org.forgerock.opendj.ldap.ByteStringBuilder;
import org.forgerock.opendj.ldap.DecodeException;
import org.forgerock.opendj.ldap.ResultCode;
import org.forgerock.opendj.ldap.DecodeOptions;
import org.forgerock.opendj.ldap.controls.Control;
import org.forgerock.opendj.ldap.controls.GenericControl;

import io.bindfirst.server.core.SdkDecodeErrors;

/**
 * Reads one LDAPMessage (RFC 4511 4.1.1) from the transport: hands its operation to an SDK message
 * handler (the server's {@link RequestDecoder}) and returns the message's controls. Public so the
 * benchmarks measure this very code.
 *
 * <p>Why not just {@code LDAP.getReader(..).readMessage(..)}: in SDK 5.0.3 its request readers look for
 * controls inside the operation's SEQUENCE, where there are none, so controls are never decoded; the
 * message then ends with unread bytes, and the reader's warning about them recurses until the stack
 * overflows, which closes the connection. So the envelope is split here: message ID, the operation
 * element (re-framed alone for the SDK's reader, which decodes it correctly), and the controls element,
 * decoded here. Costs two copies of the operation's bytes (out of the transport's buffer, then into the frame).
 *
 * <p>One reader per connection, used by one thread at a time (the transport hands a connection's requests over
 * one after another, each {@link #read} returning before the next begins), so it keeps the buffers of that
 * copying, the SDK's writer and its reader from one request to the next instead of allocating them for each: a
 * cheap bind allocated about 1 KiB here. Nothing decoded points into them: the SDK's reader copies every value
 * it returns out of a {@code ByteStringBuilder} ({@code RequestReaderTest} checks that an earlier request keeps
 * its name when the next is read, a malformed one between them). After a request larger than
 * {@link #KEPT_CAPACITY} the buffers shrink back, so an idle connection holds a few hundred bytes, not its
 * largest request.
 */
public final class RequestReader {
    private static final byte TYPE_BOOLEAN = 0x01;
    private static final byte TYPE_OCTET_STRING = 0x04;

    /** The most each of the kept buffers holds on to between requests. */
    static final int KEPT_CAPACITY = 1024;
    private static final int INITIAL_CAPACITY = 128;

    private final DecodeOptions decodeOptions;
    /** The operation element's content, as read from the transport (reused: see the class comment). */
    private final ByteStringBuilder operation = new ByteStringBuilder(INITIAL_CAPACITY);
    /** The operation re-framed as a message of its own, for the SDK's reader (reused). */
    private final ByteStringBuilder framed = new ByteStringBuilder(INITIAL_CAPACITY);
    /** Writes into {@link #framed}; its own sequence buffer is truncated by the SDK past KEPT_CAPACITY. */
    private final ASN1Writer framer = ASN1.getWriter(framed, KEPT_CAPACITY);
    /**
     * The SDK's reader of {@link #framed}, rewound for each request. A message read whole leaves it at its root,
     * ready for the next; one whose read failed may leave it inside an element, so it is replaced then.
     */
    private LDAPReader<ASN1Reader> sdkReader;
    private ByteSequenceReader framedReader;

    public RequestReader(DecodeOptions decodeOptions) {
        this.decodeOptions = decodeOptions;
        newSdkReader();
    }

    private void newSdkReader() {
        framedReader = framed.asReader(); // reads the builder as it is at each read: its length, not a copy
        sdkReader = LDAP.getReader(ASN1.getReader(framedReader), decodeOptions);
    }

    /**
     * Decodes the message's operation into {@code handler}.
     *
     * @return the message's controls (empty when none), for the caller to attach to the request
     */
    public List<Control> read(ASN1Reader in, LDAPMessageHandler handler) throws IOException {
        long messageId;
        byte opType;
        ByteString controlsContent = null;
        operation.clearAndTruncate(KEPT_CAPACITY, INITIAL_CAPACITY);
        try {
            in.readStartSequence();
            messageId = in.readInteger();
            opType = in.peekType();
            in.readOctetString(opType, operation);
            if (in.hasNextElement() && in.peekType() == LDAP.TYPE_CONTROL_SEQUENCE) {
                controlsContent = in.readOctetString(LDAP.TYPE_CONTROL_SEQUENCE);
            }
            while (in.hasNextElement()) {
                in.skipElement();
            }
            in.readEndSequence();
        } catch (IndexOutOfBoundsException e) {
            // The envelope itself is malformed (see SdkDecodeErrors): the stream is out of step, so fatal.
            throw DecodeException.fatalError(LocalizableMessage.raw("The message's envelope is malformed"), e);
        }

        if (messageId < 0 || messageId > Integer.MAX_VALUE) {
            throw DecodeException.fatalError(LocalizableMessage.raw("Invalid message ID %d", messageId));
        }
        try {
            return readOperation(messageId, opType, operation, controlsContent, handler);
        } catch (DecodeException e) {
            String invalidDn = e.isFatal() ? null
                    : InvalidDns.problem(opType, operation, decodeOptions.getSchemaResolver().resolveSchema(""));
            if (invalidDn != null) {
                throw new RefusedRequest(ResultCode.INVALID_DN_SYNTAX, invalidDn);
            }
            throw e;
        } catch (IllegalArgumentException | IndexOutOfBoundsException e) {
            // The envelope was read whole above, so the connection is still in step: the request is answered
            // protocolError like any other undecodable part, and the client goes on.
            throw SdkDecodeErrors.malformed(e);
        }
    }

    private List<Control> readOperation(long messageId, byte opType, ByteSequence content, ByteString controlsContent,
                                        LDAPMessageHandler handler) throws IOException {
        List<Control> controls = controlsContent == null ? List.of() : readControls(controlsContent);
        ByteSequence opContent = content;
        if (opType == ExtensibleMatchOrder.SEARCH_REQUEST) {
            // a filter too deep for the SDK's recursive decoder is cut first; then the SDK would lose :dn:
            opContent = ExtensibleMatchOrder.fix(DeepFilterCut.cut(content.toByteString()));
        }
        framed.clearAndTruncate(KEPT_CAPACITY, INITIAL_CAPACITY);
        framer.writeStartSequence();
        framer.writeInteger(messageId);
        framer.writeOctetString(opType, opContent);
        framer.writeEndSequence();
        framedReader.rewind();
        boolean readWhole = false;
        try {
            sdkReader.readMessage(handler);
            readWhole = true;
        } finally {
            if (!readWhole) {
                newSdkReader();
            }
        }
        if ((opType == LDAP.OP_TYPE_ADD_REQUEST || opType == LDAP.OP_TYPE_MODIFY_REQUEST)
                && handler instanceof RequestDecoder decoder) {
            String repeated = RepeatedValues.repeatedIn(opType, content, decoder.request);
            if (repeated != null) {
                throw new RefusedRequest(ResultCode.ATTRIBUTE_OR_VALUE_EXISTS,
                        "The request lists a value of " + repeated + " more than once");
            }
        }
        return controls;
    }

    /** The content of {@code [0] Controls}: SEQUENCE OF { controlType, criticality DEFAULT FALSE, controlValue }. */
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
