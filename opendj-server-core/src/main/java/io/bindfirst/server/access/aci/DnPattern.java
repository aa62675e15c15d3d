package io.bindfirst.server.access.aci;

import java.util.Iterator;

import org.forgerock.opendj.ldap.AVA;
import org.forgerock.opendj.ldap.DN;
import org.forgerock.opendj.ldap.RDN;

/**
 * A DN in an ACI ({@code target}, {@code userdn}): exact, or with {@code *} as a whole attribute value standing
 * for any value of that attribute ({@code uid=*,ou=People,dc=example,dc=com}). Other wildcard forms (part of a
 * value, any number of RDNs) are not supported and are refused when the ACI is parsed.
 */
final class DnPattern {
    private final DN pattern;
    private final boolean wildcard;

    private DnPattern(DN pattern, boolean wildcard) {
        this.pattern = pattern;
        this.wildcard = wildcard;
    }

    static DnPattern parse(String text, org.forgerock.opendj.ldap.schema.Schema schema) {
        DN dn = DN.valueOf(text, schema);
        boolean wildcard = false;
        for (DN d = dn; !d.isRootDN(); d = d.parent()) {
            for (AVA ava : d.rdn()) {
                String v = ava.getAttributeValue().toString();
                if (v.equals("*")) {
                    wildcard = true;
                } else if (v.indexOf('*') >= 0) {
                    throw new IllegalArgumentException("the DN " + text + " has a wildcard inside a value; only a "
                            + "whole value may be *");
                }
            }
        }
        return new DnPattern(dn, wildcard);
    }

    /** Whether {@code dn} is the pattern's DN (each {@code *} matching any value). */
    boolean matches(DN dn) {
        if (!wildcard) {
            return dn.equals(pattern);
        }
        return dn.size() == pattern.size() && suffixMatches(dn);
    }

    /** Whether {@code dn} is the pattern's DN or below it. */
    boolean matchesAtOrBelow(DN dn) {
        if (!wildcard) {
            return dn.isSubordinateOrEqualTo(pattern);
        }
        if (dn.size() < pattern.size()) {
            return false;
        }
        return suffixMatches(dn.parent(dn.size() - pattern.size()));
    }

    private boolean suffixMatches(DN dn) {
        DN p = pattern;
        DN d = dn;
        while (!p.isRootDN()) {
            if (!rdnMatches(p.rdn(), d.rdn())) {
                return false;
            }
            p = p.parent();
            d = d.parent();
        }
        return true;
    }

    private static boolean rdnMatches(RDN pattern, RDN rdn) {
        if (pattern.size() != rdn.size()) {
            return false;
        }
        Iterator<AVA> ps = pattern.iterator();
        Iterator<AVA> rs = rdn.iterator();
        while (ps.hasNext()) {
            AVA p = ps.next();
            AVA r = rs.next();
            if (!p.getAttributeType().equals(r.getAttributeType())) {
                return false;
            }
            if (!p.getAttributeValue().toString().equals("*") && !p.equals(r)) {
                return false;
            }
        }
        return true;
    }

    DN dn() {
        return pattern;
    }

    @Override
    public String toString() {
        return pattern.toString();
    }
}
