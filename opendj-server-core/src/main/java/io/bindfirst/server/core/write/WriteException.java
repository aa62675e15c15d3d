package io.bindfirst.server.core.write;

import org.forgerock.opendj.ldap.ResultCode;

/**
 * A write (add or modify) that must be refused, with the LDAP result code and the diagnostic message the
 * client should see. The message is client-safe: it names the entry, attributes and object classes
 * involved, but never a password value.
 */
public final class WriteException extends Exception {
    // ResultCode is not Serializable; the exception is never serialized, so the field is transient.
    private final transient ResultCode resultCode;

    public WriteException(ResultCode resultCode, String message) {
        super(message);
        this.resultCode = resultCode;
    }

    /** The LDAP result code to answer with. */
    public ResultCode resultCode() {
        return resultCode;
    }
}
