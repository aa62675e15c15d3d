package io.bindfirst.server.access.aci;

import java.util.List;

import org.forgerock.opendj.ldap.ConditionResult;
import org.forgerock.opendj.ldap.DN;
import org.forgerock.opendj.ldap.Entry;
import org.forgerock.opendj.ldap.Filter;
import org.forgerock.opendj.ldap.SearchScope;
import org.forgerock.opendj.ldap.schema.Schema;

import io.bindfirst.server.filter.FilterDepth;
import io.bindfirst.server.filter.FilterMatcher;

/**
 * {@code userdn}: the requester is one of the listed users. Each value is {@code ldap:///anyone} (everyone,
 * anonymous too), {@code ldap:///all} (every authenticated user), {@code ldap:///self} (the target entry's own
 * user), {@code ldap:///parent} (the user whose entry is the target's parent), a DN pattern, or an LDAP URL
 * {@code ldap:///base??scope?filter}: users at {@code scope} of {@code base} whose entry matches the filter.
 */
final class UserDnRule implements BindRule {
    private final List<Url> urls;

    private UserDnRule(List<Url> urls) {
        this.urls = urls;
    }

    /** {@code value}: URLs separated by {@code ||}. */
    static UserDnRule parse(String value, Schema schema) {
        List<Url> out = new java.util.ArrayList<>();
        for (String part : value.split("\\|\\|")) {
            out.add(Url.parse(part.trim(), schema));
        }
        return new UserDnRule(List.copyOf(out));
    }

    @Override
    public boolean matches(AciContext c) {
        for (Url u : urls) {
            if (u.matches(c)) {
                return true;
            }
        }
        return false;
    }

    private enum Kind { ANYONE, ALL, SELF, PARENT, DN, SEARCH }

    private record Url(Kind kind, DnPattern dn, SearchScope scope, FilterMatcher filter) {
        static Url parse(String text, Schema schema) {
            String rest = LdapUrls.afterScheme(text, "userdn");
            switch (rest.toLowerCase(java.util.Locale.ROOT)) {
                case "anyone": return new Url(Kind.ANYONE, null, null, null);
                case "all": return new Url(Kind.ALL, null, null, null);
                case "self": return new Url(Kind.SELF, null, null, null);
                case "parent": return new Url(Kind.PARENT, null, null, null);
                default: break;
            }
            String[] parts = rest.split("\\?", -1);
            DnPattern dn = DnPattern.parse(LdapUrls.decode(parts[0]), schema);
            if (parts.length == 1) {
                return new Url(Kind.DN, dn, null, null);
            }
            SearchScope scope = parts.length > 2 ? LdapUrls.scope(parts[2]) : SearchScope.BASE_OBJECT;
            String filterText = parts.length > 3 ? LdapUrls.decode(parts[3]) : "";
            if (FilterDepth.tooDeep(filterText)) {
                throw new IllegalArgumentException("the filter of userdn " + text + " nests more than "
                        + FilterDepth.MAX + " levels");
            }
            Filter filter = filterText.isEmpty() ? Filter.objectClassPresent() : Filter.valueOf(filterText);
            return new Url(Kind.SEARCH, dn, scope, new FilterMatcher(filter, schema));
        }

        boolean matches(AciContext c) {
            DN user = c.who().dn();
            switch (kind) {
                case ANYONE: return true;
                case ALL: return user != null;
                case SELF: return user != null && user.equals(c.target().getName());
                case PARENT: return user != null && user.equals(c.target().getName().parent());
                case DN: return user != null && dn.matches(user);
                default: break;
            }
            if (user == null || !LdapUrls.inScope(user, dn, scope)) {
                return false;
            }
            Entry e = c.requesterEntry();
            return e != null && filter.matches(e) == ConditionResult.TRUE;
        }
    }
}
