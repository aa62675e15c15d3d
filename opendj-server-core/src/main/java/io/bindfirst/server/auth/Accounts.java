package io.bindfirst.server.auth;

import java.util.HashSet;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongSupplier;

import org.forgerock.i18n.LocalizedIllegalArgumentException;
import org.forgerock.opendj.ldap.Attribute;
import org.forgerock.opendj.ldap.ByteSequence;
import org.forgerock.opendj.ldap.AttributeDescription;
import org.forgerock.opendj.ldap.DN;
import org.forgerock.opendj.ldap.Entry;
import org.forgerock.opendj.ldap.GeneralizedTime;
import org.forgerock.opendj.ldap.LinkedAttribute;
import org.forgerock.opendj.ldap.LinkedHashMapEntry;
import org.forgerock.opendj.ldap.schema.Schema;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.bindfirst.server.backend.Backend;
import io.bindfirst.server.backend.BackendException;
import io.bindfirst.server.backend.EntryChange;
import io.bindfirst.server.backend.EntryWriter;
import io.bindfirst.server.commit.AfterAnswer;
import io.bindfirst.server.commit.Change;
import io.bindfirst.server.commit.ChangeListener;
import io.bindfirst.server.commit.CommitPath;
import io.bindfirst.server.pwd.PasswordAttribute;
import io.bindfirst.server.pwd.PasswordPolicies;
import io.bindfirst.server.pwd.PasswordPolicy;

/**
 * Whether an account may authenticate now, and the lockout that failed binds lead to: the entry's state
 * ({@code ds-pwp-account-disabled}, {@code pwdAccountLockedTime}) read under the password policy that applies
 * to it, and the failures counted in memory ({@link LoginFailures}). Thread-safe.
 *
 * <p>A lock is the one write lockout makes: {@code pwdAccountLockedTime} set to the time of the failure that
 * reached the count, durable before the bind answers, so a restart does not unlock the account. A lock with a
 * policy duration ends by itself when the duration has passed (the value stays, and means nothing any more,
 * until the next lock replaces it or an administrator deletes it); without one it lasts until an administrator
 * deletes the value.
 */
public final class Accounts implements ChangeListener {
    private static final Logger LOG = LoggerFactory.getLogger(Accounts.class);

    private final PasswordPolicies policies;
    private final LoginFailures failures = new LoginFailures();
    /** Locks and grace logins written since the start, for cn=monitor. */
    private final LongAdder locksWritten = new LongAdder();
    private final LongAdder graceLoginsUsed = new LongAdder();
    private final PasswordAttribute password;
    private final LongSupplier clock;
    private final AttributeDescription disabled;
    private final AttributeDescription lockedTime;
    private final AttributeDescription policyDn;
    private final AttributeDescription changedTime;
    private final AttributeDescription graceUseTime;
    private final PasswordChanges changes;
    private final AfterBind afterBind;
    private final EntryWriter writer;
    private final AuthenticationInfo.UserAttributes userAttributes;

    /**
     * @param schema the server schema (it defines the account attributes)
     * @param password the password attribute, to tell a new password in a write
     * @param clock the current time in milliseconds ({@code System::currentTimeMillis} but in tests)
     * @param commits where the writes a bind queues for after its answer are committed
     */
    public Accounts(Schema schema, PasswordPolicies policies, PasswordAttribute password, LongSupplier clock,
                    CommitPath commits) {
        this(schema, policies, password, clock, commits, EntryWriter.LOCAL);
    }

    /**
     * As the other constructor, with the account updates binds make (locks, grace logins, last-login times,
     * rehashes) written through {@code writer}: on a replica, the master makes them.
     */
    public Accounts(Schema schema, PasswordPolicies policies, PasswordAttribute password, LongSupplier clock,
                    CommitPath commits, EntryWriter writer) {
        this.writer = writer;
        this.policies = policies;
        this.password = password;
        this.clock = clock;
        this.disabled = AttributeDescription.valueOf("ds-pwp-account-disabled", schema);
        this.lockedTime = AttributeDescription.valueOf("pwdAccountLockedTime", schema);
        this.policyDn = AttributeDescription.valueOf("ds-pwp-password-policy-dn", schema);
        this.changedTime = PasswordChanges.changedTime(schema);
        this.graceUseTime = PasswordChanges.graceUseTime(schema);
        this.changes = new PasswordChanges(schema, this, password, clock);
        this.afterBind = new AfterBind(schema, policies, password, clock, commits, writer);
        this.userAttributes = AuthenticationInfo.UserAttributes.of(schema);
    }

