package io.bindfirst.server.auth;

import org.forgerock.opendj.ldap.Attribute;
import org.forgerock.opendj.ldap.AttributeDescription;
import org.forgerock.opendj.ldap.DN;
import org.forgerock.opendj.ldap.Entry;
import org.forgerock.opendj.ldap.schema.Schema;

/**
 * Who a connection is authenticated as, and what follows from the entry for its operations. Immutable:
 * a connection swaps its reference atomically, so readers on other threads (WhoAmI, searches, the
 * registry's listener that refreshes it after a modify) never see half a bind.
 *
 * @param authenticationDN the entry the client bound as, or {@code null} when anonymous
 * @param root whether that entry is a root user (server-wide limits and access rules do not apply)
 * @param sizeLimit the entry's own search size limit ({@code ds-rlim-size-limit}), or -1 for the server's
 * @param timeLimitSeconds the entry's own search time limit ({@code ds-rlim-time-limit}), or -1
 * @param mustChangePassword an administrator set the password and the policy wants its user to change it
 *        ({@code pwdReset: TRUE}): until then the connection may only change it (draft-behera 8.1.2.2)
 * @param authMethod how the client authenticated, in the words access control rules use for it
 *        ({@code authmethod}): {@link #NONE}, {@link #SIMPLE}, {@link #SSL} (SASL EXTERNAL with a certificate)
 *        or {@code "sasl "} and the mechanism
 * @param privileges the {@link Privileges} held: all for root users, those the entry names for others
 */
public record AuthenticationInfo(DN authenticationDN, boolean root, int sizeLimit, int timeLimitSeconds,
                                 boolean mustChangePassword, String authMethod, int privileges) {
    /** No authentication: anonymous. */
    public static final String NONE = "none";
    /** A simple bind with a password. */
    public static final String SIMPLE = "simple";
    /** SASL EXTERNAL: the client certificate of the TLS layer. */
    public static final String SSL = "ssl";

    /** The prefix of {@link #sasl}'s words. */
    private static final String SASL = "sasl ";

    /** The state of every new connection and of every connection whose bind failed (RFC 4513 4). */
    public static final AuthenticationInfo ANONYMOUS = new AuthenticationInfo(null, false, -1, -1);

    public AuthenticationInfo(DN authenticationDN, boolean root, int sizeLimit, int timeLimitSeconds) {
        this(authenticationDN, root, sizeLimit, timeLimitSeconds, false);
    }

    public AuthenticationInfo(DN authenticationDN, boolean root, int sizeLimit, int timeLimitSeconds,
                              boolean mustChangePassword) {
        this(authenticationDN, root, sizeLimit, timeLimitSeconds, mustChangePassword,
                authenticationDN == null ? NONE : SIMPLE, root ? Privileges.ALL : 0);
    }

    /**
     * A user bound as {@code entry}, with the per-user limits and the password state the entry carries
     * ({@link Accounts#authenticationInfo} gives the attributes).
     */
    static AuthenticationInfo user(Entry entry, UserAttributes attributes) {
        Attribute reset = entry.getAttribute(attributes.pwdReset());
        return new AuthenticationInfo(entry.getName(), false, limit(entry, attributes.sizeLimit()),
                limit(entry, attributes.timeLimit()),
                reset != null && !reset.isEmpty() && "true".equalsIgnoreCase(reset.firstValueAsString()), SIMPLE,
                Privileges.of(entry.getAttribute(attributes.privileges())));
    }

    /**
     * The attributes {@link #user} reads, resolved once against the server schema. Looked up by name, each was
     * resolved on every successful bind against the SDK's default schema, where the server's own attributes are
     * unknown: an allocation to resolve it, then a scan of the entry's attributes for the unknown type.
     */
    record UserAttributes(AttributeDescription pwdReset, AttributeDescription sizeLimit,
                          AttributeDescription timeLimit, AttributeDescription privileges) {
        static UserAttributes of(Schema schema) {
            return new UserAttributes(AttributeDescription.valueOf("pwdReset", schema),
                    AttributeDescription.valueOf("ds-rlim-size-limit", schema),
                    AttributeDescription.valueOf("ds-rlim-time-limit", schema),
                    AttributeDescription.valueOf(Privileges.ATTRIBUTE, schema));
        }
    }

    /** The {@link #authMethod()} of a SASL bind with {@code mechanism} (not EXTERNAL: that is {@link #SSL}). */
    public static String sasl(String mechanism) {
        return SASL + mechanism;
    }

    public static AuthenticationInfo rootUser(DN dn) {
        return new AuthenticationInfo(dn, true, -1, -1);
    }

    /** The same identity under a new DN, after its entry (or an ancestor) was renamed. */
    public AuthenticationInfo withDN(DN newDN) {
        return new AuthenticationInfo(newDN, root, sizeLimit, timeLimitSeconds, mustChangePassword, authMethod,
                privileges);
    }

    /** The same identity, authenticated by {@code method} (see {@link #authMethod()}). */
    public AuthenticationInfo withAuthMethod(String method) {
        return new AuthenticationInfo(authenticationDN, root, sizeLimit, timeLimitSeconds, mustChangePassword,
                method, privileges);
    }

    /** Whether it holds the {@link Privileges} bit {@code privilege}. */
    public boolean holds(int privilege) {
        return (privileges & privilege) != 0;
    }

    public boolean isAnonymous() {
        return authenticationDN == null;
    }

    /** The authorization identity as RFC 4532 WhoAmI answers it: {@code dn:...}, or empty when anonymous. */
    public String authzId() {
        return authenticationDN == null ? "" : "dn:" + authenticationDN;
    }

    private static int limit(Entry entry, AttributeDescription attribute) {
        Attribute a = entry.getAttribute(attribute);
        if (a == null || a.isEmpty()) {
            return -1;
        }
        try {
            return Math.max(0, Integer.parseInt(a.firstValueAsString().trim()));
        } catch (NumberFormatException e) {
            return -1; // the schema checks the syntax on write; an old bad value falls back to the server's
        }
    }
}
