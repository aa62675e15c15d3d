package io.bindfirst.server.filter;

import static io.bindfirst.server.schema.SubstringPreparation.declares;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import org.forgerock.i18n.LocalizableMessageBuilder;
import org.forgerock.i18n.LocalizedIllegalArgumentException;
import org.forgerock.opendj.ldap.AVA;
import org.forgerock.opendj.ldap.Assertion;
import org.forgerock.opendj.ldap.Attribute;
import org.forgerock.opendj.ldap.AttributeDescription;
import org.forgerock.opendj.ldap.ByteString;
import org.forgerock.opendj.ldap.ConditionResult;
import org.forgerock.opendj.ldap.DecodeException;
import org.forgerock.opendj.ldap.Entry;
import org.forgerock.opendj.ldap.Filter;
import org.forgerock.opendj.ldap.FilterVisitor;
import org.forgerock.opendj.ldap.RDN;
import org.forgerock.opendj.ldap.schema.AttributeType;
import org.forgerock.opendj.ldap.schema.MatchingRule;
import org.forgerock.opendj.ldap.schema.MatchingRuleUse;
import org.forgerock.opendj.ldap.schema.Schema;

import io.bindfirst.server.schema.SubstringPreparation;

/**
 * Evaluates a search filter against an entry as RFC 4511 4.5.1.7 says, in three values (TRUE, FALSE,
 * Undefined). It replaces the SDK's {@code Matcher}, which a comparison with OpenLDAP's slapd
 * (SearchDifferentialTest, docs/SEARCH-CONFORMANCE.md) showed wrong in these ways, each fixed here:
 * <ul>
 * <li>a filter on an attribute type ignored its subtypes ({@code (name=paris)} did not match {@code l: Paris});</li>
 * <li>an extensible match ignored {@code :dn:} (the entry's DN components);</li>
 * <li>ordering and substrings filters on a type that declares no such rule used the syntax's rule; RFC 4511
 * says such an item is Undefined, and an approximate filter on a type without an approximate rule is an
 * equality filter;</li>
 * <li>an extensible match with an ordering rule matched nothing, and one with a rule not valid for the
 * attribute's syntax was evaluated (RFC 4511 4.5.1.7: Undefined);</li>
 * <li>substrings were matched on decomposed (NFKD) text, so {@code *a*} matched {@code Å}; RFC 4518 prepares
 * strings to NFKC; and the leading spaces of an initial component and the trailing ones of a final component,
 * insignificant under RFC 4518 2.6.1, were kept;</li>
 * <li>a generalized time ending in a lower-case {@code z}, which RFC 4517 3.3.13 does not allow, was accepted.</li>
 * </ul>
 */
public final class FilterMatcher {
    private static final String GENERALIZED_TIME = "1.3.6.1.4.1.1466.115.121.1.24";
    private static final String DIRECTORY_STRING = "1.3.6.1.4.1.1466.115.121.1.15";
    /** Printable String, Country String, Telephone Number. */
    private static final Set<String> DIRECTORY_STRING_ALTERNATIVES = Set.of(
            "1.3.6.1.4.1.1466.115.121.1.44", "1.3.6.1.4.1.1466.115.121.1.11", "1.3.6.1.4.1.1466.115.121.1.50");

    private interface Node {
        ConditionResult eval(Entry entry);
    }

    private final Schema schema;
    private final Node root;

    public FilterMatcher(Filter filter, Schema schema) {
        this.schema = schema.asNonStrictSchema();
        this.root = filter.accept(compiler, null);
    }

    public ConditionResult matches(Entry entry) {
        return root.eval(entry);
    }

    /** The filter's attribute description, or {@code null} if this schema does not know its type. */
    private AttributeDescription describe(String attribute) {
        try {
            AttributeDescription d = AttributeDescription.valueOf(attribute, schema);
            return d.getAttributeType().isPlaceHolder() ? null : d;
        } catch (LocalizedIllegalArgumentException e) {
            return null;
        }
    }

