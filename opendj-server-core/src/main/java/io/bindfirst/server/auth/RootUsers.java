package io.bindfirst.server.auth;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.forgerock.opendj.ldap.ByteString;
import org.forgerock.opendj.ldap.DN;

import io.bindfirst.server.config.ServerConfig;
import io.bindfirst.server.pwd.PasswordSchemes;

/**
 * The root users (e.g. {@code cn=Directory Manager}), found by their entry DN or an alternate bind DN.
 * They live in the configuration, not in a user backend, and are exempt from server-wide limits.
 */
public final class RootUsers {
    private final Map<DN, ServerConfig.RootUser> byBindDN = new HashMap<>();

    public RootUsers(List<ServerConfig.RootUser> users) {
        for (ServerConfig.RootUser u : users) {
            byBindDN.put(u.dn(), u);
            for (DN alt : u.alternateBindDNs()) {
                byBindDN.put(alt, u);
            }
        }
    }

    /** The root user that binds with {@code bindDN}, or {@code null}. */
    public ServerConfig.RootUser find(DN bindDN) {
        return byBindDN.get(bindDN);
    }

    /** Whether {@code dn} is a root user's entry DN (what its connections are authenticated as). */
    public boolean isRootEntry(DN dn) {
        ServerConfig.RootUser u = byBindDN.get(dn);
        return u != null && u.dn().equals(dn);
    }

    /** Whether {@code password} is one of the root user's stored passwords. */
    public static boolean verify(ServerConfig.RootUser user, ByteString password, PasswordSchemes schemes) {
        boolean ok = false;
        for (ByteString stored : user.passwords()) {
            // No early exit: every stored value costs the same whichever matches.
            ok |= schemes.verify(password, stored);
        }
        return ok;
    }

    /** Whether any root user still has {@code demoPassword} (the shipped value). */
    public boolean anyUses(ByteString demoPassword, PasswordSchemes schemes) {
        for (ServerConfig.RootUser u : byBindDN.values()) {
            if (verify(u, demoPassword, schemes)) {
                return true;
            }
        }
        return false;
    }
}
