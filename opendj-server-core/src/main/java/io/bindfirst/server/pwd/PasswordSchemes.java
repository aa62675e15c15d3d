package io.bindfirst.server.pwd;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

import org.forgerock.opendj.ldap.ByteSequence;
import org.forgerock.opendj.ldap.ByteString;
import org.forgerock.opendj.ldap.ByteStringBuilder;

/**
 * The password storage schemes the server understands, and which one it encodes new passwords with.
 * Immutable and thread-safe; {@link #verify} is on the bind path.
 *
 * <p>A stored value that starts with {@code '{'} and contains a {@code '}'} is tagged with the scheme
 * named between them (case-insensitively); if that scheme is unknown, or the name is empty, the value
 * matches nothing. Any other value is clear text, which matches only if clear text is allowed.
 */
public final class PasswordSchemes {

    /** Every scheme, in the order {@link #names()} lists them. All are immutable and shared. */
    private static final PasswordStorageScheme[] BUILT_IN = {
        SaltedShaScheme.SSHA,
        SaltedShaScheme.SSHA256,
        SaltedShaScheme.SSHA384,
        SaltedShaScheme.SSHA512,
        new Pbkdf2HmacSha256Scheme(),
        // Key-derivation schemes of other servers, read when a migration brings their values.
        OpenLdapPbkdf2Scheme.PBKDF2,
        OpenLdapPbkdf2Scheme.PBKDF2_SHA1,
        OpenLdapPbkdf2Scheme.PBKDF2_SHA256,
        OpenLdapPbkdf2Scheme.PBKDF2_SHA512,
        new Pbkdf2HmacSha512Scheme(),
        new Ds389Pbkdf2Sha256Scheme(),
        new Argon2Scheme(),
        // Digest and crypt(3) schemes of OpenLDAP and OpenDJ, read for migrations.
        PlainDigestScheme.SHA,
        PlainDigestScheme.MD5,
        SaltedShaScheme.SMD5,
        CryptScheme.CRYPT,
        CryptScheme.BCRYPT,
    };

    private static final Set<String> NAMES;
    /** What {@link #matchingScheme} answers when the password matches nothing. */
    public static final int NO_MATCH = -1;
    /**
     * The scheme of each number {@link #matchingScheme} may answer: the built-in schemes in order, then
     * {@value #CLEAR_TEXT} for a value stored in clear.
     */
    private static final List<String> SCHEME_LABELS;
    /** The label of a value stored without a scheme prefix, matched as clear text. */
    public static final String CLEAR_TEXT = "CLEAR";
    /** The names of the schemes that may be the default: not {@linkplain PasswordStorageScheme#isWeak weak}. */
    private static final Set<String> STRONG_NAMES;

    static {
        Set<String> names = new LinkedHashSet<>();
        Set<String> strong = new LinkedHashSet<>();
        for (PasswordStorageScheme scheme : BUILT_IN) {
            names.add(scheme.name());
            if (!scheme.isWeak()) {
                strong.add(scheme.name());
            }
        }
        NAMES = Collections.unmodifiableSet(names);
        STRONG_NAMES = Collections.unmodifiableSet(strong);
        List<String> labels = new ArrayList<>(names);
        labels.add(CLEAR_TEXT);
        SCHEME_LABELS = List.copyOf(labels);
    }

    private final PasswordStorageScheme defaultScheme;
    /** {@code {NAME}} of the default scheme, in ASCII. */
    private final byte[] defaultPrefix;
    private final boolean allowClearText;
    /** The default scheme at the configured costs. */
    private final PasswordStorageScheme encoder;
    private final SchemeCosts costs;

    /**
     * @param defaultSchemeName the scheme {@link #encode} uses, case-insensitive, without braces
     * @param allowClearText whether a stored value without a scheme prefix may match as clear text
     * @throws IllegalArgumentException if no scheme has that name, or if it is too weak to store new
     *         passwords (it still verifies stored values whatever the default)
     * @throws NullPointerException if {@code defaultSchemeName} is {@code null}
     */
    public PasswordSchemes(String defaultSchemeName, boolean allowClearText) {
        this(defaultSchemeName, allowClearText, SchemeCosts.DEFAULTS);
    }

