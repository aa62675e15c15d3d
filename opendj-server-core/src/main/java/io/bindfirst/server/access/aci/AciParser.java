package io.bindfirst.server.access.aci;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.forgerock.opendj.ldap.DN;
import org.forgerock.opendj.ldap.Filter;
import org.forgerock.opendj.ldap.SearchScope;
import org.forgerock.opendj.ldap.schema.Schema;

import io.bindfirst.server.filter.FilterDepth;
import io.bindfirst.server.filter.FilterMatcher;

/**
 * Reads OpenDJ's ACI syntax (a documented subset, docs/ACCESS-CONTROL.md):
 * <pre>
 * (target="ldap:///dn")(targetattr="a || b")(targetfilter="(f)")(targetscope="subtree")
 * (version 3.0; acl "name"; allow (read,search) userdn="ldap:///self" and ssf&gt;="128";)
 * </pre>
 * Any error is an {@link AciSyntaxException} whose message says what is wrong and where, for a client whose
 * write is refused and for the log when a stored ACI is ignored.
 */
public final class AciParser {
    private final Schema schema;

    public AciParser(Schema schema) {
        this.schema = schema;
    }

    /** {@code text} compiled, as held by {@code holder} ({@code null}: a global ACI). */
    Aci parse(String text, DN holder) throws AciSyntaxException {
        try {
            return new Reader(text).aci(holder);
        } catch (IllegalArgumentException e) {
            throw new AciSyntaxException("Invalid ACI \"" + text + "\": " + e.getMessage());
        }
    }

    /** Checks {@code text} (a value being written to {@code aci}); the message says what is wrong. */
    public void check(String text) throws AciSyntaxException {
        parse(text, null);
    }

    /** The ACI syntax error: its message is for the client and the log. */
    public static final class AciSyntaxException extends Exception {
        private static final long serialVersionUID = 1L;

        AciSyntaxException(String message) {
            super(message);
        }
    }

    private final class Reader {
        private final String s;
        private int at;

        Reader(String s) {
            this.s = s;
        }

        Aci aci(DN holder) {
            DnPattern target = null;
            boolean targetNegated = false;
            SearchScope scope = SearchScope.WHOLE_SUBTREE;
            FilterMatcher filter = null;
            boolean filterNegated = false;
            Targets attributes = null;
            List<String> seen = new ArrayList<>();
            while (true) {
                blanks();
                expect('(');
                blanks();
                String keyword = word().toLowerCase(Locale.ROOT);
                if (keyword.equals("version")) {
                    break;
                }
                if (seen.contains(keyword)) {
                    throw error(keyword + " is given twice");
                }
                seen.add(keyword);
                blanks();
                boolean negated = operator(false) == Comparison.NE;
                String value = quoted();
                blanks();
                expect(')');
                switch (keyword) {
                    case "target":
                        target = DnPattern.parse(LdapUrls.decode(LdapUrls.afterScheme(value, "target")), schema);
                        targetNegated = negated;
                        break;
                    case "targetattr":
                        attributes = Targets.parse(value, negated, schema);
                        break;
                    case "targetfilter":
                        // The server's matcher, as for a search: the SDK's threw a NullPointerException on every
                        // entry for an extensible match with :dn: and no rule, such as (ou:dn:=People).
                        filter = new FilterMatcher(filter(value), schema);
                        filterNegated = negated;
                        break;
                    case "targetscope":
                        if (negated) {
                            throw error("targetscope takes =, not !=");
                        }
                        scope = scope(value);
                        break;
                    default:
                        throw error("the target keyword " + keyword + " is not supported (target, targetattr, "
                                + "targetfilter, targetscope are)");
                }
            }
            blanks();
            String version = word();
            if (!version.equals("3.0")) {
                throw error("the version must be 3.0, not " + version);
            }
            blanks();
            expect(';');
            blanks();
            if (!word().equalsIgnoreCase("acl")) {
                throw error("acl \"name\" must follow the version");
            }
            blanks();
            String name = quoted();
            blanks();
            expect(';');
            List<Aci.Permission> permissions = new ArrayList<>();
            while (true) {
                blanks();
                if (peek() == ')') {
                    at++;
                    break;
                }
                permissions.add(permission());
            }
            blanks();
            if (at != s.length()) {
                throw error("unexpected text after the ACI's end");
            }
            if (permissions.isEmpty()) {
                throw error("no allow or deny clause");
            }
            return new Aci(name, s, holder, target, targetNegated, scope, filter, filterNegated, attributes,
                    List.copyOf(permissions));
        }

        private Aci.Permission permission() {
            String kind = word().toLowerCase(Locale.ROOT);
            if (!kind.equals("allow") && !kind.equals("deny")) {
                throw error("expected allow or deny, found " + (kind.isEmpty() ? "'" + peek() + "'" : kind));
            }
            blanks();
            expect('(');
            int rights = 0;
            while (true) {
                blanks();
                String r = word();
                int bits = Rights.named(r);
                if (bits < 0) {
                    throw error("unknown right " + r + " (read, write, add, delete, search, compare, selfwrite, "
                            + "proxy, import, export, all)");
                }
                rights |= bits;
                blanks();
                if (peek() == ',') {
                    at++;
                    continue;
                }
                expect(')');
                break;
            }
            BindRule rule = or();
            blanks();
            expect(';');
            return new Aci.Permission(kind.equals("allow"), rights, rule);
        }

