package io.bindfirst.server.metrics;

import java.util.Locale;

/**
 * The query of a {@code /healthy} probe: {@code role=master}, {@code role=replica} with an optional
 * {@code max-lag-ms=N}, or nothing (any node that answers). Anything else is the probe's mistake: {@link #error}
 * says what, for a 400 answer, so that a load balancer misconfigured is told so rather than seeing a node down.
 *
 * @param role what the probe asks of the node
 * @param maxLagMillis for a replica, how far behind its master it may be (negative: any lag)
 * @param error why the query is refused, or {@code null}
 */
record HealthQuery(Health.Role role, long maxLagMillis, String error) {
    private static final String USAGE = "use /healthy, /healthy?role=master or /healthy?role=replica&max-lag-ms=N";

    static HealthQuery parse(String rawQuery) {
        Health.Role role = Health.Role.ANY;
        long maxLag = -1;
        if (rawQuery == null || rawQuery.isEmpty()) {
            return new HealthQuery(role, maxLag, null);
        }
        for (String pair : rawQuery.split("&")) {
            int eq = pair.indexOf('=');
            String name = eq < 0 ? pair : pair.substring(0, eq);
            String value = eq < 0 ? "" : pair.substring(eq + 1);
            switch (name) {
                case "role" -> {
                    switch (value.toLowerCase(Locale.ROOT)) {
                        case "master" -> role = Health.Role.MASTER;
                        case "replica" -> role = Health.Role.REPLICA;
                        default -> {
                            return refused("role '" + value + "' is not master or replica");
                        }
                    }
                }
                case "max-lag-ms" -> {
                    try {
                        maxLag = Long.parseLong(value);
                    } catch (NumberFormatException e) {
                        maxLag = -1;
                    }
                    if (maxLag < 0) {
                        return refused("max-lag-ms '" + value + "' is not a number of milliseconds");
                    }
                }
                default -> {
                    return refused("unknown parameter '" + name + "'");
                }
            }
        }
        if (maxLag >= 0 && role != Health.Role.REPLICA) {
            return refused("max-lag-ms goes with role=replica");
        }
        return new HealthQuery(role, maxLag, null);
    }

    private static HealthQuery refused(String why) {
        return new HealthQuery(Health.Role.ANY, -1, why + ": " + USAGE);
    }
}