    /**
     * @param costs what new values of the default scheme cost to check, if it has a cost; one value is encoded
     *        here, so that costs the scheme cannot use fail at start, not at a user's password change
     */
    public PasswordSchemes(String defaultSchemeName, boolean allowClearText, SchemeCosts costs) {
        if (defaultSchemeName == null) {
            throw new NullPointerException("defaultSchemeName");
        }
        this.defaultScheme = scheme(defaultSchemeName).orElseThrow(() -> new IllegalArgumentException(
                "Unknown password storage scheme '" + defaultSchemeName + "'; known schemes: " + NAMES));
        if (defaultScheme.isWeak()) {
            throw new IllegalArgumentException("The password storage scheme '" + defaultSchemeName
                    + "' is too weak to store new passwords (its stored values are still verified); "
                    + "schemes for new passwords: " + STRONG_NAMES);
        }
        this.defaultPrefix = ('{' + defaultScheme.name() + '}').getBytes(StandardCharsets.US_ASCII);
        this.allowClearText = allowClearText;
        this.encoder = defaultScheme.withCosts(costs);
        this.costs = costs;
        if (!costs.equals(SchemeCosts.DEFAULTS)) {
            boolean checks;
            try {
                checks = defaultScheme.matches(ByteString.valueOfUtf8("probe-password"),
                        encoder.encodeValue(ByteString.valueOfUtf8("probe-password")));
            } catch (IllegalArgumentException e) {
                checks = false; // e.g. Argon2 memory beyond a quarter of this heap
            }
            if (!checks) {
                throw new IllegalArgumentException(defaultScheme.name() + " cannot store passwords at the configured "
                        + "costs (ds-cfg-pbkdf2-iterations, ds-cfg-bcrypt-cost, ds-cfg-argon2-*): " + costs);
            }
        }
    }

    /**
     * Whether {@code clear} is the password of {@code storedValue}. Never throws: {@code null}
     * arguments, an empty presented password, an unknown scheme and malformed values do not match.
     */
    public boolean verify(ByteSequence clear, ByteSequence storedValue) {
        return verify(clear, storedValue, Pacer.NONE);
    }

    /** {@link #verify(ByteSequence, ByteSequence)}, giving way through {@code pacer} if the check is long. */
    public boolean verify(ByteSequence clear, ByteSequence storedValue, Pacer pacer) {
        return matchingScheme(clear, storedValue, pacer) != NO_MATCH;
    }

    /**
     * {@link #verify(ByteSequence, ByteSequence, Pacer)} saying which scheme matched: its number in
     * {@link #schemeLabels()}, or {@link #NO_MATCH}. A number, so the bind that records it allocates nothing.
     */
    public int matchingScheme(ByteSequence clear, ByteSequence storedValue, Pacer pacer) {
        if (clear == null || clear.isEmpty() || storedValue == null) {
            return NO_MATCH;
        }
        int close = closingBrace(storedValue);
        if (close < 0) {
            return allowClearText && clearTextMatches(clear, storedValue) ? BUILT_IN.length : NO_MATCH;
        }
        int scheme = indexOf(storedValue, 1, close);
        if (scheme < 0) {
            return NO_MATCH;
        }
        return BUILT_IN[scheme].matches(clear, storedValue, close + 1, pacer) ? scheme : NO_MATCH;
    }

    /**
     * The number in {@link #schemeLabels()} of the scheme {@code storedValue} is in, clear text included;
     * {@link #NO_MATCH} for an unknown scheme, or clear text where it is not allowed (neither can match).
     */
    public int schemeOf(ByteSequence storedValue) {
        int close = storedValue == null ? -1 : closingBrace(storedValue);
        if (close < 0) {
            return storedValue != null && allowClearText ? BUILT_IN.length : NO_MATCH;
        }
        return indexOf(storedValue, 1, close);
    }

    /**
     * What each number {@link #matchingScheme} answers names: every built-in scheme's name, in a fixed order,
     * then {@value #CLEAR_TEXT}. The same for every server in the JVM.
     */
    public static List<String> schemeLabels() {
        return SCHEME_LABELS;
    }

    /**
     * The cost of checking a password against {@code storedValue}, in PBKDF2 iterations or their
     * equivalent ({@link PasswordStorageScheme#workFactor}); 1 for clear text, unknown or malformed values.
     */
    public long workFactor(ByteSequence storedValue) {
        int close = storedValue == null ? -1 : closingBrace(storedValue);
        PasswordStorageScheme scheme = close < 0 ? null : find(storedValue, 1, close);
        return scheme == null || scheme.costsOneHash() ? 1
                : scheme.workFactor(storedValue.subSequence(close + 1, storedValue.length()).toString());
    }

