package io.bindfirst.server.net;

import java.io.IOException;

import org.forgerock.i18n.LocalizedIllegalArgumentException;
import org.forgerock.opendj.io.ASN1;
import org.forgerock.opendj.io.ASN1Reader;
import org.forgerock.opendj.io.LDAP;
import org.forgerock.opendj.ldap.ByteSequence;
import org.forgerock.opendj.ldap.DN;
import org.forgerock.opendj.ldap.RDN;
import org.forgerock.opendj.ldap.schema.Schema;

/**
 * Which name of a request the SDK's reader could not parse, so that the request is answered invalidDNSyntax (RFC 4511
 * 4.1.9 and appendix A: "the request contained a syntactically invalid DN") as slapd and OpenDJ answer it, not
 * protocolError: the SDK's reader reports a DN it cannot parse as a failure to decode the whole request. Looked at
 * only after the reader failed, so a well-formed request costs nothing; binds parse their own name (and answer 34).
 */
final class InvalidDns {
    private InvalidDns() {
    }

    /**
     * The parser's message about the first name of the {@code opType} request in {@code content} (the operation
     * element's content) that is not a valid DN or RDN, or {@code null} if they all are, or the bytes do not even
     * hold them.
     */
    static String problem(byte opType, ByteSequence content, Schema schema) {
        try {
            if (opType == LDAP.OP_TYPE_DELETE_REQUEST) {
                return dnProblem(content.toByteString().toString(), schema);
            }
            ASN1Reader r = ASN1.getReader(content);
            switch (opType) {
            case LDAP.OP_TYPE_ADD_REQUEST:
            case LDAP.OP_TYPE_MODIFY_REQUEST:
            case LDAP.OP_TYPE_COMPARE_REQUEST:
            case LDAP.OP_TYPE_SEARCH_REQUEST:
                return dnProblem(r.readOctetStringAsString(), schema);
            case LDAP.OP_TYPE_MODIFY_DN_REQUEST:
                String problem = dnProblem(r.readOctetStringAsString(), schema);
                if (problem == null) {
                    problem = rdnProblem(r.readOctetStringAsString(), schema);
                }
                if (problem == null) {
                    r.skipElement(); // deleteoldrdn
                    if (r.hasNextElement() && r.peekType() == LDAP.TYPE_MODIFY_DN_NEW_SUPERIOR) {
                        problem = dnProblem(r.readOctetStringAsString(LDAP.TYPE_MODIFY_DN_NEW_SUPERIOR), schema);
                    }
                }
                return problem;
            default:
                return null;
            }
        } catch (IOException | RuntimeException e) {
            return null; // not even the names can be read: the reader's own answer stands
        }
    }

    private static String dnProblem(String dn, Schema schema) {
        try {
            DN.valueOf(dn, schema);
            return null;
        } catch (LocalizedIllegalArgumentException e) {
            return e.getMessage();
        }
    }

    private static String rdnProblem(String rdn, Schema schema) {
        try {
            RDN.valueOf(rdn, schema);
            return null;
        } catch (LocalizedIllegalArgumentException e) {
            return e.getMessage();
        }
    }
}
