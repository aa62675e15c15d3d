package io.bindfirst.server.pwd;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;

import org.forgerock.i18n.LocalizedIllegalArgumentException;
import org.forgerock.opendj.ldap.Attribute;
import org.forgerock.opendj.ldap.AttributeDescription;
import org.forgerock.opendj.ldap.ByteSequence;
import org.forgerock.opendj.ldap.ByteString;
import org.forgerock.opendj.ldap.Entry;
import org.forgerock.opendj.ldap.Filter;
import org.forgerock.opendj.ldap.FilterVisitor;
import org.forgerock.opendj.ldap.schema.AttributeType;
import org.forgerock.opendj.ldap.schema.Schema;

import io.bindfirst.server.schema.FilterAttributeNames;

/**
 * The password attribute, {@code userPassword} (RFC 4519): the one place the server recognizes it, reads
 * it from entries and checks a presented password against it. Built once at start from the server schema
 * and the storage schemes; immutable and thread-safe. It holds the attribute type and description, so the
 * bind path looks nothing up.
 *
 * <p>The attribute is recognized by its type, not its spelling: any name of the type in the schema, its
 * OID, and a description with options all count; a placeholder type (a name the schema does not know)
 * counts only if it carries one of the type's names.
 *
 * <p>Timing: {@link #anyMatches} checks the presented password against <em>every</em> stored value, with
 * no early exit, so the time a check takes does not tell which value matched, nor whether one did before
 * the last; it depends only on the stored values (their schemes and work factors). Nothing here logs the
 * presented password or puts it into an exception or a message.
 *
 * <p>With the {@link VerifiedCredentials} cache on, a check against an entry that has a costly stored value
 * (work factor above 1) first computes one HMAC of the presented password and looks up every costly value's
 * record, again without an early exit. A hit (the password was proven against one of those values before)
 * answers yes with no derivation at all; a miss runs the full check above and records each costly value that
 * matched. So the time now also tells whether this exact password succeeded for this entry before, while the
 * record lasted: that is all a fast answer reveals, and it is nothing the client does not know once it reads
 * the (successful) result, since only successes are recorded. Which value matched still does not show, and a
 * wrong password costs what it did without the cache.
 */
public final class PasswordAttribute {
    /** The OID of {@code userPassword}. */
    public static final String OID = "2.5.4.35";
    /** Its name, as messages to clients spell it. */
    public static final String NAME = "userPassword";

    private final Schema lenientSchema;
    private final AttributeType type;
    private final AttributeDescription description;
    private final PasswordSchemes schemes;
    private final VerifiedCredentials verified;

    /**
     * Without a verified-credential cache: every check runs its scheme.
     *
     * @param schema the server schema; it must define {@code userPassword}
     * @param schemes the storage schemes stored values are checked with
     */
    public PasswordAttribute(Schema schema, PasswordSchemes schemes) {
        this(schema, schemes, VerifiedCredentials.off());
    }

    /**
     * @param schema the server schema; it must define {@code userPassword}
     * @param schemes the storage schemes stored values are checked with
     * @param verified what successful costly checks of entries' passwords proved (see the class comment)
     */
    public PasswordAttribute(Schema schema, PasswordSchemes schemes, VerifiedCredentials verified) {
        if (schemes == null) {
            throw new NullPointerException("schemes");
        }
        if (verified == null) {
            throw new NullPointerException("verified");
        }
        this.description = description(schema);
        this.type = description.getAttributeType();
        this.lenientSchema = schema.asNonStrictSchema();
        this.schemes = schemes;
        this.verified = verified;
    }

    /**
     * The description of {@code userPassword} in {@code schema}, for code that reads entries before the
     * server schema exists: {@code config.ldif} is read with the SDK's default schema.
     */
    public static AttributeDescription description(Schema schema) {
        return AttributeDescription.create(schema.getAttributeType(OID));
    }

    /** The verified-credential cache the checks of entries' passwords use (perhaps off). */
    public PasswordSchemes schemes() {
        return schemes;
    }

    public VerifiedCredentials verifiedCredentials() {
        return verified;
    }

    /** The attribute type, from the server schema. */
    public AttributeType type() {
        return type;
    }

    /** The attribute description without options, from the server schema. */
    public AttributeDescription description() {
        return description;
    }

    /** Whether {@code candidate} is the password attribute's type (by OID, or by name for a placeholder). */
    public boolean isPassword(AttributeType candidate) {
        return candidate.matches(type);
    }