    /**
     * Encodes {@code clear} with the default scheme: {@code {NAME}encodedValue}.
     *
     * @throws IllegalArgumentException if {@code clear} is empty or the scheme cannot encode it
     * @throws NullPointerException if {@code clear} is {@code null}
     */
    public ByteString encode(ByteSequence clear) {
        String value = encoder.encodeValue(clear);
        return new ByteStringBuilder(defaultPrefix.length + value.length())
                .appendBytes(defaultPrefix)
                .appendUtf8(value)
                .toByteString();
    }

    /** The name of the known scheme {@code storedValue} is in ({@code {NAME}...}), or {@code null}. */
    public String schemeName(ByteSequence storedValue) {
        int close = storedValue == null ? -1 : closingBrace(storedValue);
        PasswordStorageScheme scheme = close < 0 ? null : find(storedValue, 1, close);
        return scheme == null ? null : scheme.name();
    }

    /** Whether {@code value} starts with the {@code {NAME}} of a known scheme. */
    public boolean isEncoded(ByteSequence value) {
        if (value == null) {
            return false;
        }
        int close = closingBrace(value);
        return close >= 0 && find(value, 1, close) != null;
    }

    /** What new values of the default scheme cost. */
    public SchemeCosts costs() {
        return costs;
    }

    /** The names of every scheme this server verifies, whatever the configuration. */
    public static Set<String> knownNames() {
        return NAMES;
    }

    /** The scheme with this name (case-insensitive, without braces). */
    public Optional<PasswordStorageScheme> scheme(String name) {
        if (name != null) {
            for (PasswordStorageScheme scheme : BUILT_IN) {
                if (scheme.name().equalsIgnoreCase(name)) {
                    return Optional.of(scheme);
                }
            }
        }
        return Optional.empty();
    }

    /** The canonical names of all known schemes; unmodifiable. */
    public Set<String> names() {
        return NAMES;
    }

    /** The scheme {@link #encode} uses. */
    public PasswordStorageScheme defaultScheme() {
        return defaultScheme;
    }

    /** Whether stored values without a scheme prefix are compared as clear text. */
    public boolean allowsClearText() {
        return allowClearText;
    }

    /** The index of the {@code '}'} closing a leading {@code '{'}, or -1 if the value has no such prefix. */
    private static int closingBrace(ByteSequence value) {
        int length = value.length();
        if (length == 0 || value.byteAt(0) != '{') {
            return -1;
        }
        for (int i = 1; i < length; i++) {
            if (value.byteAt(i) == '}') {
                return i;
            }
        }
        return -1;
    }

    /** The scheme named by {@code value[from, to)}, compared ASCII-case-insensitively without copying. */
    private static PasswordStorageScheme find(ByteSequence value, int from, int to) {
        int i = indexOf(value, from, to);
        return i < 0 ? null : BUILT_IN[i];
    }

    /** The index in {@link #BUILT_IN} of the scheme named by {@code value[from, to)}, or -1. */
    private static int indexOf(ByteSequence value, int from, int to) {
        int length = to - from;
        for (int i = 0; i < BUILT_IN.length; i++) {
            String name = BUILT_IN[i].name();
            if (name.length() == length && asciiEqualsIgnoreCase(value, from, name)) {
                return i;
            }
        }
        return -1;
    }

    private static boolean asciiEqualsIgnoreCase(ByteSequence value, int from, String name) {
        for (int i = 0; i < name.length(); i++) {
            if (asciiUpper(value.byteAt(from + i)) != asciiUpper(name.charAt(i))) {
                return false;
            }
        }
        return true;
    }

    private static int asciiUpper(int c) {
        return c >= 'a' && c <= 'z' ? c - ('a' - 'A') : c;
    }

    /**
     * Constant-time comparison of the presented password with a clear-text stored one. The presented
     * password goes first: {@link ConstantTime#equals} takes time in the length of its first argument,
     * which the client knows anyway, so the stored password's length does not show either.
     */
    private static boolean clearTextMatches(ByteSequence clear, ByteSequence storedValue) {
        byte[] presented = clear.toByteArray();
        byte[] stored = storedValue.toByteArray();
        try {
            return ConstantTime.equals(presented, stored);
        } finally {
            Arrays.fill(presented, (byte) 0);
            Arrays.fill(stored, (byte) 0);
        }
    }

    @Override
    public String toString() {
        return "PasswordSchemes{default=" + defaultScheme.name() + ", allowClearText=" + allowClearText
                + ", schemes=" + NAMES + "}";
    }
}
