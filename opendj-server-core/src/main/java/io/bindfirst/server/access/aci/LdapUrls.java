package io.bindfirst.server.access.aci;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

import org.forgerock.opendj.ldap.DN;
import org.forgerock.opendj.ldap.SearchScope;

/** The little of RFC 4516 LDAP URLs that ACIs use: {@code ldap:///dn??scope?filter}, no host. */
final class LdapUrls {
    private LdapUrls() {
    }

    /** What follows {@code ldap:///} in {@code text}; refused with a message naming {@code keyword} otherwise. */
    static String afterScheme(String text, String keyword) {
        if (!text.regionMatches(true, 0, "ldap:///", 0, 8)) {
            throw new IllegalArgumentException(keyword + " needs values of the form ldap:///..., not " + text);
        }
        return text.substring(8);
    }

    static String decode(String s) {
        return s.indexOf('%') < 0 ? s : URLDecoder.decode(s.replace("+", "%2B"), StandardCharsets.UTF_8);
    }

    static SearchScope scope(String s) {
        switch (s.toLowerCase(Locale.ROOT)) {
            case "": case "base": return SearchScope.BASE_OBJECT;
            case "one": return SearchScope.SINGLE_LEVEL;
            case "sub": return SearchScope.WHOLE_SUBTREE;
            case "subordinate": case "subordinates": return SearchScope.SUBORDINATES;
            default: throw new IllegalArgumentException("unknown scope " + s + " in an LDAP URL: base, one, sub or "
                    + "subordinate");
        }
    }

    /** Whether {@code dn} is within {@code scope} of {@code base}. */
    static boolean inScope(DN dn, DnPattern base, SearchScope scope) {
        if (scope.equals(SearchScope.BASE_OBJECT)) {
            return base.matches(dn);
        }
        if (scope.equals(SearchScope.SINGLE_LEVEL)) {
            return dn.size() == base.dn().size() + 1 && base.matchesAtOrBelow(dn);
        }
        if (scope.equals(SearchScope.SUBORDINATES)) {
            return dn.size() > base.dn().size() && base.matchesAtOrBelow(dn);
        }
        return base.matchesAtOrBelow(dn);
    }
}
