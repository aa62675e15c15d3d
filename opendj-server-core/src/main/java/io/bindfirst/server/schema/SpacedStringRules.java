package io.bindfirst.server.schema;

import java.text.Normalizer;
import java.util.Collection;
import java.util.List;

import org.forgerock.opendj.ldap.Assertion;
import org.forgerock.opendj.ldap.ByteSequence;
import org.forgerock.opendj.ldap.ByteString;
import org.forgerock.opendj.ldap.ConditionResult;
import org.forgerock.opendj.ldap.DecodeException;
import org.forgerock.opendj.ldap.schema.MatchingRule;
import org.forgerock.opendj.ldap.schema.MatchingRuleImpl;
import org.forgerock.opendj.ldap.schema.Schema;
import org.forgerock.opendj.ldap.schema.SchemaBuilder;
import org.forgerock.opendj.ldap.spi.IndexQueryFactory;
import org.forgerock.opendj.ldap.spi.Indexer;
import org.forgerock.opendj.ldap.spi.IndexingOptions;

/**
 * caseIgnoreMatch, caseExactMatch and their ordering rules with RFC 4518 2.6.1's space handling. The SDK
 * folds a run of inner spaces into one only in values that are all ASCII: {@code "São  Paulo"} normalized to
 * {@code "são  paulo"}, so {@code (l=São  Paulo)} missed {@code l: São Paulo} (slapd finds it). These rules
 * take the SDK's normalized form and fold the runs it left; the ordering rules also compose it (below). The
 * equality indexes and DN keys normalize through the schema, so they agree with the filters.
 */
final class SpacedStringRules {
    private static final List<String> EQUALITY = List.of("2.5.13.2", "2.5.13.5");
    private static final List<String> ORDERING = List.of("2.5.13.3", "2.5.13.6");

    private SpacedStringRules() {
    }

    /** Replaces the four rules of {@code core} in {@code builder}. */
    static void replace(SchemaBuilder builder, Schema core) {
        for (String oid : EQUALITY) {
            MatchingRule sdk = core.getMatchingRule(oid);
            builder.buildMatchingRule(sdk).implementation(new Impl(sdk, false)).addToSchemaOverwrite();
        }
        for (String oid : ORDERING) {
            MatchingRule sdk = core.getMatchingRule(oid);
            builder.buildMatchingRule(sdk).implementation(new Impl(sdk, true)).addToSchemaOverwrite();
        }
    }

    /** {@code normalized} with every run of spaces made one (the SDK already trimmed the ends). */
    static ByteString fold(ByteString normalized) {
        int length = normalized.length();
        int first = -1;
        for (int i = 1; i < length && first < 0; i++) {
            if (normalized.byteAt(i) == ' ' && normalized.byteAt(i - 1) == ' ') {
                first = i;
            }
        }
        if (first < 0) {
            return normalized; // the usual case (DNs on the bind path): nothing copied
        }
        byte[] bytes = normalized.toByteArray();
        int n = first;
        for (int i = first; i < length; i++) {
            if (bytes[i] != ' ' || bytes[n - 1] != ' ') {
                bytes[n++] = bytes[i];
            }
        }
        return ByteString.wrap(bytes, 0, n);
    }

    private static final class Impl implements MatchingRuleImpl {
        private final MatchingRule sdk;
        private final boolean ordering;

        Impl(MatchingRule sdk, boolean ordering) {
            this.sdk = sdk;
            this.ordering = ordering;
        }

        @Override
        public ByteString normalizeAttributeValue(Schema schema, ByteSequence value) throws DecodeException {
            ByteString folded = fold(sdk.normalizeAttributeValue(value));
            // Ordering compares code points of the prepared (NFKC, RFC 4518 2.3) strings; the SDK leaves
            // them decomposed, which put "Ångström" before "Müller". UTF-8 bytes sort in code point order.
            return ordering ? ByteString.valueOfUtf8(Normalizer.normalize(folded.toString(), Normalizer.Form.NFC))
                    : folded;
        }

        @Override
        public Assertion getAssertion(Schema schema, ByteSequence value) throws DecodeException {
            ByteString key = normalizeAttributeValue(schema, value);
            // An ordering rule asserts "sorts before" (RFC 4517 4.2.3); an equality rule "equals".
            return compared(sdk.getAssertion(value), c -> ordering ? c < 0 : c == 0, key);
        }

        @Override
        public Assertion getGreaterOrEqualAssertion(Schema schema, ByteSequence value) throws DecodeException {
            return compared(sdk.getGreaterOrEqualAssertion(value), c -> c >= 0, normalizeAttributeValue(schema, value));
        }

        @Override
        public Assertion getLessOrEqualAssertion(Schema schema, ByteSequence value) throws DecodeException {
            return compared(sdk.getLessOrEqualAssertion(value), c -> c <= 0, normalizeAttributeValue(schema, value));
        }

        @Override
        public Assertion getSubstringAssertion(Schema schema, ByteSequence subInitial,
                List<? extends ByteSequence> subAnyElements, ByteSequence subFinal) throws DecodeException {
            return sdk.getSubstringAssertion(subInitial, subAnyElements, subFinal);
        }

        @Override
        public Collection<? extends Indexer> createIndexers(IndexingOptions options) {
            return sdk.createIndexers(options);
        }
    }

    private interface Comparison {
        boolean holds(int compared);
    }

    /** Compares the normalized value with {@code key}; index queries are the SDK assertion's. */
    private static Assertion compared(Assertion sdkAssertion, Comparison comparison, ByteString key) {
        return new Assertion() {
            @Override
            public ConditionResult matches(ByteSequence normalizedAttributeValue) {
                return ConditionResult.valueOf(comparison.holds(normalizedAttributeValue.compareTo(key)));
            }

            @Override
            public <T> T createIndexQuery(IndexQueryFactory<T> factory) throws DecodeException {
                return sdkAssertion.createIndexQuery(factory);
            }
        };
    }
}
