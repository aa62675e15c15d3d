package io.bindfirst.server.backend;

import java.util.ArrayList;
import java.util.List;

import org.forgerock.opendj.ldap.DN;

/**
 * The backends of a running server and which DN belongs to which. Built once at start; immutable.
 * Base DNs never overlap (checked when the configuration is read), so at most one backend holds a DN.
 * Besides the user backends, the server's own: the configuration ({@code cn=config}) and the monitor
 * ({@code cn=monitor}); neither is a naming context, so only a search based at or below them reaches them.
 */
public final class Backends implements AutoCloseable {
    private final List<Backend> userBackends;
    private final Backend configBackend;
    private final Backend monitorBackend;
    private final List<DN> namingContexts;

    public Backends(List<Backend> userBackends, Backend configBackend, Backend monitorBackend) {
        this.userBackends = List.copyOf(userBackends);
        this.configBackend = configBackend;
        this.monitorBackend = monitorBackend;
        List<DN> contexts = new ArrayList<>();
        for (Backend b : userBackends) {
            contexts.addAll(b.baseDNs());
        }
        this.namingContexts = List.copyOf(contexts);
    }

    /** The backend holding {@code dn}, or {@code null} if none does. */
    public Backend backendFor(DN dn) {
        for (Backend b : userBackends) {
            for (DN base : b.baseDNs()) {
                if (dn.isSubordinateOrEqualTo(base)) {
                    return b;
                }
            }
        }
        for (Backend b : List.of(configBackend, monitorBackend)) {
            for (DN base : b.baseDNs()) {
                if (dn.isSubordinateOrEqualTo(base)) {
                    return b;
                }
            }
        }
        return null;
    }

    public boolean isConfigBackend(Backend backend) {
        return backend == configBackend;
    }

    /** The server's own suffixes ({@code cn=config}, {@code cn=monitor}), not naming contexts. */
    public List<DN> privateSuffixes() {
        List<DN> out = new ArrayList<>(configBackend.baseDNs());
        out.addAll(monitorBackend.baseDNs());
        return out;
    }

    /** The public suffixes, as the root DSE lists them in {@code namingContexts}. */
    public List<DN> namingContexts() {
        return namingContexts;
    }

    public List<Backend> userBackends() {
        return userBackends;
    }

    @Override
    public void close() {
        for (Backend b : userBackends) {
            b.close();
        }
        configBackend.close();
        monitorBackend.close();
    }
}
