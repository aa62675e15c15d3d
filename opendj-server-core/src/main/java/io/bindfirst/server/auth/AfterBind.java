package io.bindfirst.server.auth;

import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongSupplier;

import org.forgerock.opendj.ldap.Attribute;
import org.forgerock.opendj.ldap.ByteSequence;
import org.forgerock.opendj.ldap.ByteString;
import org.forgerock.opendj.ldap.DN;
import org.forgerock.opendj.ldap.Entry;
import org.forgerock.opendj.ldap.LinkedAttribute;
import org.forgerock.opendj.ldap.LinkedHashMapEntry;
import org.forgerock.opendj.ldap.AttributeDescription;
import org.forgerock.opendj.ldap.schema.Schema;

import io.bindfirst.server.backend.Backend;
import io.bindfirst.server.backend.EntryUpdate;
import io.bindfirst.server.backend.EntryWriter;
import io.bindfirst.server.commit.CommitPath;
import io.bindfirst.server.pwd.PasswordAttribute;
import io.bindfirst.server.pwd.PasswordPolicies;
import io.bindfirst.server.pwd.PasswordPolicy;
import io.bindfirst.server.pwd.PasswordSchemes;

/**
 * What a successful bind writes under its password policy ({@link PasswordPolicy.OnBind}), decided on the bind's
 * thread from the entry it read and written after its answer by {@link DeferredAccountWrites}:
 * <ul>
 * <li>the last-login time, only when its formatted value (at the policy's precision) differs from the stored
 * one: with {@code yyyyMMdd}, a busy account's first bind of the day writes and its other binds that day do not.
 * The time written is the write's, a few milliseconds after the bind's while the writer keeps up;</li>
 * <li>a password stored in a deprecated scheme, replaced by the same password in the default scheme (hashed on
 * the writer's thread), at most the policy's number a second; a bind beyond that leaves the account for a later
 * bind.</li>
 * </ul>
 * Thread-safe.
 */
public final class AfterBind implements AutoCloseable {
    private final DeferredAccountWrites writes;
    private final PasswordAttribute password;
    private final PasswordSchemes schemes;
    private final LongSupplier clock;
    /** Per policy keeping a last-login time: its attribute, and the time formatted for the current second. */
    private final Map<DN, LastLogin> lastLogins;
    /** Per policy that rehashes: the replacements started in the current second. */
    private final Map<DN, Rate> rehashRates;
    private final LongAdder lastLoginsQueued = new LongAdder();
    private final LongAdder rehashesQueued = new LongAdder();
    private final LongAdder rehashesPostponed = new LongAdder();

    AfterBind(Schema schema, PasswordPolicies policies, PasswordAttribute password, LongSupplier clock,
              CommitPath commits, EntryWriter writer) {
        this.writes = new DeferredAccountWrites(commits, writer);
        this.password = password;
        this.schemes = password.schemes();
        this.clock = clock;
        Map<DN, LastLogin> logins = new HashMap<>();
        Map<DN, Rate> rates = new HashMap<>();
        for (PasswordPolicy p : policies.all()) {
            PasswordPolicy.OnBind onBind = p.onBind();
            if (onBind.recordsLastLogin()) {
                if (!schema.hasAttributeType(onBind.lastLoginAttribute())) {
                    throw new IllegalArgumentException(p.dn() + ": ds-cfg-last-login-time-attribute: no attribute "
                            + "type " + onBind.lastLoginAttribute() + " in the schema (ds-pwp-last-login-time is)");
                }
                logins.put(p.dn(), new LastLogin(AttributeDescription.valueOf(onBind.lastLoginAttribute(), schema),
                        onBind.lastLoginFormat()));
            }
            if (onBind.rehashes()) {
                rates.put(p.dn(), new Rate(onBind.maxRehashesPerSecond()));
            }
        }
        this.lastLogins = Map.copyOf(logins);
        this.rehashRates = Map.copyOf(rates);
    }

    /** Whether some policy has binds write anything (if none does, a bind need not look up its policy again). */
    boolean anyPolicyWrites() {
        return !lastLogins.isEmpty() || !rehashRates.isEmpty();
    }

    /** The successful bind of {@code entry} (read with the bind attributes) under {@code policy}. */
    void succeeded(Backend backend, Entry entry, ByteSequence clear, PasswordPolicy policy) {
        long now = clock.getAsLong();
        LastLogin login = lastLogins.get(policy.dn());
        if (login != null) {
            String value = login.formatted(now);
            Attribute stored = entry.getAttribute(login.type());
            if (stored == null || stored.isEmpty() || !value.equals(stored.firstValueAsString())) {
                if (writes.submit(backend, entry.getName(), setLastLogin(login))) {
                    lastLoginsQueued.increment();
                }
            }
        }
        Rate rate = rehashRates.get(policy.dn());
        if (rate != null && clear != null && storedInDeprecatedScheme(entry, policy)) {
            if (!rate.tryAcquire(now)) {
                rehashesPostponed.increment();
            } else if (writes.submit(backend, entry.getName(), rehash(clear.toByteString(), policy))) {
                rehashesQueued.increment();
            }
        }
    }