    private static boolean acceptable(AttributeType type, ByteString value) {
        if (GENERALIZED_TIME.equals(type.getSyntax().getOID()) && value.toString().indexOf('z') >= 0) {
            return false;
        }
        return type.getSyntax().valueIsAcceptable(value, new LocalizableMessageBuilder());
    }

    /** TRUE if any value of the description or its subtypes makes {@code test} TRUE, else Undefined if any did. */
    private static ConditionResult anyValue(Entry entry, AttributeDescription description, ValueTest test) {
        ConditionResult result = ConditionResult.FALSE;
        for (Attribute attribute : entry.getAllAttributes()) {
            if (!attribute.getAttributeDescription().isSubTypeOf(description)) {
                continue;
            }
            for (ByteString value : attribute) {
                ConditionResult r = test.eval(value);
                if (r == ConditionResult.TRUE) {
                    return r;
                }
                if (r == ConditionResult.UNDEFINED) {
                    result = r;
                }
            }
        }
        return result;
    }

    private interface ValueTest {
        ConditionResult eval(ByteString value);
    }

    /** A test of values by {@code rule}'s assertion; a value the rule cannot normalize is Undefined. */
    private static ValueTest byAssertion(MatchingRule rule, Assertion assertion) {
        return value -> {
            try {
                return assertion.matches(rule.normalizeAttributeValue(value));
            } catch (DecodeException | IllegalArgumentException | IndexOutOfBoundsException e) {
                return ConditionResult.UNDEFINED;
            }
        };
    }

    /**
     * Undefined (RFC 4511 4.5.1.7): also what a filter value or stored value the rule cannot parse evaluates to. The
     * SDK's rules (5.0.3) report some unparsable values with unchecked exceptions rather than a DecodeException (a
     * generalized time whose fraction overflows: IllegalArgumentException from the calendar; a substring assertion
     * with a malformed backslash escape: StringIndexOutOfBoundsException), so every catch here takes those too:
     * without it such a filter failed the search with "other" and a stack trace in the log. Found by fuzzing.
     */
    private static Node undefined() {
        return e -> ConditionResult.UNDEFINED;
    }

    private Node equality(String attribute, ByteString value) {
        AttributeDescription d = describe(attribute);
        MatchingRule rule = d == null ? null : d.getAttributeType().getEqualityMatchingRule();
        // The SDK gives a type that declares no EQUALITY rule (jpegPhoto) its syntax's; RFC 4511 4.5.1.7 makes
        // the filter Undefined, so that its NOT is Undefined too, not TRUE (slapd).
        if (rule == null || !declares(d.getAttributeType(), "EQUALITY") || !acceptable(d.getAttributeType(), value)) {
            return undefined();
        }
        try {
            ValueTest test = byAssertion(rule, rule.getAssertion(value));
            return e -> anyValue(e, d, test);
        } catch (DecodeException | IllegalArgumentException | IndexOutOfBoundsException e) {
            return undefined();
        }
    }

    private Node ordering(String attribute, ByteString value, boolean greater) {
        AttributeDescription d = describe(attribute);
        if (d == null || !declares(d.getAttributeType(), "ORDERING") || !acceptable(d.getAttributeType(), value)) {
            return undefined();
        }
        MatchingRule rule = d.getAttributeType().getOrderingMatchingRule();
        try {
            ValueTest test = byAssertion(rule, greater ? rule.getGreaterOrEqualAssertion(value)
                    : rule.getLessOrEqualAssertion(value));
            return e -> anyValue(e, d, test);
        } catch (DecodeException | IllegalArgumentException | IndexOutOfBoundsException e) {
            return undefined();
        }
    }

