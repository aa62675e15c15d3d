package io.bindfirst.server.plugin;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Calls plugins: one generic mechanism over a table of phase x operation type to plugins, rather than a
 * method per pair. Built once at start, then read-only, so lookups on the hot path take no lock.
 */
public final class PluginInvoker {
    private static final Logger LOG = LoggerFactory.getLogger(PluginInvoker.class);
    private static final List<Plugin> NONE = List.of();

    private final Map<PluginPhase, Map<OperationType, List<Plugin>>> table = new EnumMap<>(PluginPhase.class);

    public PluginInvoker(List<Plugin> plugins) {
        for (PluginPhase phase : PluginPhase.values()) {
            Map<OperationType, List<Plugin>> byType = new EnumMap<>(OperationType.class);
            for (OperationType type : OperationType.values()) {
                List<Plugin> subscribed = new ArrayList<>();
                for (Plugin p : plugins) {
                    if (p.subscriptions().contains(new Plugin.Subscription(phase, type))) {
                        subscribed.add(p);
                    }
                }
                byType.put(type, subscribed.isEmpty() ? NONE : List.copyOf(subscribed));
            }
            table.put(phase, byType);
        }
    }

    /** Pre-parse or pre-operation: the first plugin that stops the operation decides its result. */
    public PluginResult invokePre(PluginPhase phase, OperationView operation) {
        List<Plugin> plugins = table.get(phase).get(operation.operationType());
        // Indexed, not for-each: a bind passes here four times, and an iterator each time was allocation on the
        // selector thread for lists that are mostly empty (the lists are immutable, List.copyOf).
        for (int i = 0; i < plugins.size(); i++) {
            Plugin p = plugins.get(i);
            PluginResult r = phase == PluginPhase.PRE_PARSE ? p.preParse(operation) : p.preOperation(operation);
            if (!r.continues()) {
                return r;
            }
        }
        return PluginResult.CONTINUE;
    }

    /** Post-operation or post-response: every plugin runs; one that fails is logged and does not stop the rest. */
    public void invokePost(PluginPhase phase, CompletedOperationView operation) {
        List<Plugin> plugins = table.get(phase).get(operation.operationType());
        for (int i = 0; i < plugins.size(); i++) { // indexed: see invokePre
            Plugin p = plugins.get(i);
            try {
                if (phase == PluginPhase.POST_OPERATION) {
                    p.postOperation(operation);
                } else {
                    p.postResponse(operation);
                }
            } catch (RuntimeException e) {
                LOG.error("Plugin {} failed in {} of {}", p.getClass().getSimpleName(), phase,
                        operation.operationType(), e);
            }
        }
    }
}