    /** Whether {@code candidate} describes the password attribute, with or without options. */
    public boolean isPassword(AttributeDescription candidate) {
        return isPassword(candidate.getAttributeType());
    }

    /** The entry's stored password values (the attribute without options); empty if it has none. */
    public Collection<ByteString> storedValues(Entry entry) {
        Attribute stored = entry.getAttribute(description);
        return stored == null ? List.of() : stored;
    }

    /**
     * Whether {@code clear} is the password of any of the entry's stored values, answered from the
     * {@link VerifiedCredentials} cache when it proved this password against one of the entry's costly values
     * before; see the class comment for the timing.
     */
    public boolean anyMatches(Entry entry, ByteSequence clear, Pacer pacer) {
        return matchingScheme(entry, clear, pacer) != PasswordSchemes.NO_MATCH;
    }

    /**
     * {@link #anyMatches(Entry, ByteSequence, Pacer)} saying which storage scheme matched: its number in
     * {@link PasswordSchemes#schemeLabels()} (when several values match, the last one's), or
     * {@link PasswordSchemes#NO_MATCH}. A check that asked the verified-credential cache counts there as a hit
     * or a miss.
     */
    public int matchingScheme(Entry entry, ByteSequence clear, Pacer pacer) {
        Collection<ByteString> stored = storedValues(entry);
        if (!verified.enabled() || clear == null || clear.isEmpty() || !anyCostly(stored)) {
            return matchingScheme(stored, clear, pacer);
        }
        byte[] mac = verified.mac(clear);
        ByteString dn = entry.getName().toNormalizedByteString();
        int remembered = remembered(dn, stored, mac);
        verified.answered(remembered != PasswordSchemes.NO_MATCH);
        if (remembered != PasswordSchemes.NO_MATCH) {
            return remembered;
        }
        int matched = PasswordSchemes.NO_MATCH;
        for (ByteString value : stored) {
            int scheme = schemes.matchingScheme(clear, value, pacer);
            if (scheme != PasswordSchemes.NO_MATCH && schemes.workFactor(value) > 1) {
                verified.remember(dn, value, mac);
            }
            matched = scheme == PasswordSchemes.NO_MATCH ? matched : scheme;
        }
        return matched;
    }

    /**
     * {@link #anyMatches(Entry, ByteSequence, Pacer)} where nothing costly may run (a selector thread): the answer
     * when the stored values are all one hash's work, or when the {@link VerifiedCredentials} cache proved this
     * password against a costly one; empty when only a derivation could tell. One HMAC and one look-up per costly
     * value, so a record evicted after a routing decision can never turn into a derivation on the caller's thread.
     */
    public Optional<Boolean> matchesWithoutDeriving(Entry entry, ByteSequence clear) {
        int scheme = matchingSchemeWithoutDeriving(entry, clear);
        return scheme == UNDECIDED ? Optional.empty() : Optional.of(scheme != PasswordSchemes.NO_MATCH);
    }

    /**
     * {@link #matchesWithoutDeriving} as a number, which the bind path records without allocating: the matching
     * scheme's (as {@link #matchingScheme(Entry, ByteSequence, Pacer)} answers), {@link PasswordSchemes#NO_MATCH},
     * or {@link #UNDECIDED} when only a derivation could tell. An answer from the verified-credential cache counts
     * as its hit; undecided counts nothing, since the check that follows elsewhere asks the cache again.
     */
    public int matchingSchemeWithoutDeriving(Entry entry, ByteSequence clear) {
        Collection<ByteString> stored = storedValues(entry);
        if (!anyCostly(stored)) {
            return matchingScheme(stored, clear, Pacer.NONE);
        }
        if (!verified.enabled() || clear == null || clear.isEmpty()) {
            return UNDECIDED;
        }
        int remembered = remembered(entry.getName().toNormalizedByteString(), stored, verified.mac(clear));
        if (remembered == PasswordSchemes.NO_MATCH) {
            return UNDECIDED;
        }
        verified.answered(true);
        return remembered;
    }

    /** What {@link #matchingSchemeWithoutDeriving} answers when only a derivation could tell. */
    public static final int UNDECIDED = -2;

