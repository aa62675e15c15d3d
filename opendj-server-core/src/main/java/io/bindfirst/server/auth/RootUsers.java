package io.bindfirst.server.auth;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.forgerock.opendj.ldap.ByteString;
import org.forgerock.opendj.ldap.DN;

import io.bindfirst.server.config.ServerConfig;
import io.bindfirst.server.pwd.Pacer;
import io.bindfirst.server.pwd.PasswordAttribute;
import io.bindfirst.server.pwd.PasswordSchemes;

/**
 * The root users (e.g. {@code cn=Directory Manager}), found by their entry DN or an alternate bind DN.
 * They live in the configuration, not in a user backend, and are exempt from server-wide limits.
 */
public final class RootUsers {
    private final Map<DN, ServerConfig.RootUser> byBindDN = new HashMap<>();
    private final PasswordAttribute passwords;

    public RootUsers(List<ServerConfig.RootUser> users, PasswordAttribute passwords) {
        this.passwords = passwords;
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

    /** Whether {@code password} is one of the root user's stored passwords (timing: {@link PasswordAttribute}). */
    public boolean verify(ServerConfig.RootUser user, ByteString password) {
        return matchingScheme(user, password) != PasswordSchemes.NO_MATCH;
    }

    /**
     * {@link #verify} saying which storage scheme matched ({@link PasswordAttribute#matchingScheme(Iterable,
     * org.forgerock.opendj.ldap.ByteSequence, Pacer)}), or {@link PasswordSchemes#NO_MATCH}.
     */
    public int matchingScheme(ServerConfig.RootUser user, ByteString password) {
        return passwords.matchingScheme(user.passwords(), password, Pacer.NONE);
    }

    /** Whether any root user still has {@code demoPassword} (the shipped value). */
    public boolean anyUses(ByteString demoPassword) {
        for (ServerConfig.RootUser u : byBindDN.values()) {
            if (verify(u, demoPassword)) {
                return true;
            }
        }
        return false;
    }
}
