package io.bindfirst.server.pwd;

import java.util.Arrays;
import java.util.EnumSet;
import java.util.Set;

import org.forgerock.opendj.ldap.ByteSequence;

/**
 * Schemes whose encoded value is a crypt(3) string, as OpenLDAP and OpenDJ store them:
 * <ul>
 * <li>{@link #CRYPT}, OpenLDAP's {@code {CRYPT}}: any {@link CryptFormat} — DES (13 characters),
 * {@code $1$} (MD5-crypt), {@code $5$}/{@code $6$} (SHA-256/512-crypt, with or without {@code rounds=N$})
 * and {@code $2a$}/{@code $2b$}/{@code $2y$} (bcrypt). New values are SHA-512-crypt with 5,000 rounds.</li>
 * <li>{@link #BCRYPT}, OpenDJ's {@code {BCRYPT}}: a bcrypt string. OpenDJ writes and reads {@code $2a$};
 * {@code $2b$} and {@code $2y$} are read too. New values are {@code $2b$}, cost
 * {@value CryptFormat#BCRYPT_COST}.</li>
 * </ul>
 *
 * <p>A value whose format is not one of these never matches. The libraries compute each check in one go,
 * so the {@link Pacer} is not called during it; its {@link #workFactor} still sends expensive values
 * (bcrypt) to the slow lane.
 */
public final class CryptScheme implements PasswordStorageScheme {

    /** {@code {CRYPT}}: every crypt(3) format; new values in SHA-512-crypt. */
    public static final CryptScheme CRYPT = new CryptScheme("CRYPT", EnumSet.allOf(CryptFormat.class),
            CryptFormat.SHA512);
    /** {@code {BCRYPT}}: bcrypt only. */
    public static final CryptScheme BCRYPT = new CryptScheme("BCRYPT", EnumSet.of(CryptFormat.BCRYPT),
            CryptFormat.BCRYPT);

    private final String name;
    private final Set<CryptFormat> accepted;
    private final CryptFormat encodedFormat;

    private CryptScheme(String name, Set<CryptFormat> accepted, CryptFormat encodedFormat) {
        this.name = name;
        this.accepted = accepted;
        this.encodedFormat = encodedFormat;
    }

    /** {@code {CRYPT}} writing new values in {@code format} (weak if the format is): lets tests round-trip. */
    static CryptScheme crypt(CryptFormat format) {
        return new CryptScheme("CRYPT", EnumSet.allOf(CryptFormat.class), format);
    }

    /** bcrypt at the configured cost; crypt(3)'s SHA-512 keeps its default rounds. */
    @Override
    public PasswordStorageScheme withCosts(SchemeCosts costs) {
        if (encodedFormat != CryptFormat.BCRYPT) {
            return this;
        }
        return SchemeSupport.encodingWith(this, clear -> {
            byte[] password = clear.toByteArray();
            try {
                return CryptFormat.bcrypt(password, costs.bcryptCost());
            } finally {
                Arrays.fill(password, (byte) 0);
            }
        });
    }

    @Override
    public String name() {
        return name;
    }

    /** Weak if new values would be weak (DES or MD5-crypt); reading weak formats does not make it so. */
    @Override
    public boolean isWeak() {
        return encodedFormat.isWeak();
    }

    /** @throws IllegalArgumentException also if the format would ignore part of the password */
    @Override
    public String encodeValue(ByteSequence clear) {
        SchemeSupport.requireNonEmptyPassword(clear);
        byte[] password = clear.toByteArray();
        try {
            return encodedFormat.encode(password);
        } finally {
            Arrays.fill(password, (byte) 0);
        }
    }

    @Override
    public boolean matches(ByteSequence clear, String encodedValue) {
        if (clear == null || clear.isEmpty() || encodedValue == null) {
            return false;
        }
        CryptFormat format = CryptFormat.of(encodedValue);
        if (format == null || !accepted.contains(format)) {
            return false;
        }
        byte[] password = clear.toByteArray();
        try {
            return format.matches(password, encodedValue);
        } catch (RuntimeException e) {
            // A value the library refuses (bad salt or length) does not match. Not rethrown nor logged:
            // the message could quote the stored hash.
            return false;
        } finally {
            Arrays.fill(password, (byte) 0);
        }
    }

    /** The format's measured cost (see {@link CryptFormat}); 1 for a value that cannot match. */
    @Override
    public long workFactor(String encodedValue) {
        CryptFormat format = encodedValue == null ? null : CryptFormat.of(encodedValue);
        return format == null || !accepted.contains(format) ? 1 : format.workFactor(encodedValue);
    }

    @Override
    public String toString() {
        return "CryptScheme{" + name + ", new values " + encodedFormat + "}";
    }
}
