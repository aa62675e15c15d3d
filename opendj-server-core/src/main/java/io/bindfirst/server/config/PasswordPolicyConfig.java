package io.bindfirst.server.config;

import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import org.forgerock.opendj.ldap.Attribute;
import org.forgerock.opendj.ldap.ByteString;
import org.forgerock.opendj.ldap.DN;
import org.forgerock.opendj.ldap.Entry;

import io.bindfirst.server.pwd.PasswordPolicies;
import io.bindfirst.server.pwd.PasswordPolicy;
import io.bindfirst.server.pwd.PasswordSchemes;
import io.bindfirst.server.pwd.PasswordValidator;

/**
 * Reads the password policies: the entries directly under {@code cn=Password Policies,cn=config}, with
 * OpenDJ's setting names and defaults (lockout off, passwords never expire, a 5-day expiry warning). A
 * configuration without the default policy's entry (an instance created before password policies existed) gets
 * the default policy without lockout or expiry.
 */
final class PasswordPolicyConfig {
    /** Where the password validators a policy may name are configured (OpenDJ's place). */
    static final DN VALIDATORS = DN.valueOf("cn=Password Validators,cn=config");

    private PasswordPolicyConfig() {
    }

    static PasswordPolicies read(Map<DN, Entry> entries) throws ConfigException {
        Map<DN, PasswordValidator> validators = new HashMap<>();
        for (Entry e : entries.values()) {
            if (e.getName().isChildOf(VALIDATORS) && ConfigLoader.bool(e, "ds-cfg-enabled", true)) {
                validators.put(e.getName(), validator(e));
            }
        }
        List<PasswordPolicy> all = new ArrayList<>();
        PasswordPolicy byDefault = PasswordPolicy.withoutLockout(PasswordPolicies.DEFAULT_DN);
        for (Entry e : entries.values()) {
            if (e.getName().isChildOf(PasswordPolicies.PARENT)) {
                PasswordPolicy p = policy(e, validators);
                all.add(p);
                if (p.dn().equals(PasswordPolicies.DEFAULT_DN)) {
                    byDefault = p;
                }
            }
        }
        return new PasswordPolicies(byDefault, all);
    }

    private static PasswordPolicy policy(Entry e, Map<DN, PasswordValidator> validators) throws ConfigException {
        int count = ConfigLoader.integer(e, "ds-cfg-lockout-failure-count", 0, 0, 1_000_000);
        Duration duration = duration(e, "ds-cfg-lockout-duration");
        Duration expiry = duration(e, "ds-cfg-lockout-failure-expiration-interval");
        PasswordPolicy.Expiry passwordExpiry = new PasswordPolicy.Expiry(duration(e, "ds-cfg-max-password-age"),
                duration(e, "ds-cfg-password-expiration-warning-interval", "5 d"),
                ConfigLoader.integer(e, "ds-cfg-grace-login-count", 0, 0, 1_000),
                duration(e, "ds-cfg-min-password-age"));
        List<PasswordValidator> used = new ArrayList<>();
        Attribute named = e.getAttribute("ds-cfg-password-validator");
        for (ByteString v : named == null ? List.<ByteString>of() : named) {
            DN dn = ConfigLoader.dn(e, "ds-cfg-password-validator", v.toString());
            PasswordValidator validator = validators.get(dn);
            if (validator == null) {
                throw new ConfigException(e.getName() + ": ds-cfg-password-validator: " + dn
                        + " is not an enabled validator under " + VALIDATORS);
            }
            used.add(validator);
        }
        return new PasswordPolicy(e.getName(), count, duration, expiry, passwordExpiry,
                ConfigLoader.integer(e, "ds-cfg-password-history-count", 0, 0, 100), used,
                ConfigLoader.bool(e, "ds-cfg-force-change-on-reset", false), onBind(e));
    }

