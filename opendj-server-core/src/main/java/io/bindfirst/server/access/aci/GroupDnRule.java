package io.bindfirst.server.access.aci;

import java.util.ArrayList;
import java.util.List;

import org.forgerock.opendj.ldap.DN;
import org.forgerock.opendj.ldap.schema.Schema;

/** {@code groupdn}: the requester is a member (directly or through nested groups) of one of the listed groups. */
final class GroupDnRule implements BindRule {
    private final List<DN> groups;

    private GroupDnRule(List<DN> groups) {
        this.groups = groups;
    }

    /** {@code value}: {@code ldap:///<group DN>} values separated by {@code ||}. */
    static GroupDnRule parse(String value, Schema schema) {
        List<DN> out = new ArrayList<>();
        for (String part : value.split("\\|\\|")) {
            out.add(DN.valueOf(LdapUrls.decode(LdapUrls.afterScheme(part.trim(), "groupdn")), schema));
        }
        return new GroupDnRule(List.copyOf(out));
    }

    @Override
    public boolean matches(AciContext c) {
        DN user = c.who().dn();
        if (user == null) {
            return false;
        }
        for (DN g : groups) {
            if (c.directory().isMember(user, g)) {
                return true;
            }
        }
        return false;
    }
}
