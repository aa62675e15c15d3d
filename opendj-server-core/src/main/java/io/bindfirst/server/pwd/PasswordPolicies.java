package io.bindfirst.server.pwd;

import java.util.HashMap;
import java.util.Map;

import org.forgerock.opendj.ldap.DN;

/**
 * The configured password policies: the default one, which applies to every user whose entry names none, and
 * the others by their configuration DN, which a user's {@code ds-pwp-password-policy-dn} chooses. Immutable.
 */
public final class PasswordPolicies {
    /** The parent of every password policy's configuration entry. */
    public static final DN PARENT = DN.valueOf("cn=Password Policies,cn=config");
    /** The default policy's configuration entry, as OpenDJ names it. */
    public static final DN DEFAULT_DN = PARENT.child("cn", "Default Password Policy");

    private final PasswordPolicy defaultPolicy;
    private final Map<DN, PasswordPolicy> byDn;
    private final boolean anyLocksOut;

    /**
     * @param defaultPolicy the policy of users whose entry names none
     * @param others the other policies (the default one may be among them)
     */
    public PasswordPolicies(PasswordPolicy defaultPolicy, Iterable<PasswordPolicy> others) {
        Map<DN, PasswordPolicy> m = new HashMap<>();
        m.put(defaultPolicy.dn(), defaultPolicy);
        boolean locks = defaultPolicy.locksOut();
        for (PasswordPolicy p : others) {
            m.put(p.dn(), p);
            locks |= p.locksOut();
        }
        this.defaultPolicy = defaultPolicy;
        this.byDn = Map.copyOf(m);
        this.anyLocksOut = locks;
    }

    /** Only the default policy, without lockout: what a configuration without password policies means. */
    public static PasswordPolicies defaults() {
        return new PasswordPolicies(PasswordPolicy.withoutLockout(DEFAULT_DN), java.util.List.of());
    }

    public PasswordPolicy defaultPolicy() {
        return defaultPolicy;
    }

    /** The policy configured at {@code dn}, or {@code null}. */
    public PasswordPolicy named(DN dn) {
        return byDn.get(dn);
    }

    /** Every policy, the default one included. */
    public java.util.Collection<PasswordPolicy> all() {
        return byDn.values();
    }

    /** Whether some policy locks accounts after failed binds (if none does, failures need not be counted). */
    public boolean anyLocksOut() {
        return anyLocksOut;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof PasswordPolicies other && defaultPolicy.equals(other.defaultPolicy)
                && byDn.equals(other.byDn);
    }

    @Override
    public int hashCode() {
        return byDn.hashCode();
    }

    @Override
    public String toString() {
        return "PasswordPolicies" + byDn.values();
    }
}