    private Node substrings(String attribute, ByteString initial, List<ByteString> any, ByteString fin) {
        AttributeDescription d = describe(attribute);
        if (d == null || !declares(d.getAttributeType(), "SUBSTR")) {
            return undefined();
        }
        MatchingRule rule = d.getAttributeType().getSubstringMatchingRule();
        try {
            boolean spaces = SubstringPreparation.significantSpaces(rule);
            String first = initial == null ? "" : SubstringPreparation.component(rule, spaces, initial, true, false);
            List<String> middle = new ArrayList<>();
            for (ByteString part : any) {
                middle.add(SubstringPreparation.component(rule, spaces, part, false, false));
            }
            String last = fin == null ? "" : SubstringPreparation.component(rule, spaces, fin, false, true);
            return e -> anyValue(e, d, value -> {
                try {
                    String prepared = SubstringPreparation.value(rule, spaces, value);
                    return ConditionResult.valueOf(substringsMatch(prepared, first, middle, last));
                } catch (DecodeException | IllegalArgumentException | IndexOutOfBoundsException x) {
                    return ConditionResult.UNDEFINED;
                }
            });
        } catch (DecodeException | IllegalArgumentException | IndexOutOfBoundsException e) {
            return undefined();
        }
    }

    private static boolean substringsMatch(String value, String initial, List<String> any, String fin) {
        if (!value.startsWith(initial)) {
            return false;
        }
        int from = initial.length();
        for (String part : any) {
            int at = value.indexOf(part, from);
            if (at < 0) {
                return false;
            }
            from = at + part.length();
        }
        return value.length() - fin.length() >= from && value.endsWith(fin);
    }

    private Node approximate(String attribute, ByteString value) {
        AttributeDescription d = describe(attribute);
        if (d == null || !declares(d.getAttributeType(), "APPROX")) {
            return equality(attribute, value); // RFC 4511 4.5.1.7.6: no approximate rule, so equality
        }
        MatchingRule rule = d.getAttributeType().getApproximateMatchingRule();
        try {
            ValueTest test = byAssertion(rule, rule.getAssertion(value));
            return e -> anyValue(e, d, test);
        } catch (DecodeException | IllegalArgumentException | IndexOutOfBoundsException e) {
            return undefined();
        }
    }

    private Node extensible(String ruleName, String attribute, ByteString value, boolean dnAttributes) {
        AttributeDescription d = attribute == null ? null : describe(attribute);
        if (attribute != null && d == null) {
            return undefined();
        }
        MatchingRule rule;
        try {
            rule = ruleName != null ? schema.getMatchingRule(ruleName) : d.getAttributeType().getEqualityMatchingRule();
        } catch (LocalizedIllegalArgumentException unknown) {
            return undefined();
        }
        if (rule == null || (d != null && ruleName != null && !applies(rule, d.getAttributeType()))) {
            return undefined(); // RFC 4511 4.5.1.7: a rule "not valid for the attribute type" is Undefined
        }
        Assertion assertion;
        try {
            assertion = rule.getAssertion(value);
        } catch (DecodeException | IllegalArgumentException | IndexOutOfBoundsException e) {
            return undefined();
        }
        ValueTest test = byAssertion(rule, assertion);
        return entry -> {
            ConditionResult result = ConditionResult.FALSE;
            for (Attribute a : entry.getAllAttributes()) {
                AttributeDescription ad = a.getAttributeDescription();
                if (d != null ? ad.isSubTypeOf(d) : applies(rule, ad.getAttributeType())) {
                    for (ByteString v : a) {
                        result = ConditionResult.or(result, test.eval(v));
                    }
                }
            }
            if (dnAttributes && result != ConditionResult.TRUE) {
                for (RDN rdn : entry.getName()) {
                    for (AVA ava : rdn) {
                        AttributeType type = ava.getAttributeType();
                        if (d != null ? type.isSubTypeOf(d.getAttributeType()) : applies(rule, type)) {
                            result = ConditionResult.or(result, test.eval(ava.getAttributeValue()));
                        }
                    }
                }
            }
            return result;
        };
    }

