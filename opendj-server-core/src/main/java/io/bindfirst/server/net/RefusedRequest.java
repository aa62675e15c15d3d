package io.bindfirst.server.net;

import java.io.IOException;

import org.forgerock.opendj.ldap.ResultCode;

/**
 * A request {@link RequestReader} read whole but that is answered at once with {@code resultCode}, a result of its
 * own type, not run: a name that is not a DN ({@link InvalidDns}), a value listed twice ({@link RepeatedValues}).
 */
final class RefusedRequest extends IOException {
    private static final long serialVersionUID = 1L;

    private final transient ResultCode resultCode;

    RefusedRequest(ResultCode resultCode, String message) {
        super(message);
        this.resultCode = resultCode;
    }

    ResultCode resultCode() {
        return resultCode;
    }
}
