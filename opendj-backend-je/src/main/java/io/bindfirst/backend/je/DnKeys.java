package io.bindfirst.backend.je;

import java.util.Arrays;

import org.forgerock.i18n.LocalizedIllegalArgumentException;
import org.forgerock.opendj.ldap.AVA;
import org.forgerock.opendj.ldap.DN;
import org.forgerock.opendj.ldap.RDN;
import org.forgerock.opendj.ldap.ResultCode;
import org.forgerock.opendj.ldap.schema.AttributeType;
import org.forgerock.opendj.ldap.schema.Schema;

import io.bindfirst.server.backend.BackendException;

/**
 * dn2id key encoding. The key is the SDK's normalized DN ({@link DN#toNormalizedByteString()}): RDNs from
 * the root down, each preceded by a 0x00 byte, AVAs of a multi-valued RDN separated by 0x01, and any
 * 0x00/0x01/0x02 byte inside a normalized value escaped by a 0x02 prefix. Hence, in unsigned byte order,
 * an entry's key is immediately followed by the keys of its whole subtree (all start with key + 0x00) and
 * the first key after the subtree is {@code >= key + 0x01}: a subtree is the range [key, key + 0x01).
 * {@code DnKeysTest} pins this property, so an SDK change that broke it would fail the build.
 */
final class DnKeys {
    private final Schema schema;

    DnKeys(Schema schema) {
        this.schema = schema.asNonStrictSchema();
    }

    /**
     * {@code dn} re-read with the backend's schema. Normalization depends on each RDN attribute's matching
     * rule, so a DN that the caller parsed with another schema (e.g. the core schema, where {@code mail}
     * is case-sensitive) must still land on the same key and compare equal to the stored DNs.
     */
    DN canonical(DN dn) throws BackendException {
        if (parsedWithThisSchema(dn)) {
            return dn; // the common case (the core and the backend share one schema): no second parse
        }
        try {
            return DN.valueOf(dn.toString(), schema);
        } catch (LocalizedIllegalArgumentException e) {
            throw new BackendException(ResultCode.INVALID_DN_SYNTAX, "Invalid DN " + dn, e);
        }
    }

    /**
     * Whether every attribute type in {@code dn} is this schema's own object for that type: then each RDN
     * value was normalized with the matching rules this schema would use, and re-parsing would give the
     * same DN. Placeholder types (unknown attributes, from a non-strict parse) never qualify. Walks up through the
     * parents rather than with the DN's iterators: this runs for every entry read by DN (each bind), and the
     * iterators were most of what it allocated.
     */
    private boolean parsedWithThisSchema(DN dn) {
        for (DN d = dn; d != null && d.size() > 0; d = d.parent()) {
            RDN rdn = d.rdn();
            if (!rdn.isMultiValued()) {
                if (!ours(rdn.getFirstAVA().getAttributeType())) {
                    return false;
                }
                continue;
            }
            for (AVA ava : rdn) {
                if (!ours(ava.getAttributeType())) {
                    return false;
                }
            }
        }
        return true;
    }

    private boolean ours(AttributeType type) {
        return !type.isPlaceHolder() && schema.getAttributeType(type.getOID()) == type;
    }

    /** The dn2id key of {@code dn}. */
    byte[] key(DN dn) throws BackendException {
        return canonical(dn).toNormalizedByteString().toByteArray();
    }

    /** The dn2id key of a DN already returned by {@link #canonical}. */
    static byte[] keyOfCanonical(DN canonicalDn) {
        return canonicalDn.toNormalizedByteString().toByteArray();
    }

    /** The smallest key of any entry strictly below {@code key} (also: the successor of {@code key}). */
    static byte[] childrenStart(byte[] key) {
        return append(key, (byte) 0x00);
    }

    /** The exclusive upper bound of the subtree rooted at {@code key}. */
    static byte[] subtreeEnd(byte[] key) {
        return append(key, (byte) 0x01);
    }

    /** Whether {@code key} is {@code base} or a descendant of it. */
    static boolean inSubtree(byte[] key, byte[] base) {
        return compare(key, base) >= 0 && compare(key, subtreeEnd(base)) < 0;
    }

    /** The order JE uses for keys without a custom comparator. */
    static int compare(byte[] a, byte[] b) {
        return Arrays.compareUnsigned(a, b);
    }

    private static byte[] append(byte[] key, byte b) {
        byte[] result = Arrays.copyOf(key, key.length + 1);
        result[key.length] = b;
        return result;
    }
}
