package io.bindfirst.server.pwd;

import org.forgerock.opendj.ldap.ByteSequence;

/**
 * One way of storing a password in {@code userPassword}: a value {@code {NAME}encoded}, where this
 * scheme produces and checks the {@code encoded} part.
 *
 * <p>Implementations are immutable and thread-safe: the bind path calls {@link #matches} from many
 * worker threads at once. They never log, and never put a clear password (or anything derived from
 * it) into an exception message or {@code toString()}.
 */
public interface PasswordStorageScheme {

    /**
     * The scheme name as it appears between the braces, in its canonical upper-case spelling
     * (e.g. {@code "SSHA"}). Stored values are matched against it case-insensitively.
     */
    String name();

    /**
     * Whether this scheme is too weak to store new passwords (an unsalted or fast digest, or a format that
     * ignores part of the password): it is there only to verify values migrated from another server, and
     * {@link PasswordSchemes} refuses it as the default scheme.
     */
    default boolean isWeak() {
        return false;
    }

    /**
     * Encodes a clear password with fresh random salt.
     *
     * @param clear the clear password, not empty
     * @return the part of the stored value that follows {@code {NAME}}
     * @throws IllegalArgumentException if {@code clear} is empty, or cannot be encoded by this scheme
     *         (the message never contains the password)
     * @throws NullPointerException if {@code clear} is {@code null}
     */
    String encodeValue(ByteSequence clear);

    /**
     * Whether {@code clear} is the password that {@code encodedValue} was encoded from.
     *
     * <p>Never throws: a {@code null}, empty or malformed argument (bad base64, wrong lengths, bad
     * parameters) simply does not match.
     *
     * @param clear the password the client presented
     * @param encodedValue the part of the stored value that follows {@code {NAME}}
     */
    boolean matches(ByteSequence clear, String encodedValue);

    /**
     * {@link #matches(ByteSequence, String)}, calling {@code pacer} every fraction of a millisecond of work
     * if the check is long (an expensive key derivation), so that it can give way to cheap work.
     */
    default boolean matches(ByteSequence clear, String encodedValue, Pacer pacer) {
        return matches(clear, encodedValue);
    }

    /**
     * {@link #matches(ByteSequence, String, Pacer)} with the encoded value given as the bytes of
     * {@code storedValue} from {@code from} to its end (the part after {@code {NAME}}): the bind path's form.
     * A scheme checked on every bind overrides it to read those bytes where they are; by default they are
     * made into a String.
     */
    default boolean matches(ByteSequence clear, ByteSequence storedValue, int from, Pacer pacer) {
        return matches(clear, storedValue.subSequence(from, storedValue.length()).toString(), pacer);
    }

    /**
     * How costly checking a password against {@code encodedValue} is, in PBKDF2-HMAC-SHA256 iterations or
     * their equivalent (a salted SHA-2 hash is 1). Used to send expensive checks to the slow lane.
     */
    default long workFactor(String encodedValue) {
        return 1;
    }

    /**
     * Whether {@link #workFactor} is 1 whatever the value (a digest without a cost parameter): then it is not
     * asked, and the bind path makes no String of the stored value for it.
     */
    default boolean costsOneHash() {
        return false;
    }

    /**
     * This scheme encoding new values at {@code costs}: itself for a scheme without a cost. Only the default
     * scheme is asked, once, at start; stored values are checked at the cost they carry.
     */
    default PasswordStorageScheme withCosts(SchemeCosts costs) {
        return this;
    }
}
