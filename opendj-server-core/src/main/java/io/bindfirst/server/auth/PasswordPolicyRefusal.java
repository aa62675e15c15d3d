package io.bindfirst.server.auth;

import org.forgerock.opendj.ldap.ResultCode;
import org.forgerock.opendj.ldap.controls.PasswordPolicyErrorType;

import io.bindfirst.server.backend.BackendException;

/**
 * A new password that the account's policy refuses: {@code constraintViolation} with a message saying what the
 * rule wants, and the draft-behera error that the Password Policy response control reports to a client that asked
 * for it ({@code passwordInHistory}, {@code insufficientPasswordQuality}, ...). Raised inside a write's transaction,
 * it crosses the backend as any {@link BackendException} does.
 */
public final class PasswordPolicyRefusal extends BackendException {
    private final transient PasswordPolicyErrorType error;

    public PasswordPolicyRefusal(PasswordPolicyErrorType error, String message) {
        super(ResultCode.CONSTRAINT_VIOLATION, message);
        this.error = error;
    }

    /** What the Password Policy response control says. */
    public PasswordPolicyErrorType error() {
        return error;
    }
}