        private BindRule or() {
            BindRule left = and();
            while (nextWordIs("or")) {
                left = new BindRule.Or(left, and());
            }
            return left;
        }

        private BindRule and() {
            BindRule left = unary();
            while (nextWordIs("and")) {
                left = new BindRule.And(left, unary());
            }
            return left;
        }

        private BindRule unary() {
            blanks();
            if (nextWordIs("not")) {
                return new BindRule.Not(unary());
            }
            blanks();
            if (peek() == '(') {
                at++;
                BindRule inner = or();
                blanks();
                expect(')');
                return inner;
            }
            String keyword = word().toLowerCase(Locale.ROOT);
            if (keyword.isEmpty()) {
                throw error("expected a bind rule");
            }
            blanks();
            Comparison op = operator(true);
            String value = quoted();
            BindRule rule = keyword(keyword, op, value);
            return op == Comparison.NE ? new BindRule.Not(rule) : rule;
        }

        private BindRule keyword(String keyword, Comparison op, String value) {
            boolean ordered = op != Comparison.EQ && op != Comparison.NE;
            switch (keyword) {
                case "userdn": return equalityOnly(keyword, ordered, UserDnRule.parse(value, schema));
                case "groupdn": return equalityOnly(keyword, ordered, GroupDnRule.parse(value, schema));
                case "userattr": return equalityOnly(keyword, ordered, UserAttrRule.parse(value, schema));
                case "authmethod": return equalityOnly(keyword, ordered, ConnectionRules.AuthMethod.parse(value));
                case "ip": return equalityOnly(keyword, ordered, ConnectionRules.Ip.parse(value));
                case "dayofweek": return equalityOnly(keyword, ordered, TimeRules.Days.parse(value));
                case "ssf": return op == Comparison.NE ? ConnectionRules.Ssf.parse(Comparison.EQ, value)
                        : ConnectionRules.Ssf.parse(op, value);
                case "timeofday": return op == Comparison.NE ? TimeRules.TimeOfDay.parse(Comparison.EQ, value)
                        : TimeRules.TimeOfDay.parse(op, value);
                default: throw error("the bind rule keyword " + keyword + " is not supported (userdn, groupdn, "
                        + "userattr, authmethod, ip, ssf, dayofweek, timeofday are)");
            }
        }

        private BindRule equalityOnly(String keyword, boolean ordered, BindRule rule) {
            if (ordered) {
                throw error(keyword + " takes = or !=");
            }
            return rule;
        }

        private Filter filter(String value) {
            if (FilterDepth.tooDeep(value)) {
                throw error("targetfilter nests more than " + FilterDepth.MAX + " levels");
            }
            try {
                return Filter.valueOf(value);
            } catch (RuntimeException e) {
                throw error("targetfilter " + value + " is not a valid filter");
            }
        }

        private SearchScope scope(String value) {
            switch (value.trim().toLowerCase(Locale.ROOT)) {
                case "base": return SearchScope.BASE_OBJECT;
                case "onelevel": return SearchScope.SINGLE_LEVEL;
                case "subtree": return SearchScope.WHOLE_SUBTREE;
                case "subordinate": return SearchScope.SUBORDINATES;
                default: throw error("targetscope is base, onelevel, subtree or subordinate, not " + value);
            }
        }

        /** An operator; ordering ones only where {@code ordered} is allowed by the caller's grammar. */
        private Comparison operator(boolean ordered) {
            char c = peek();
            char d = at + 1 < s.length() ? s.charAt(at + 1) : 0;
            Comparison op;
            if (c == '!' && d == '=') {
                op = Comparison.NE;
            } else if (c == '>' && d == '=') {
                op = Comparison.GE;
            } else if (c == '<' && d == '=') {
                op = Comparison.LE;
            } else if (c == '=') {
                op = Comparison.EQ;
            } else if (c == '>') {
                op = Comparison.GT;
            } else if (c == '<') {
                op = Comparison.LT;
            } else {
                throw error("expected an operator (=, !=, >=, <=, >, <)");
            }
            if (!ordered && op != Comparison.EQ && op != Comparison.NE) {
                throw error("targets take = or !=");
            }
            at += op.toString().length();
            blanks();
            return op;
        }

        private String quoted() {
            blanks();
            expect('"');
            int end = s.indexOf('"', at);
            if (end < 0) {
                throw error("a quoted value is not closed");
            }
            String v = s.substring(at, end);
            at = end + 1;
            return v;
        }

        private boolean nextWordIs(String w) {
            blanks();
            int save = at;
            if (word().equalsIgnoreCase(w)) {
                return true;
            }
            at = save;
            return false;
        }

        private String word() {
            int start = at;
            while (at < s.length() && (Character.isLetterOrDigit(s.charAt(at)) || s.charAt(at) == '.'
                    || s.charAt(at) == '-')) {
                at++;
            }
            return s.substring(start, at);
        }

        private void blanks() {
            while (at < s.length() && Character.isWhitespace(s.charAt(at))) {
                at++;
            }
        }

        private char peek() {
            return at < s.length() ? s.charAt(at) : 0;
        }

        private void expect(char c) {
            if (peek() != c) {
                throw error("expected '" + c + "'" + (at < s.length() ? " at '" + s.charAt(at) + "'" : " at the end"));
            }
            at++;
        }

        private IllegalArgumentException error(String message) {
            return new IllegalArgumentException(message + " (at character " + (at + 1) + ")");
        }
    }
}
