package io.bindfirst.server.net;

import org.forgerock.opendj.io.ASN1;
import org.forgerock.opendj.ldap.ByteString;
import org.forgerock.opendj.ldap.DecodeException;
import org.forgerock.opendj.ldap.DecodeOptions;
import org.forgerock.opendj.ldap.Entry;
import org.forgerock.opendj.ldap.controls.Control;
import org.forgerock.opendj.ldap.requests.SearchRequest;
import org.forgerock.opendj.ldap.schema.Schema;

import io.bindfirst.server.core.ControlsFuzzTarget;
import io.bindfirst.server.core.FilterFuzzTarget;
import io.bindfirst.server.fuzz.Fuzzing;

/**
 * Jazzer target: one LDAPMessage's bytes as a client sends them, read as {@link LdapRequestHandler#handle} reads
 * them: {@link RequestReader} (the envelope, the controls, the SDK's {@code LDAPReader} for the operation, with the
 * listener's decode options) into a {@link RequestDecoder}, which builds the operation through the real
 * {@code OperationFactory}. Then what the operation does first with what was decoded: every control decoded as the
 * operation that takes it would ({@link ControlsFuzzTarget#exercise}) and a search's filter checked and matched
 * ({@link FilterFuzzTarget#exercise}). Expected: {@link DecodeException} (protocolError: a result, or a notice of
 * disconnection when fatal), {@link RefusedRequest} (a result of its own: invalidDNSyntax, attributeOrValueExists)
 * and the controls' own; anything else is a finding (the handler would close the connection without saying why).
 */
public final class RequestFuzzTarget {
    /** The listener's default {@code ds-cfg-max-request-size}: the framing refuses a longer PDU from its header. */
    private static final int MAX_REQUEST_SIZE = 5 << 20;

    private static Schema schema;
    private static Entry entry;
    private static RequestReader reader;
    private static TestConnection connection;

    private RequestFuzzTarget() {
    }

    public static void fuzzerInitialize() {
        schema = Fuzzing.serverSchema();
        entry = FilterFuzzTarget.sampleEntry();
        reader = new RequestReader(new DecodeOptions().setSchema(schema.asNonStrictSchema()));
        connection = new TestConnection(16);
        ControlsFuzzTarget.initialize(schema);
    }

    public static void fuzzerTestOneInput(byte[] data) throws Exception {
        Fuzzing.withinAllowance(data.length, () -> {
            RequestDecoder decoder = connection.decoder();
            try {
                decoder.addControls(reader.read(ASN1.getReader(ByteString.wrap(data), MAX_REQUEST_SIZE), decoder));
            } catch (DecodeException | RefusedRequest e) {
                return;
            }
            if (decoder.request == null) {
                return; // abandon, unbind
            }
            try {
                for (Control c : decoder.request.getControls()) {
                    ControlsFuzzTarget.exercise(c);
                }
            } catch (DecodeException e) {
                // the operation answers protocolError for a malformed control
            }
            if (decoder.request instanceof SearchRequest search) {
                FilterFuzzTarget.exercise(search.getFilter(), schema, entry);
            }
        });
    }
}
