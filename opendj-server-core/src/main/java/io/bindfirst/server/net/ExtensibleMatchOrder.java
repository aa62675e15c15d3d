package io.bindfirst.server.net;

import java.io.IOException;

import org.forgerock.opendj.io.ASN1;
import org.forgerock.opendj.io.ASN1Reader;
import org.forgerock.opendj.io.ASN1Writer;
import org.forgerock.opendj.ldap.ByteString;
import org.forgerock.opendj.ldap.ByteStringBuilder;

/**
 * Keeps the {@code dnAttributes} flag of extensible-match filters, which SDK 5.0.3's decoder drops: RFC 4511
 * 4.5.1 orders a MatchingRuleAssertion {@code matchingRule [1], type [2], matchValue [3], dnAttributes [4]},
 * but the SDK looks for {@code [4]} before {@code [3]}, finds the value there, takes the flag as FALSE and
 * never reads it, so {@code (ou:dn:=People)} ignored the DN. A search request that holds an extensible
 * match with the flag set is rewritten here with {@code [4]} before {@code [3]}, the order the SDK reads.
 *
 * <p>Only requests whose bytes contain a TRUE {@code [4]} element (a cheap scan) are parsed. The walk
 * recurses through AND, OR and NOT at most {@link #MAX_DEPTH} levels and leaves deeper parts as they are:
 * such a filter is refused for its depth anyway (SearchOperation).
 */
final class ExtensibleMatchOrder {
    static final byte SEARCH_REQUEST = 0x63;
    private static final int MAX_DEPTH = 128;
    private static final byte AND = (byte) 0xA0;
    private static final byte OR = (byte) 0xA1;
    private static final byte NOT = (byte) 0xA2;
    private static final byte EXTENSIBLE = (byte) 0xA9;
    private static final byte MATCH_VALUE = (byte) 0x83;
    private static final byte DN_ATTRIBUTES = (byte) 0x84;

    private ExtensibleMatchOrder() {
    }

    /** The search request's content, its extensible matches reordered if one sets dnAttributes. */
    static ByteString fix(ByteString searchRequest) throws IOException {
        if (!mayHoldDnAttributes(searchRequest)) {
            return searchRequest;
        }
        ASN1Reader in = ASN1.getReader(searchRequest);
        ByteStringBuilder out = new ByteStringBuilder(searchRequest.length() + 8);
        ASN1Writer w = ASN1.getWriter(out);
        for (int field = 0; field < 6 && in.hasNextElement(); field++) { // base, scope, deref, limits, typesOnly
            byte type = in.peekType();
            w.writeOctetString(type, in.readOctetString(type));
        }
        if (in.hasNextElement()) {
            byte type = in.peekType();
            w.writeOctetString(type, filter(type, in.readOctetString(type), 0));
        }
        while (in.hasNextElement()) {
            byte type = in.peekType();
            w.writeOctetString(type, in.readOctetString(type));
        }
        return out.toByteString();
    }

    /** Whether the bytes hold {@code 84 01 xx} with xx not zero: a BOOLEAN [4] that is TRUE. */
    private static boolean mayHoldDnAttributes(ByteString bytes) {
        for (int i = 0; i + 2 < bytes.length(); i++) {
            if (bytes.byteAt(i) == DN_ATTRIBUTES && bytes.byteAt(i + 1) == 1 && bytes.byteAt(i + 2) != 0) {
                return true;
            }
        }
        return false;
    }

    private static ByteString filter(byte type, ByteString content, int depth) throws IOException {
        if (depth >= MAX_DEPTH || (type != AND && type != OR && type != NOT && type != EXTENSIBLE)) {
            return content;
        }
        ASN1Reader in = ASN1.getReader(content);
        ByteStringBuilder out = new ByteStringBuilder(content.length());
        ASN1Writer w = ASN1.getWriter(out);
        if (type != EXTENSIBLE) {
            while (in.hasNextElement()) {
                byte t = in.peekType();
                w.writeOctetString(t, filter(t, in.readOctetString(t), depth + 1));
            }
            return out.toByteString();
        }
        ByteString value = null;
        ByteString dnAttributes = null;
        while (in.hasNextElement()) {
            byte t = in.peekType();
            ByteString element = in.readOctetString(t);
            if (t == MATCH_VALUE) {
                value = element;
            } else if (t == DN_ATTRIBUTES) {
                dnAttributes = element;
            } else {
                w.writeOctetString(t, element);
            }
        }
        if (dnAttributes != null) {
            w.writeOctetString(DN_ATTRIBUTES, dnAttributes);
        }
        if (value != null) {
            w.writeOctetString(MATCH_VALUE, value);
        }
        return out.toByteString();
    }
}
