package io.bindfirst.server.core;

import org.forgerock.i18n.LocalizableMessage;
import org.forgerock.opendj.ldap.DecodeException;
import org.forgerock.opendj.ldap.DecodeOptions;
import org.forgerock.opendj.ldap.controls.Control;
import org.forgerock.opendj.ldap.controls.ControlDecoder;
import org.forgerock.opendj.ldap.schema.Schema;

/**
 * The SDK's BER decoders (5.0.3) report some malformed input with unchecked exceptions instead of a
 * {@link DecodeException}: an element length it reads as negative (a 4-byte length with the top bit set) fails in
 * {@code ByteString.subSequence} with an {@link IndexOutOfBoundsException}; a substrings filter with no substring, a
 * DN or an attribute description it cannot parse fail with an {@link IllegalArgumentException}. Where the server
 * calls those decoders on a client's bytes (the request reader, request controls, extended request values) it catches
 * these two and turns them into what they mean, so the client gets protocolError instead of a closed connection or
 * an {@code other} result with a stack trace in the log. Found by fuzzing (docs/FUZZING.md).
 */
public final class SdkDecodeErrors {
    private SdkDecodeErrors() {
    }

    /** {@code c} decoded by {@code decoder} with the server's schema, as an operation decodes its request controls. */
    public static <C extends Control> C decodeControl(ControlDecoder<C> decoder, Control c, Schema schema)
            throws DecodeException {
        try {
            return decoder.decodeControl(c, new DecodeOptions().setSchema(schema));
        } catch (IllegalArgumentException | IndexOutOfBoundsException e) {
            throw malformed(e);
        }
    }

    /** {@code e}, thrown by an SDK decoder on malformed bytes, as the non-fatal decode error it stands for. */
    public static DecodeException malformed(RuntimeException e) {
        String detail = e instanceof IndexOutOfBoundsException || e.getMessage() == null
                ? "an element's length does not fit the bytes sent" : e.getMessage();
        return DecodeException.error(LocalizableMessage.raw("%s", detail), e);
    }
}