    /** Who a bind as {@code entry} authenticates as: its DN, per-user limits, pending reset and privileges. */
    public AuthenticationInfo authenticationInfo(Entry entry) {
        return AuthenticationInfo.user(entry, userAttributes);
    }

    /**
     * The password policy of {@code entry}: the one its {@code ds-pwp-password-policy-dn} names, or the default.
     * {@code null} if it names a policy that is not configured: such an account cannot authenticate (as in
     * OpenDJ), since the rules meant for it are unknown.
     */
    public PasswordPolicy policyOf(Entry entry) {
        Attribute a = entry.getAttribute(policyDn);
        if (a == null || a.isEmpty()) {
            return policies.defaultPolicy();
        }
        try {
            return policies.named(DN.valueOf(a.firstValueAsString()));
        } catch (LocalizedIllegalArgumentException e) {
            return null;
        }
    }

    /**
     * {@code "disabled"}, {@code "locked"} or {@code "without a password policy"} if the account may not
     * authenticate now, else {@code null}. A reason is for logs and disconnection notices, never for a bind
     * result: a refused account answers a bind as a wrong password does.
     */
    public String whyRefused(Entry entry) {
        return account(entry).whyRefused();
    }

    /**
     * {@code entry}'s account with its password policy resolved once: what a bind asks of it, several times, and
     * a write's listener once.
     */
    public Account account(Entry entry) {
        return new Account(this, entry, policyOf(entry));
    }

    String whyRefused(Entry entry, PasswordPolicy policy) {
        Attribute d = entry.getAttribute(disabled);
        if (d != null && !d.isEmpty() && "true".equalsIgnoreCase(d.firstValueAsString())) {
            return "disabled";
        }
        if (policy == null) {
            LOG.warn("{} names a password policy that is not configured ({}): it cannot authenticate",
                    entry.getName(), entry.getAttribute(policyDn).firstValueAsString());
            return "without a password policy";
        }
        return isLocked(entry, policy) ? "locked" : null;
    }

    /** Whether the account is locked now under its policy (the Password Policy control's accountLocked). */
    public boolean isLocked(Entry entry) {
        return account(entry).isLocked();
    }

    boolean isLocked(Entry entry, PasswordPolicy policy) {
        if (policy == null) {
            return false;
        }
        Attribute l = entry.getAttribute(lockedTime);
        return l != null && !l.isEmpty() && policy.locks(l.firstValueAsString(), clock.getAsLong());
    }

    /**
     * Counts a failed bind of {@code entry}'s account (a wrong password; not a refused account).
     *
     * @return true if this failure locks the account: the caller then calls {@link #lock}, where it may block
     */
    public boolean failed(Entry entry) {
        return account(entry).failed();
    }

    boolean failed(Entry entry, PasswordPolicy policy) {
        if (policy == null || !policy.locksOut()) {
            return false;
        }
        return failures.failed(entry.getName(), policy.lockoutFailureCount(),
                policy.failureExpiration().toMillis(), clock.getAsLong());
    }

    /** What writes that change a password do under the policies: the history's check, the stamps. */
    public PasswordChanges passwordChanges() {
        return changes;
    }

    /** A successful bind: the account's failures are forgotten. Costs nothing while no account has failures. */
    public void succeeded(DN account) {
        failures.forget(account);
    }

    /**
     * A successful bind of {@code entry}'s account: its failures are forgotten, and what its policy has a bind
     * write is queued, after the answer ({@link AfterBind}). Costs a field read while no policy writes anything.
     *
     * @param clear the password the bind proved, or {@code null} for a bind without one (SASL EXTERNAL)
     */
    public void succeeded(Backend backend, Entry entry, ByteSequence clear) {
        account(entry).succeeded(backend, clear);
    }

    void succeeded(Backend backend, Entry entry, PasswordPolicy policy, ByteSequence clear) {
        failures.forget(entry.getName());
        if (afterBind.anyPolicyWrites() && policy != null
                && (policy.onBind().recordsLastLogin() || policy.onBind().rehashes())) {
            afterBind.succeeded(backend, entry, clear, policy);
        }
    }

    /** The bind-driven writes (last login, rehash), for cn=monitor and the tests. */
    public AfterBind afterBind() {
        return afterBind;
    }

    /** Lets the bind-driven writes that wait finish; called at shutdown, before the backends close. */
    public void close() {
        afterBind.close();
    }