    /** The last-login time and the rehash of deprecated schemes (off unless configured). */
    private static PasswordPolicy.OnBind onBind(Entry e) throws ConfigException {
        String attribute = ConfigLoader.string(e, "ds-cfg-last-login-time-attribute", null);
        String pattern = ConfigLoader.string(e, "ds-cfg-last-login-time-format", null);
        DateTimeFormatter format = null;
        if (attribute != null) {
            try {
                format = DateTimeFormatter.ofPattern(pattern == null ? "yyyyMMdd" : pattern, Locale.ROOT)
                        .withZone(ZoneOffset.UTC);
                format.format(Instant.EPOCH); // a pattern naming fields an instant lacks fails here, not at a bind
            } catch (IllegalArgumentException | DateTimeException ex) {
                throw new ConfigException(e.getName() + ": ds-cfg-last-login-time-format: '" + pattern
                        + "' is not a date-time pattern (e.g. yyyyMMdd, yyyyMMddHHmmss'Z'): " + ex.getMessage());
            }
        } else if (pattern != null) {
            throw new ConfigException(e.getName() + ": ds-cfg-last-login-time-format needs "
                    + "ds-cfg-last-login-time-attribute (e.g. ds-pwp-last-login-time)");
        }
        Set<String> deprecated = new HashSet<>();
        Attribute schemes = e.getAttribute("ds-cfg-deprecated-password-storage-scheme");
        for (ByteString v : schemes == null ? List.<ByteString>of() : schemes) {
            String name = v.toString().trim().toUpperCase(Locale.ROOT);
            if (!PasswordSchemes.knownNames().contains(name)) {
                throw new ConfigException(e.getName() + ": ds-cfg-deprecated-password-storage-scheme: unknown scheme '"
                        + v + "'; known schemes: " + new TreeSet<>(PasswordSchemes.knownNames()));
            }
            deprecated.add(name);
        }
        if (attribute == null && deprecated.isEmpty()) {
            return PasswordPolicy.OnBind.NOTHING;
        }
        return new PasswordPolicy.OnBind(attribute, format, deprecated,
                ConfigLoader.integer(e, "ds-cfg-max-rehashes-per-second", 100, 0, 1_000_000));
    }

    /** A validator entry, by its object class (OpenDJ's): length-based or character-set. */
    private static PasswordValidator validator(Entry e) throws ConfigException {
        if (hasObjectClass(e, "ds-cfg-length-based-password-validator")) {
            return new PasswordValidator.Length(e.getName(),
                    ConfigLoader.integer(e, "ds-cfg-min-password-length", 6, 0, 4096),
                    ConfigLoader.integer(e, "ds-cfg-max-password-length", 0, 0, 65536));
        }
        if (hasObjectClass(e, "ds-cfg-character-set-password-validator")) {
            List<PasswordValidator.CharacterSets.CharacterSet> sets = new ArrayList<>();
            Attribute a = e.getAttribute("ds-cfg-character-set");
            for (ByteString v : a == null ? List.<ByteString>of() : a) {
                sets.add(characterSet(e, v.toString()));
            }
            if (sets.isEmpty()) {
                throw new ConfigException(e.getName() + ": ds-cfg-character-set: at least one set is needed");
            }
            return new PasswordValidator.CharacterSets(e.getName(), sets,
                    ConfigLoader.bool(e, "ds-cfg-allow-unclassified-characters", true),
                    ConfigLoader.integer(e, "ds-cfg-min-character-sets", 0, 0, sets.size()));
        }
        throw new ConfigException(e.getName() + ": objectClass: not a validator this server has "
                + "(ds-cfg-length-based-password-validator, ds-cfg-character-set-password-validator)");
    }

    /** {@code N:characters}, as OpenDJ writes a character set. */
    private static PasswordValidator.CharacterSets.CharacterSet characterSet(Entry e, String v) throws ConfigException {
        int colon = v.indexOf(':');
        try {
            int n = Integer.parseInt(v.substring(0, Math.max(colon, 0)).trim());
            if (colon > 0 && colon < v.length() - 1 && n >= 0) {
                return new PasswordValidator.CharacterSets.CharacterSet(n, v.substring(colon + 1));
            }
        } catch (NumberFormatException ignored) {
            // reported below
        }
        throw new ConfigException(e.getName() + ": ds-cfg-character-set: '" + v
                + "' is not COUNT:CHARACTERS, such as 1:0123456789");
    }

    private static boolean hasObjectClass(Entry e, String name) {
        Attribute oc = e.getAttribute("objectClass");
        if (oc != null) {
            for (ByteString v : oc) {
                if (v.toString().equalsIgnoreCase(name)) {
                    return true;
                }
            }
        }
        return false;
    }

    private static Duration duration(Entry e, String attr) throws ConfigException {
        return duration(e, attr, "0 s");
    }

    private static Duration duration(Entry e, String attr, String dflt) throws ConfigException {
        return ConfigUnits.duration(e.getName() + ": " + attr, ConfigLoader.string(e, attr, dflt));
    }
}
