package io.bindfirst.server;

/** The server cannot start; the message says why in words an operator can act on. */
public final class ServerStartException extends Exception {
    public ServerStartException(String message) {
        super(message);
    }

    public ServerStartException(String message, Throwable cause) {
        super(message, cause);
    }
}
