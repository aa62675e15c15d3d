package io.bindfirst.server.plugin;

import java.util.Set;

/**
 * A server plugin. It declares, where it is built, the phase and operation pairs it subscribes to; the
 * {@link PluginInvoker} calls it for those only. Hooks it does not need keep their do-nothing defaults.
 * Implementations are listed in {@code config.ldif} under {@code cn=Plugins,cn=config} and have a public
 * constructor taking the {@link io.bindfirst.server.core.ServerContext}.
 */
public interface Plugin {

    /** A phase and operation type this plugin is called for. */
    record Subscription(PluginPhase phase, OperationType operation) {
    }

    Set<Subscription> subscriptions();

    default PluginResult preParse(OperationView operation) {
        return PluginResult.CONTINUE;
    }

    default PluginResult preOperation(OperationView operation) {
        return PluginResult.CONTINUE;
    }

    default void postOperation(CompletedOperationView operation) {
    }

    default void postResponse(CompletedOperationView operation) {
    }
}
