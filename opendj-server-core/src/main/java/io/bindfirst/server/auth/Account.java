package io.bindfirst.server.auth;

import org.forgerock.opendj.ldap.ByteSequence;
import org.forgerock.opendj.ldap.Entry;

import io.bindfirst.server.backend.Backend;
import io.bindfirst.server.pwd.PasswordPolicy;

/**
 * One entry's account as a bind sees it, its password policy resolved once ({@link Accounts#account}): whether it
 * may authenticate now, what a wrong or a right password does to it, where its password stands. Immutable, for the
 * one bind that made it; the counts and writes it leads to are {@link Accounts}'.
 */
public final class Account {
    private final Accounts accounts;
    private final Entry entry;
    /** {@code null} when the entry names a policy that is not configured: such an account cannot authenticate. */
    private final PasswordPolicy policy;

    Account(Accounts accounts, Entry entry, PasswordPolicy policy) {
        this.accounts = accounts;
        this.entry = entry;
        this.policy = policy;
    }

    /** The entry as the bind read it. */
    public Entry entry() {
        return entry;
    }

    /** See {@link Accounts#whyRefused(Entry)}. */
    public String whyRefused() {
        return accounts.whyRefused(entry, policy);
    }

    /** Whether the account is locked now under its policy (the Password Policy control's accountLocked). */
    public boolean isLocked() {
        return accounts.isLocked(entry, policy);
    }

    /** See {@link Accounts#failed(Entry)}. */
    public boolean failed() {
        return accounts.failed(entry, policy);
    }

    /** See {@link Accounts#succeeded(Backend, Entry, ByteSequence)}. */
    public void succeeded(Backend backend, ByteSequence clear) {
        accounts.succeeded(backend, entry, policy, clear);
    }

    /** See {@link Accounts#passwordAge(Entry)}. */
    public Accounts.PasswordAge passwordAge() {
        return accounts.passwordAge(entry, policy);
    }

    /** Who a bind as this account authenticates as. */
    public AuthenticationInfo authenticationInfo() {
        return accounts.authenticationInfo(entry);
    }
}