    private boolean storedInDeprecatedScheme(Entry entry, PasswordPolicy policy) {
        for (ByteString v : password.storedValues(entry)) {
            String scheme = schemes.schemeName(v);
            if (scheme != null && policy.onBind().deprecatedSchemes().contains(scheme)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Sets the last-login time, formatted when the writer makes the write (the first time the backend applies the
     * update; a retry stores the same value), not when the bind asked: writes are made one at a time, so a write
     * never stores a time older than the one before it, whatever order racing binds asked in.
     */
    private EntryUpdate setLastLogin(LastLogin login) {
        String[] value = {null};
        return current -> {
            if (value[0] == null) {
                value[0] = login.formatted(clock.getAsLong());
            }
            Attribute stored = current.getAttribute(login.type());
            if (stored != null && stored.size() == 1 && value[0].equals(stored.firstValueAsString())) {
                throw new DeferredAccountWrites.Unchanged(); // another bind of this account wrote it first
            }
            Entry next = LinkedHashMapEntry.deepCopyOfEntry(current);
            next.replaceAttribute(new LinkedAttribute(login.type(), value[0]));
            return next;
        };
    }

    /**
     * Replaces the stored values in a deprecated scheme that {@code clear} matches with {@code clear} in the
     * default scheme, hashed once, on the writer's thread, the first time the backend applies the update (a
     * retry stores the same value). Nothing is written if the password changed since the bind.
     */
    private EntryUpdate rehash(ByteString clear, PasswordPolicy policy) {
        ByteString[] encoded = {null};
        return current -> {
            List<ByteString> kept = new ArrayList<>();
            boolean replaced = false;
            for (ByteString v : password.storedValues(current)) {
                String scheme = schemes.schemeName(v);
                if (scheme != null && policy.onBind().deprecatedSchemes().contains(scheme)
                        && schemes.verify(clear, v)) {
                    replaced = true;
                } else {
                    kept.add(v);
                }
            }
            if (!replaced) {
                throw new DeferredAccountWrites.Unchanged();
            }
            if (encoded[0] == null) {
                encoded[0] = schemes.encode(clear);
            }
            kept.add(encoded[0]);
            Entry next = LinkedHashMapEntry.deepCopyOfEntry(current);
            LinkedAttribute values = new LinkedAttribute(password.description());
            values.addAll(kept);
            next.replaceAttribute(values);
            return next;
        };
    }

    /** Last-login times queued since the start (a write each, unless another bind's wrote it first). */
    public long lastLoginsQueued() {
        return lastLoginsQueued.sum();
    }

    /** Passwords queued to move off a deprecated scheme since the start. */
    public long rehashesQueued() {
        return rehashesQueued.sum();
    }

    /** Binds of a password in a deprecated scheme left for later by the rate limit. */
    public long rehashesPostponed() {
        return rehashesPostponed.sum();
    }

    /** The writes themselves: made, dropped, waiting. */
    public DeferredAccountWrites writes() {
        return writes;
    }

    @Override
    public void close() {
        writes.close();
    }

    /** A policy's last-login attribute and format, with the formatted time of the current second. */
    private static final class LastLogin {
        private final AttributeDescription type;
        private final DateTimeFormatter format;
        /** Formatting costs more than the rest of a bind's bookkeeping: once a second is enough. */
        private final AtomicReference<Stamp> latest = new AtomicReference<>(new Stamp(Long.MIN_VALUE, ""));

        LastLogin(AttributeDescription type, DateTimeFormatter format) {
            this.type = type;
            this.format = format;
        }

        AttributeDescription type() {
            return type;
        }

        String formatted(long nowMillis) {
            long second = Math.floorDiv(nowMillis, 1000L);
            Stamp s = latest.get();
            if (s.second() != second) {
                s = new Stamp(second, format.format(Instant.ofEpochSecond(second)));
                latest.set(s);
            }
            return s.text();
        }

        private record Stamp(long second, String text) {
        }
    }

    /** At most {@code perSecond} permits in each wall-clock second. */
    private static final class Rate {
        private final int perSecond;
        private long second = Long.MIN_VALUE;
        private int used;

        Rate(int perSecond) {
            this.perSecond = perSecond;
        }

        synchronized boolean tryAcquire(long nowMillis) {
            long now = Math.floorDiv(nowMillis, 1000L);
            if (now != second) {
                second = now;
                used = 0;
            }
            if (used >= perSecond) {
                return false;
            }
            used++;
            return true;
        }
    }
}
