package io.bindfirst.server.group;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.forgerock.i18n.LocalizedIllegalArgumentException;
import org.forgerock.opendj.ldap.Attribute;
import org.forgerock.opendj.ldap.ByteString;
import org.forgerock.opendj.ldap.DN;
import org.forgerock.opendj.ldap.Entry;
import org.forgerock.opendj.ldap.schema.AttributeType;
import org.forgerock.opendj.ldap.schema.Schema;

/**
 * What a static group entry says: whether an entry is one ({@code groupOfNames} or {@code groupOfUniqueNames}),
 * and the DNs it names in {@code member} and {@code uniqueMember}.
 */
final class GroupEntry {
    static final String MEMBER_OID = "2.5.4.31";
    static final String UNIQUE_MEMBER_OID = "2.5.4.50";
    private static final String GROUP_OF_NAMES_OID = "2.5.6.9";
    private static final String GROUP_OF_UNIQUE_NAMES_OID = "2.5.6.17";

    private GroupEntry() {
    }

    /** Whether {@code entry} is a static group: its object classes name groupOfNames or groupOfUniqueNames. */
    static boolean isGroup(Entry entry) {
        if (entry == null) {
            return false;
        }
        for (Attribute a : entry.getAllAttributes()) {
            if (!a.getAttributeDescription().getAttributeType().hasName("objectClass")) {
                continue;
            }
            for (ByteString v : a) {
                String oc = v.toString().trim().toLowerCase(Locale.ROOT);
                if (oc.equals("groupofnames") || oc.equals("groupofuniquenames") || oc.equals(GROUP_OF_NAMES_OID)
                        || oc.equals(GROUP_OF_UNIQUE_NAMES_OID)) {
                    return true;
                }
            }
        }
        return false;
    }

    /** Whether {@code type} is member or uniqueMember (or a subtype of either). */
    static boolean isMembership(AttributeType type) {
        return hasOid(type, MEMBER_OID) || hasOid(type, UNIQUE_MEMBER_OID);
    }

    private static boolean hasOid(AttributeType type, String oid) {
        for (AttributeType t = type; t != null; t = t.getSuperiorType()) {
            if (t.getOID().equals(oid)) {
                return true;
            }
        }
        return false;
    }

    /** The DNs {@code entry} names in member and uniqueMember; values that are not DNs are left out. */
    static List<DN> members(Entry entry, Schema schema) {
        List<DN> out = new ArrayList<>();
        for (Attribute a : entry.getAllAttributes()) {
            if (!isMembership(a.getAttributeDescription().getAttributeType())) {
                continue;
            }
            for (ByteString v : a) {
                DN dn = parse(v.toString(), schema);
                if (dn != null) {
                    out.add(dn);
                }
            }
        }
        return out;
    }

    /**
     * The DN in a member or uniqueMember value, or {@code null} if it is none. A uniqueMember value is a
     * nameAndOptionalUID (RFC 4517 3.3.21): a DN, then optionally {@code #} and a bit string ({@code #'0101'B}),
     * which tells two entries that once had the same DN apart; membership goes by the DN.
     */
    static DN parse(String value, Schema schema) {
        String dn = withoutUid(value);
        try {
            return DN.valueOf(dn, schema);
        } catch (LocalizedIllegalArgumentException e) {
            return null;
        }
    }

    /** {@code value} without a trailing {@code #'bits'B}; the value itself when it has none. */
    static String withoutUid(String value) {
        int end = value.length();
        if (end < 4 || value.charAt(end - 1) != 'B' || value.charAt(end - 2) != '\'') {
            return value;
        }
        int i = end - 3;
        while (i >= 0 && (value.charAt(i) == '0' || value.charAt(i) == '1')) {
            i--;
        }
        // An escaped '#' (\#) belongs to the DN's last value: no UID then.
        boolean uid = i >= 1 && value.charAt(i) == '\'' && value.charAt(i - 1) == '#';
        if (uid && (i < 2 || value.charAt(i - 2) != '\\')) {
            return value.substring(0, i - 1);
        }
        return value;
    }
}
