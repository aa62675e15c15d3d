package io.bindfirst.server.pwd;

import java.util.ArrayList;
import java.util.List;

import org.forgerock.opendj.ldap.ByteString;
import org.forgerock.opendj.ldap.ResultCode;

/**
 * Turns the {@code userPassword} values a client sends on add or modify into what is stored: clear text
 * is hashed with the default scheme; a value that already carries a {@code {SCHEME}} prefix is kept as
 * it is, but only from a root user (migrations), since anyone else could otherwise set a hash whose
 * password they do not know the strength of, or bypass the storage scheme.
 */
public final class PasswordValues {
    private final PasswordSchemes schemes;

    public PasswordValues(PasswordSchemes schemes) {
        this.schemes = schemes;
    }

    /** A refusal, with the result code and a message that never contains the password. */
    public static final class Refused extends Exception {
        private final transient ResultCode resultCode;

        Refused(ResultCode resultCode, String message) {
            super(message);
            this.resultCode = resultCode;
        }

        public ResultCode resultCode() {
            return resultCode;
        }
    }

    /** The stored form of each value. */
    public List<ByteString> toStored(Iterable<ByteString> values, boolean byRootUser) throws Refused {
        List<ByteString> out = new ArrayList<>();
        for (ByteString v : values) {
            if (v.isEmpty()) {
                throw new Refused(ResultCode.CONSTRAINT_VIOLATION, "An empty password is not allowed");
            }
            if (looksEncoded(v)) {
                if (!byRootUser) {
                    throw new Refused(ResultCode.CONSTRAINT_VIOLATION,
                            "Pre-encoded passwords are accepted from root users only");
                }
                out.add(v);
            } else {
                out.add(schemes.encode(v));
            }
        }
        return out;
    }

    /** {@code {NAME}rest}: any scheme name, known or not, so a migrated {CRYPT} value is never re-hashed. */
    public static boolean looksEncoded(ByteString v) {
        if (v.length() < 3 || v.byteAt(0) != '{') {
            return false;
        }
        for (int i = 1; i < v.length(); i++) {
            byte b = v.byteAt(i);
            if (b == '}') {
                return i > 1;
            }
            if (!(Character.isLetterOrDigit(b) || b == '-' || b == '_')) {
                return false;
            }
        }
        return false;
    }
}
