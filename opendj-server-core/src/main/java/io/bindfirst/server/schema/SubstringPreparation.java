package io.bindfirst.server.schema;

import java.text.Normalizer;

import org.forgerock.opendj.ldap.ByteString;
import org.forgerock.opendj.ldap.DecodeException;
import org.forgerock.opendj.ldap.schema.AttributeType;
import org.forgerock.opendj.ldap.schema.MatchingRule;

/**
 * Strings prepared for substrings matching as RFC 4518 says, shared by the filter evaluation and the
 * substring indexes (which must never miss what the evaluation matches). The SDK's substring rules give
 * the case folding and mapping; on top of that, text is composed (NFKC, RFC 4518 2.3: the SDK leaves it
 * decomposed, where a base letter could match part of an accented one) and spaced as RFC 4518 2.6.1 does:
 * a value starts and ends with one space and its inner runs of spaces are two, so each assertion
 * component may hold one space at an edge.
 */
public final class SubstringPreparation {
    private SubstringPreparation() {
    }

    /**
     * Whether the type (or a superior) names a rule of this kind ({@code EQUALITY}, {@code ORDERING},
     * {@code SUBSTR}, {@code APPROX}) in its definition: the SDK fills missing rules from the syntax, which
     * RFC 4511 4.5.1.7 does not allow a filter to use.
     */
    public static boolean declares(AttributeType type, String keyword) {
        for (AttributeType t = type; t != null; t = t.getSuperiorType()) {
            if (t.toString().contains(" " + keyword + " ")) {
                return true;
            }
        }
        return false;
    }

    /** Whether the rule keeps inner spaces (caseIgnore does; telephoneNumber drops them all). */
    public static boolean significantSpaces(MatchingRule rule) {
        try {
            return rule.normalizeAttributeValue(ByteString.valueOfUtf8("a b")).toString().indexOf(' ') >= 0;
        } catch (DecodeException e) {
            return false;
        }
    }

    /** An attribute value: {@code " a  b "} for {@code "A b"} under caseIgnoreSubstringsMatch. */
    public static String value(MatchingRule rule, boolean spaces, ByteString value) throws DecodeException {
        String words = words(rule, value);
        if (!spaces) {
            return words;
        }
        return words.isEmpty() ? "  " : " " + words + " ";
    }

    /**
     * One component of a substrings assertion: only spaces, one space; else an initial component starts with
     * one space, a final one ends with one, and an edge where the component has spaces gets one.
     */
    public static String component(MatchingRule rule, boolean spaces, ByteString part, boolean initial,
            boolean fin) throws DecodeException {
        String core = words(rule, part);
        if (!spaces) {
            return core;
        }
        if (core.isEmpty()) {
            return " ";
        }
        String raw = part.toString();
        boolean leading = initial || raw.startsWith(" ");
        boolean trailing = fin || raw.endsWith(" ");
        return (leading ? " " : "") + core + (trailing ? " " : "");
    }

    private static String words(MatchingRule rule, ByteString value) throws DecodeException {
        String normalized = rule.normalizeAttributeValue(value).toString().strip();
        return Normalizer.normalize(normalized.replaceAll(" +", "  "), Normalizer.Form.NFC);
    }
}
