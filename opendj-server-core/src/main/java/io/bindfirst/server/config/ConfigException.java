package io.bindfirst.server.config;

/** A configuration that cannot be used; the message names the entry and attribute at fault. */
public final class ConfigException extends Exception {
    public ConfigException(String message) {
        super(message);
    }

    public ConfigException(String message, Throwable cause) {
        super(message, cause);
    }
}