    /**
     * Whether {@code rule} applies to values of {@code type}: it is one of the type's own rules, or its matching
     * rule use lists the type, or the syntaxes agree; a rule on Directory String values also takes the string
     * types RFC 4517 4.2.3 names as alternatives (Printable String, Country String, Telephone Number).
     */
    private boolean applies(MatchingRule rule, AttributeType type) {
        // The type's own rules count only where declared: the SDK fills the others from the syntax.
        if (rule.equals(type.getEqualityMatchingRule())
                || (declares(type, "ORDERING") && rule.equals(type.getOrderingMatchingRule()))
                || (declares(type, "SUBSTR") && rule.equals(type.getSubstringMatchingRule()))) {
            return true;
        }
        try {
            MatchingRuleUse use = schema.getMatchingRuleUse(rule);
            if (use != null && use.hasAttribute(type)) {
                return true;
            }
        } catch (LocalizedIllegalArgumentException none) {
            // no use defined: the syntax decides
        }
        String ruleSyntax = rule.getSyntax().getOID();
        String typeSyntax = type.getSyntax().getOID();
        return ruleSyntax.equals(typeSyntax)
                || (DIRECTORY_STRING.equals(ruleSyntax) && DIRECTORY_STRING_ALTERNATIVES.contains(typeSyntax));
    }

    private final FilterVisitor<Node, Void> compiler = new FilterVisitor<>() {
        @Override
        public Node visitAndFilter(Void p, List<Filter> components) {
            List<Node> parts = components.stream().map(c -> c.accept(this, null)).toList();
            return e -> {
                ConditionResult r = ConditionResult.TRUE;
                for (Node n : parts) {
                    r = ConditionResult.and(r, n.eval(e));
                    if (r == ConditionResult.FALSE) {
                        return r;
                    }
                }
                return r;
            };
        }

        @Override
        public Node visitOrFilter(Void p, List<Filter> components) {
            List<Node> parts = components.stream().map(c -> c.accept(this, null)).toList();
            return e -> {
                ConditionResult r = ConditionResult.FALSE;
                for (Node n : parts) {
                    r = ConditionResult.or(r, n.eval(e));
                    if (r == ConditionResult.TRUE) {
                        return r;
                    }
                }
                return r;
            };
        }

        @Override
        public Node visitNotFilter(Void p, Filter subFilter) {
            Node inner = subFilter.accept(this, null);
            return e -> ConditionResult.not(inner.eval(e));
        }

        @Override
        public Node visitPresentFilter(Void p, String attribute) {
            AttributeDescription d = describe(attribute);
            if (d == null) {
                return undefined();
            }
            return e -> anyValue(e, d, v -> ConditionResult.TRUE);
        }

        @Override
        public Node visitEqualityMatchFilter(Void p, String attribute, ByteString value) {
            return equality(attribute, value);
        }

        @Override
        public Node visitGreaterOrEqualFilter(Void p, String attribute, ByteString value) {
            return ordering(attribute, value, true);
        }

        @Override
        public Node visitLessOrEqualFilter(Void p, String attribute, ByteString value) {
            return ordering(attribute, value, false);
        }

        @Override
        public Node visitSubstringsFilter(Void p, String attribute, ByteString initial, List<ByteString> any,
                ByteString fin) {
            return substrings(attribute, initial, any, fin);
        }

        @Override
        public Node visitApproxMatchFilter(Void p, String attribute, ByteString value) {
            return approximate(attribute, value);
        }

        @Override
        public Node visitExtensibleMatchFilter(Void p, String rule, String attribute, ByteString value,
                boolean dnAttributes) {
            return extensible(rule, attribute, value, dnAttributes);
        }

        @Override
        public Node visitUnrecognizedFilter(Void p, byte tag, ByteString value) {
            return undefined();
        }
    };
}
