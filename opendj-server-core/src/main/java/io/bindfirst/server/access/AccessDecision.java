package io.bindfirst.server.access;

/**
 * What an {@link AccessPolicy} answers: allowed, or refused with a message for the client. Immutable; the
 * allowed answer is the one {@link #ALLOW} instance, so the common path allocates nothing.
 *
 * @param allowed whether the request may go on
 * @param message why not, in words fit for a client (never a value of the entry); {@code null} when allowed
 */
public record AccessDecision(boolean allowed, String message) {
    /** Allowed. */
    public static final AccessDecision ALLOW = new AccessDecision(true, null);

    public AccessDecision {
        if (allowed != (message == null)) {
            throw new IllegalArgumentException("a refusal, and only a refusal, has a message");
        }
    }

    /** Refused, for the reason {@code message}. */
    public static AccessDecision deny(String message) {
        return new AccessDecision(false, message);
    }
}
