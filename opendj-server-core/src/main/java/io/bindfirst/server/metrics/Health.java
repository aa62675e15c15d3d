package io.bindfirst.server.metrics;

import java.util.List;
import java.util.function.Supplier;

import org.forgerock.opendj.ldap.DN;

import io.bindfirst.server.backend.Backend;
import io.bindfirst.server.backend.BackendException;

/**
 * What {@code /healthy} asks: does the LDAP listener answer a search (see {@link LdapProbe}), and does every
 * user backend answer a read of its base entries (whether they exist or not: an empty backend is healthy).
 */
final class Health {
    private final Supplier<String> ldap;
    private final List<Backend> userBackends;

    /**
     * @param ldap the LDAP check: {@code null} when it passed, else why not
     * @param userBackends the backends read
     */
    Health(Supplier<String> ldap, List<Backend> userBackends) {
        this.ldap = ldap;
        this.userBackends = List.copyOf(userBackends);
    }

    /** {@code null} when healthy, else the first problem found, in one line. */
    String problem() {
        String why = ldap.get();
        if (why != null) {
            return why;
        }
        for (Backend b : userBackends) {
            for (DN base : b.baseDNs()) {
                try {
                    b.entryExists(base);
                } catch (BackendException | RuntimeException e) {
                    return "the backend of " + base + " did not answer a read: " + oneLine(e.getMessage());
                }
            }
        }
        return null;
    }

    static String oneLine(String message) {
        return message == null ? "(no message)" : message.replaceAll("\\s+", " ").trim();
    }
}
