package io.bindfirst.server.net;

import java.io.IOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.forgerock.opendj.io.ASN1;
import org.forgerock.opendj.io.ASN1Reader;
import org.forgerock.opendj.io.LDAP;
import org.forgerock.opendj.ldap.Attribute;
import org.forgerock.opendj.ldap.AttributeDescription;
import org.forgerock.opendj.ldap.ByteSequence;
import org.forgerock.opendj.ldap.Modification;
import org.forgerock.opendj.ldap.requests.AddRequest;
import org.forgerock.opendj.ldap.requests.ModifyRequest;
import org.forgerock.opendj.ldap.requests.Request;

/**
 * An add or modify that lists one value of an attribute twice (RFC 4511 4.1.7: the values of an attribute form a
 * set; "sn: a" and "sn: A" are one value under caseIgnoreMatch), answered attributeOrValueExists as slapd and OpenDJ
 * answer it. The SDK's reader merges such values into one without a word, so the request's own values are counted
 * here and compared with what was decoded: more sent than kept means some were the same value.
 */
final class RepeatedValues {
    private RepeatedValues() {
    }

    /**
     * The attribute of {@code decoded} (an add or modify read from {@code content}, its operation element's content)
     * whose values {@code content} lists more often than {@code decoded} holds them, or {@code null}.
     */
    static String repeatedIn(byte opType, ByteSequence content, Request decoded) {
        try {
            return repeated(opType, content, decoded);
        } catch (IOException | RuntimeException e) {
            return null; // the SDK's reader took these bytes: what it decoded stands
        }
    }

    private static String repeated(byte opType, ByteSequence content, Request decoded) throws IOException {
        ASN1Reader r = ASN1.getReader(content);
        r.skipElement(); // the entry's name
        r.readStartSequence();
        if (opType == LDAP.OP_TYPE_ADD_REQUEST && decoded instanceof AddRequest add) {
            Map<AttributeDescription, Integer> sent = new HashMap<>();
            while (r.hasNextElement()) {
                r.readStartSequence();
                Attribute kept = add.getAttribute(r.readOctetStringAsString());
                int values = countValues(r);
                r.readEndSequence();
                if (kept != null) {
                    sent.merge(kept.getAttributeDescription(), values, Integer::sum);
                }
            }
            for (Map.Entry<AttributeDescription, Integer> e : sent.entrySet()) {
                if (e.getValue() > add.getAttribute(e.getKey()).size()) {
                    return e.getKey().toString();
                }
            }
        } else if (opType == LDAP.OP_TYPE_MODIFY_REQUEST && decoded instanceof ModifyRequest modify) {
            List<Modification> changes = modify.getModifications();
            for (int i = 0; r.hasNextElement() && i < changes.size(); i++) {
                r.readStartSequence();
                r.skipElement(); // operation
                r.readStartSequence();
                r.skipElement(); // type
                int values = countValues(r);
                r.readEndSequence();
                r.readEndSequence();
                Attribute kept = changes.get(i).getAttribute();
                if (values > kept.size()) {
                    return kept.getAttributeDescriptionAsString();
                }
            }
        }
        return null;
    }

    private static int countValues(ASN1Reader r) throws IOException {
        int n = 0;
        r.readStartSet();
        while (r.hasNextElement()) {
            r.skipElement();
            n++;
        }
        r.readEndSet();
        return n;
    }
}
