package io.bindfirst.server.backend;

import org.forgerock.opendj.ldap.ResultCode;

/**
 * A backend failure with the LDAP result code the client should see. The message is shown to clients,
 * so it never carries storage-engine text; the engine exception, if any, is the cause (logged only). Not final:
 * a refusal that has more to say than a result code (a password policy's error) extends it, so that it crosses a
 * backend's transaction unchanged.
 */
public class BackendException extends Exception {
    private final transient ResultCode resultCode;

    public BackendException(ResultCode resultCode, String message) {
        super(message);
        this.resultCode = resultCode;
    }

    public BackendException(ResultCode resultCode, String message, Throwable cause) {
        super(message, cause);
        this.resultCode = resultCode;
    }

    public ResultCode resultCode() {
        return resultCode;
    }
}