    /**
     * Forgets the failures a committed change makes moot: of a deleted or renamed entry (and those below it), and
     * of an account given a new password. Called for every change before its answer, so a client that sees the
     * write acknowledged never has a failure from before it counted after it. Bookkeeping changes nothing here.
     */
    @Override
    public void committed(Change change, AfterAnswer afterAnswer) {
        if (failures.accounts() == 0 || change.bookkeeping()) {
            return;
        }
        Entry before = change.before();
        Entry after = change.after();
        if (before == null) {
            return; // an add: a deleted entry of that name was forgotten with its delete
        }
        if (change.leftItsDn()) {
            failures.forgetAtOrBelow(before.getName());
        } else if (!new HashSet<>(password.storedValues(before)).equals(new HashSet<>(password.storedValues(after)))) {
            failures.forget(before.getName());
        }
    }

    /** Accounts with failed binds counted in memory (not yet forgotten, expired out or locked). */
    public int accountsWithFailures() {
        return failures.accounts();
    }

    /** Accounts locked by failed binds since the start. */
    public long locksWritten() {
        return locksWritten.sum();
    }

    /** Grace logins of expired passwords used since the start. */
    public long graceLoginsUsed() {
        return graceLoginsUsed.sum();
    }

    /** The failures that count now against {@code entry}'s account, under its policy. */
    public int failureCount(Entry entry) {
        PasswordPolicy policy = policyOf(entry);
        return policy == null ? 0 : failures.count(entry.getName(), policy.failureExpiration().toMillis(),
                clock.getAsLong());
    }

    /**
     * Where a password that just matched stands under its policy's maximum age. An entry without
     * {@code pwdChangedTime} (its password set before the server kept it, or loaded without it) never expires.
     */
    public PasswordAge passwordAge(Entry entry) {
        return account(entry).passwordAge();
    }

    PasswordAge passwordAge(Entry entry, PasswordPolicy policy) {
        if (policy == null || !policy.expiry().expires()) {
            return PasswordAge.CURRENT;
        }
        Attribute changed = entry.getAttribute(changedTime);
        if (changed == null || changed.isEmpty()) {
            return PasswordAge.CURRENT;
        }
        long expiresAt;
        try {
            expiresAt = GeneralizedTime.valueOf(changed.firstValueAsString()).getTimeInMillis()
                    + policy.expiry().maxAge().toMillis();
        } catch (LocalizedIllegalArgumentException e) {
            return PasswordAge.CURRENT; // the schema checks the syntax on write
        }
        long left = expiresAt - clock.getAsLong();
        if (left <= 0) {
            Attribute used = entry.getAttribute(graceUseTime);
            int graceLeft = policy.expiry().graceLogins() - (used == null ? 0 : used.size());
            return new PasswordAge(true, 0, Math.max(0, graceLeft));
        }
        if (left <= policy.expiry().warning().toMillis()) {
            return new PasswordAge(false, Math.max(1, left / 1000), 0);
        }
        return PasswordAge.CURRENT;
    }

    /**
     * Where a password stands: expired (with the grace logins it has left), about to (seconds left, for the
     * Password Policy control's warning), or neither.
     *
     * @param secondsToExpiry above 0 within the policy's warning interval, else 0
     */
    public record PasswordAge(boolean expired, long secondsToExpiry, int graceLoginsLeft) {
        public static final PasswordAge CURRENT = new PasswordAge(false, 0, 0);
    }

    /**
     * Records a grace login of an expired password: adds now to {@code pwdGraceUseTime}, in one backend
     * transaction (which may block), as {@link #lock} does; the caller commits the change as for a lock.
     */
    public EntryChange useGraceLogin(Backend backend, DN account) throws BackendException {
        String now = GeneralizedTime.valueOf(clock.getAsLong()).toString();
        graceLoginsUsed.increment();
        return writer.modify(backend, account, current -> {
            Entry next = LinkedHashMapEntry.deepCopyOfEntry(current);
            Attribute used = next.getAttribute(graceUseTime);
            LinkedAttribute more = used == null ? new LinkedAttribute(graceUseTime) : new LinkedAttribute(used);
            more.add(now);
            next.replaceAttribute(more);
            return next;
        });
    }

    /**
     * Locks the account: sets {@code pwdAccountLockedTime} to now in one backend transaction (which may block).
     * The caller hands the change to the {@link CommitPath}, as a write does.
     *
     * @throws BackendException if the entry is gone or the backend failed
     */
    public EntryChange lock(Backend backend, DN account) throws BackendException {
        String now = GeneralizedTime.valueOf(clock.getAsLong()).toString();
        EntryChange change = writer.modify(backend, account, current -> {
            Entry next = LinkedHashMapEntry.deepCopyOfEntry(current);
            next.replaceAttribute(new LinkedAttribute(lockedTime, now));
            return next;
        });
        locksWritten.increment();
        LOG.info("{} is locked: its failed binds reached its password policy's lockout count", account);
        return change;
    }
}
