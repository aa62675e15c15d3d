package io.bindfirst.server.auth;

import java.util.Locale;

import org.forgerock.opendj.ldap.Attribute;
import org.forgerock.opendj.ldap.ByteString;

/**
 * OpenDJ's privileges, as bits: what a user may do beyond what ACIs decide. Root users hold them all; another
 * user holds those named by the {@code ds-privilege-name} values of their entry (which only root users may write
 * under the shipped ACIs). Names this server does not know are ignored.
 */
public final class Privileges {
    /** ACIs do not apply (root users: see AciPolicy). */
    public static final int BYPASS_ACL = 1;
    /** Change another user's password (with write access to it). */
    public static final int PASSWORD_RESET = 1 << 1;
    /** Act as another user: proxied authorization, a SASL authorization identity (with the proxy right). */
    public static final int PROXIED_AUTH = 1 << 2;
    /** Read {@code cn=config} (not the root users' passwords). */
    public static final int CONFIG_READ = 1 << 3;
    /** Read {@code cn=monitor}. */
    public static final int MONITOR_READ = 1 << 4;
    /** Search without an index. */
    public static final int UNINDEXED_SEARCH = 1 << 5;
    public static final int ALL = BYPASS_ACL | PASSWORD_RESET | PROXIED_AUTH | CONFIG_READ | MONITOR_READ
            | UNINDEXED_SEARCH;
    /** The attribute naming a user's privileges. */
    public static final String ATTRIBUTE = "ds-privilege-name";

    private Privileges() {
    }

    /** The privileges an entry's {@link #ATTRIBUTE} values ({@code a}; null when it has none) name. */
    static int of(Attribute a) {
        if (a == null) {
            return 0;
        }
        int bits = 0;
        for (ByteString v : a) {
            bits |= named(v.toString());
        }
        return bits;
    }

    /** The bit of the privilege {@code name}, or 0. */
    static int named(String name) {
        switch (name.trim().toLowerCase(Locale.ROOT)) {
            case "bypass-acl": return BYPASS_ACL;
            case "password-reset": return PASSWORD_RESET;
            case "proxied-auth": return PROXIED_AUTH;
            case "config-read": return CONFIG_READ;
            case "monitor-read": return MONITOR_READ;
            case "unindexed-search": return UNINDEXED_SEARCH;
            default: return 0;
        }
    }
}