    /**
     * The cost of checking {@code clear} against the entry's stored values with {@link #anyMatches(Entry,
     * ByteSequence, Pacer)}, in PBKDF2 iterations or their equivalent: 1 when the {@link VerifiedCredentials}
     * cache holds this password for one of the entry's costly values (one HMAC then answers), the
     * {@linkplain #highestWorkFactor highest work factor} otherwise. For deciding where a bind runs: a wrong
     * password never finds a record, so it is as costly as ever. Costs one HMAC when the entry has a costly
     * value and the cache is on.
     */
    public long workFactor(Entry entry, ByteSequence clear) {
        long highest = highestWorkFactor(entry);
        if (highest <= 1 || !verified.enabled() || clear == null || clear.isEmpty()) {
            return highest;
        }
        return remembered(entry.getName().toNormalizedByteString(), storedValues(entry), verified.mac(clear))
                != PasswordSchemes.NO_MATCH ? 1 : highest;
    }

    /**
     * The scheme of a costly value of {@code stored} that has a record for {@code mac} (the last one's), or
     * {@link PasswordSchemes#NO_MATCH}; looks every one up (no early exit).
     */
    private int remembered(ByteString dn, Collection<ByteString> stored, byte[] mac) {
        int found = PasswordSchemes.NO_MATCH;
        for (ByteString value : stored) {
            if (schemes.workFactor(value) > 1 && verified.holds(dn, value, mac)) {
                found = schemes.schemeOf(value);
            }
        }
        return found;
    }

    private boolean anyCostly(Collection<ByteString> stored) {
        ByteString only = onlyValue(stored);
        if (only != null) {
            return schemes.workFactor(only) > 1;
        }
        for (ByteString value : stored) {
            if (schemes.workFactor(value) > 1) {
                return true;
            }
        }
        return false;
    }

    /**
     * Whether {@code clear} is the password of any of {@code stored}, each checked with its storage scheme.
     * Every value is checked, even after one matched (see the class comment). A malformed value, or one of
     * an unknown scheme, matches nothing and does not stop the others from being checked.
     */
    public boolean anyMatches(Iterable<ByteString> stored, ByteSequence clear, Pacer pacer) {
        return matchingScheme(stored, clear, pacer) != PasswordSchemes.NO_MATCH;
    }

    /**
     * {@link #anyMatches(Iterable, ByteSequence, Pacer)} saying which scheme matched (the last matching value's
     * number in {@link PasswordSchemes#schemeLabels()}), or {@link PasswordSchemes#NO_MATCH}. Every value is
     * checked, as there.
     */
    public int matchingScheme(Iterable<ByteString> stored, ByteSequence clear, Pacer pacer) {
        ByteString only = onlyValue(stored);
        if (only != null) {
            return schemes.matchingScheme(clear, only, pacer);
        }
        int matched = PasswordSchemes.NO_MATCH;
        for (ByteString value : stored) {
            int scheme = schemes.matchingScheme(clear, value, pacer);
            matched = scheme == PasswordSchemes.NO_MATCH ? matched : scheme;
        }
        return matched;
    }

    /**
     * The value of an attribute that holds one (most accounts have one password), or null: read without an
     * iterator, which an entry's unmodifiable attributes allocate twice over on every bind.
     */
    private static ByteString onlyValue(Iterable<ByteString> stored) {
        return stored instanceof Attribute && ((Attribute) stored).size() == 1 ? ((Attribute) stored).firstValue()
                : null;
    }

    /**
     * The values among {@code stored} that {@code clear} is the password of, or that equal it byte for byte
     * (a modify deleting a password value names it in clear). Every value is checked.
     */
    public List<ByteString> storedMatching(Iterable<ByteString> stored, ByteString clear) {
        List<ByteString> out = new ArrayList<>();
        for (ByteString value : stored) {
            boolean equal = value.equals(clear);
            if (schemes.verify(clear, value) | equal) {
                out.add(value);
            }
        }
        return out;
    }

    /**
     * The highest cost of checking a password against the entry's stored values, in PBKDF2 iterations or
     * their equivalent ({@link PasswordSchemes#workFactor}); 0 if it has none. Reads no secret: the work
     * factor is in the clear part of each value.
     */
    public long highestWorkFactor(Entry entry) {
        Attribute stored = entry.getAttribute(description);
        long highest = 0;
        if (stored != null) {
            for (ByteString value : stored) {
                highest = Math.max(highest, schemes.workFactor(value));
            }
        }
        return highest;
    }

