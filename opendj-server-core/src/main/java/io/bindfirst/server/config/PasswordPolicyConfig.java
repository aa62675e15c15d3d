package io.bindfirst.server.config;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.forgerock.opendj.ldap.DN;
import org.forgerock.opendj.ldap.Entry;

import io.bindfirst.server.pwd.PasswordPolicies;
import io.bindfirst.server.pwd.PasswordPolicy;

/**
 * Reads the password policies: the entries directly under {@code cn=Password Policies,cn=config}, with
 * OpenDJ's setting names and defaults (lockout off, passwords never expire, a 5-day expiry warning). A
 * configuration without the default policy's entry (an instance created before password policies existed) gets
 * the default policy without lockout or expiry.
 */
final class PasswordPolicyConfig {

    private PasswordPolicyConfig() {
    }

    static PasswordPolicies read(Map<DN, Entry> entries) throws ConfigException {
        List<PasswordPolicy> all = new ArrayList<>();
        PasswordPolicy byDefault = PasswordPolicy.withoutLockout(PasswordPolicies.DEFAULT_DN);
        for (Entry e : entries.values()) {
            if (e.getName().isChildOf(PasswordPolicies.PARENT)) {
                PasswordPolicy p = policy(e);
                all.add(p);
                if (p.dn().equals(PasswordPolicies.DEFAULT_DN)) {
                    byDefault = p;
                }
            }
        }
        return new PasswordPolicies(byDefault, all);
    }

    private static PasswordPolicy policy(Entry e) throws ConfigException {
        int count = ConfigLoader.integer(e, "ds-cfg-lockout-failure-count", 0, 0, 1_000_000);
        Duration duration = duration(e, "ds-cfg-lockout-duration");
        Duration expiry = duration(e, "ds-cfg-lockout-failure-expiration-interval");
        PasswordPolicy.Expiry passwordExpiry = new PasswordPolicy.Expiry(duration(e, "ds-cfg-max-password-age"),
                duration(e, "ds-cfg-password-expiration-warning-interval", "5 d"),
                ConfigLoader.integer(e, "ds-cfg-grace-login-count", 0, 0, 1_000));
        return new PasswordPolicy(e.getName(), count, duration, expiry, passwordExpiry,
                ConfigLoader.integer(e, "ds-cfg-password-history-count", 0, 0, 100));
    }

    private static Duration duration(Entry e, String attr) throws ConfigException {
        return duration(e, attr, "0 s");
    }

    private static Duration duration(Entry e, String attr, String dflt) throws ConfigException {
        return ConfigUnits.duration(e.getName() + ": " + attr, ConfigLoader.string(e, attr, dflt));
    }
}
