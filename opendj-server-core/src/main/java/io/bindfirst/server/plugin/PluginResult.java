package io.bindfirst.server.plugin;

import org.forgerock.opendj.ldap.ResultCode;

/**
 * A pre-phase plugin's answer: go on, or stop the operation with this result.
 *
 * @param stopWith {@code null} to go on
 * @param message the diagnostic message when stopping
 */
public record PluginResult(ResultCode stopWith, String message) {
    public static final PluginResult CONTINUE = new PluginResult(null, null);

    public static PluginResult stop(ResultCode code, String message) {
        return new PluginResult(code, message);
    }

    public boolean continues() {
        return stopWith == null;
    }
}