    /**
     * Whether {@code filter} may test the password attribute anywhere: an assertion on it (with or without
     * options, under any of its names or its OID) inside any AND, OR or NOT; an extensible match that names
     * no attribute, which tests all of them; a description that does not parse, or a filter type not known.
     * The doubtful cases answer yes: callers hide the attribute from such filters, and a needless hiding
     * only costs a copy of each candidate entry.
     */
    public boolean mentionedIn(Filter filter) {
        // Without an attribute (null) a component may test every attribute, the password too.
        return FilterAttributeNames.anyMatch(filter, d -> d == null || isPasswordDescription(d));
    }

    /**
     * {@code filter} for a log: each value asserted against the password attribute (and each of an extensible
     * match without an attribute, or of a filter type not known) replaced by {@value #MASK}, so that a client
     * guessing passwords through a filter leaves no password in the access log. Other filters come back as they
     * are, at the cost of one walk.
     */
    public Filter maskedForLogs(Filter filter) {
        return mentionedIn(filter) ? filter.accept(new MaskPasswordValues(), null) : filter;
    }

    /** What a logged filter shows instead of a value asserted against the password. */
    public static final String MASK = "-masked-";
    private static final ByteString MASKED = ByteString.valueOfUtf8(MASK);

    /** Rebuilds a filter with the password's asserted values masked. */
    private final class MaskPasswordValues implements FilterVisitor<Filter, Void> {
        private ByteString value(String attributeDescription, ByteString v) {
            return isPasswordDescription(attributeDescription) ? MASKED : v;
        }

        @Override
        public Filter visitAndFilter(Void p, List<Filter> subFilters) {
            return Filter.and(all(subFilters));
        }

        @Override
        public Filter visitOrFilter(Void p, List<Filter> subFilters) {
            return Filter.or(all(subFilters));
        }

        private List<Filter> all(List<Filter> subFilters) {
            List<Filter> out = new java.util.ArrayList<>(subFilters.size());
            for (Filter f : subFilters) {
                out.add(f.accept(this, null));
            }
            return out;
        }

        @Override
        public Filter visitNotFilter(Void p, Filter subFilter) {
            return Filter.not(subFilter.accept(this, p));
        }

        @Override
        public Filter visitApproxMatchFilter(Void p, String attributeDescription, ByteString assertionValue) {
            return Filter.approx(attributeDescription, value(attributeDescription, assertionValue));
        }

        @Override
        public Filter visitEqualityMatchFilter(Void p, String attributeDescription, ByteString assertionValue) {
            return Filter.equality(attributeDescription, value(attributeDescription, assertionValue));
        }

        @Override
        public Filter visitGreaterOrEqualFilter(Void p, String attributeDescription, ByteString assertionValue) {
            return Filter.greaterOrEqual(attributeDescription, value(attributeDescription, assertionValue));
        }

        @Override
        public Filter visitLessOrEqualFilter(Void p, String attributeDescription, ByteString assertionValue) {
            return Filter.lessOrEqual(attributeDescription, value(attributeDescription, assertionValue));
        }

        @Override
        public Filter visitPresentFilter(Void p, String attributeDescription) {
            return Filter.present(attributeDescription);
        }

        @Override
        public Filter visitSubstringsFilter(Void p, String attributeDescription, ByteString initialSubstring,
                                            List<ByteString> anySubstrings, ByteString finalSubstring) {
            if (!isPasswordDescription(attributeDescription)) {
                return Filter.substrings(attributeDescription, initialSubstring, anySubstrings, finalSubstring);
            }
            return Filter.substrings(attributeDescription, MASKED, List.of(), null);
        }

        @Override
        public Filter visitExtensibleMatchFilter(Void p, String matchingRule, String attributeDescription,
                                                 ByteString assertionValue, boolean dnAttributes) {
            ByteString v = attributeDescription == null ? MASKED : value(attributeDescription, assertionValue);
            return Filter.extensible(matchingRule, attributeDescription, v, dnAttributes);
        }

        @Override
        public Filter visitUnrecognizedFilter(Void p, byte filterTag, ByteString filterBytes) {
            return Filter.unrecognized(filterTag, MASKED);
        }
    }

    private boolean isPasswordDescription(String attributeDescription) {
        try {
            return isPassword(AttributeDescription.valueOf(attributeDescription, lenientSchema));
        } catch (LocalizedIllegalArgumentException e) {
            return true;
        }
    }
}
