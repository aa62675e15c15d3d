package io.bindfirst.server.auth;

import java.util.HashSet;
import java.util.Locale;
import java.util.Set;

import org.forgerock.opendj.ldap.schema.AttributeType;
import org.forgerock.opendj.ldap.schema.Schema;

import io.bindfirst.server.pwd.PasswordAttribute;
import io.bindfirst.server.pwd.PasswordPolicies;
import io.bindfirst.server.pwd.PasswordPolicy;

/**
 * The attributes a bind reads from the entry (the password, the disabled flag, the lock, the per-user limits), as
 * the lower-case names and OIDs {@link io.bindfirst.server.backend.Backend#getEntry(
 * org.forgerock.opendj.ldap.DN, Set)} takes. Everything {@link AuthenticationInfo#user} and
 * {@link Accounts#whyRefused}, {@link Accounts#passwordAge} and {@link AfterBind} look at must be listed here.
 */
public final class BindAttributes {
    private static final String[] TYPES = {
        PasswordAttribute.OID, "ds-pwp-account-disabled", "pwdAccountLockedTime", "ds-pwp-password-policy-dn",
        "pwdChangedTime", "pwdGraceUseTime", "pwdReset", "ds-rlim-size-limit", "ds-rlim-time-limit",
        Privileges.ATTRIBUTE
    };

    private BindAttributes() {
    }

    public static Set<String> of(Schema schema) {
        return of(schema, PasswordPolicies.defaults());
    }

    /** With the last-login attribute of each policy that keeps one (a bind compares it before it writes). */
    public static Set<String> of(Schema schema, PasswordPolicies policies) {
        Set<String> names = new HashSet<>();
        for (String t : TYPES) {
            add(schema.getAttributeType(t), names);
        }
        for (PasswordPolicy p : policies.all()) {
            if (p.onBind().recordsLastLogin() && schema.hasAttributeType(p.onBind().lastLoginAttribute())) {
                add(schema.getAttributeType(p.onBind().lastLoginAttribute()), names);
            }
        }
        return Set.copyOf(names);
    }

    private static void add(AttributeType type, Set<String> names) {
        names.add(type.getOID());
        for (String n : type.getNames()) {
            names.add(n.toLowerCase(Locale.ROOT));
        }
    }
}
