package io.bindfirst.server.config;

import java.util.ArrayList;
import java.util.List;

import org.forgerock.opendj.ldap.Attribute;
import org.forgerock.opendj.ldap.ByteString;
import org.forgerock.opendj.ldap.DN;
import org.forgerock.opendj.ldap.Entry;

/**
 * {@code cn=Access Control Handler,cn=config}, as OpenDJ names it: whether ACIs decide access
 * ({@code ds-cfg-enabled}), and the global ACIs ({@code ds-cfg-global-aci}) that apply to the whole directory.
 * Disabled, the server keeps its fixed rules: root users do anything, others read all but passwords and change
 * their own password.
 *
 * @param enabled whether ACIs decide
 * @param globalAcis the global ACIs as written (checked when the server compiles them)
 * @param unindexedSearchNeedsPrivilege whether a search no index narrows needs the unindexed-search privilege
 *        ({@code ds-cfg-unindexed-search-requires-privilege}; off by default: such searches run paced on the slow
 *        lane, bounded by the lookthrough limit)
 */
public record AccessControlConfig(boolean enabled, List<String> globalAcis, boolean unindexedSearchNeedsPrivilege) {
    public static final DN ENTRY = DN.valueOf("cn=Access Control Handler,cn=config");

    public AccessControlConfig {
        globalAcis = List.copyOf(globalAcis);
    }

    /** Without the entry: access control off (the fixed rules). */
    public static final AccessControlConfig OFF = new AccessControlConfig(false, List.of(), false);

    /** The settings {@code e} (the handler's entry) gives. */
    static AccessControlConfig read(Entry e) throws ConfigException {
        boolean enabled = ConfigLoader.bool(e, "ds-cfg-enabled", true);
        List<String> acis = new ArrayList<>();
        Attribute a = e.getAttribute("ds-cfg-global-aci");
        if (a != null) {
            for (ByteString v : a) {
                acis.add(v.toString());
            }
        }
        return new AccessControlConfig(enabled, acis,
                ConfigLoader.bool(e, "ds-cfg-unindexed-search-requires-privilege", false));
    }
}
