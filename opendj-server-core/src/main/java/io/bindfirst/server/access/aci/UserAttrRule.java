package io.bindfirst.server.access.aci;

import java.util.Locale;

import org.forgerock.opendj.ldap.Attribute;
import org.forgerock.opendj.ldap.AttributeDescription;
import org.forgerock.opendj.ldap.ByteString;
import org.forgerock.opendj.ldap.DN;
import org.forgerock.opendj.ldap.Entry;
import org.forgerock.opendj.ldap.schema.Schema;

/**
 * {@code userattr}: a relation between the requester and the target entry through an attribute.
 * {@code attr#USERDN}: the target's {@code attr} names the requester ({@code manager#USERDN});
 * {@code attr#GROUPDN}: it names a group the requester belongs to ({@code owner#GROUPDN});
 * {@code attr#value}: the requester's own entry holds {@code attr: value}.
 * OpenDJ's {@code LDAPURL} and {@code parent[...]} inheritance forms are not supported.
 */
final class UserAttrRule implements BindRule {
    private enum Kind { USERDN, GROUPDN, VALUE }

    private final AttributeDescription attribute;
    private final Kind kind;
    private final ByteString value;
    private final Schema schema;

    private UserAttrRule(AttributeDescription attribute, Kind kind, ByteString value, Schema schema) {
        this.attribute = attribute;
        this.kind = kind;
        this.value = value;
        this.schema = schema;
    }

    static UserAttrRule parse(String text, Schema schema) {
        int hash = text.indexOf('#');
        if (hash <= 0 || hash == text.length() - 1) {
            throw new IllegalArgumentException("userattr needs attribute#USERDN, attribute#GROUPDN or "
                    + "attribute#value, not " + text);
        }
        String name = text.substring(0, hash).trim();
        if (name.toLowerCase(Locale.ROOT).startsWith("parent[")) {
            throw new IllegalArgumentException("userattr inheritance (parent[...]) is not supported");
        }
        AttributeDescription ad = Targets.attribute(name, schema);
        String what = text.substring(hash + 1).trim();
        switch (what.toUpperCase(Locale.ROOT)) {
            case "USERDN": return new UserAttrRule(ad, Kind.USERDN, null, schema);
            case "GROUPDN": return new UserAttrRule(ad, Kind.GROUPDN, null, schema);
            case "LDAPURL": throw new IllegalArgumentException("userattr with LDAPURL is not supported");
            default: return new UserAttrRule(ad, Kind.VALUE, ByteString.valueOfUtf8(what), schema);
        }
    }

    @Override
    public boolean matches(AciContext c) {
        DN user = c.who().dn();
        if (user == null) {
            return false;
        }
        if (kind == Kind.VALUE) {
            return holds(c.requesterEntry());
        }
        Attribute a = c.target().getAttribute(attribute);
        if (a == null) {
            return false;
        }
        for (ByteString v : a) {
            DN named;
            try {
                named = DN.valueOf(v.toString(), schema);
            } catch (RuntimeException e) {
                continue; // not a DN: names no one
            }
            if (kind == Kind.USERDN ? named.equals(user) : c.directory().isMember(user, named)) {
                return true;
            }
        }
        return false;
    }

    private boolean holds(Entry e) {
        if (e == null) {
            return false;
        }
        Attribute a = e.getAttribute(attribute);
        return a != null && a.contains(value);
    }
}
