package io.bindfirst.server.plugin;

import java.util.Optional;

import org.forgerock.opendj.ldap.ResultCode;

import io.bindfirst.server.backend.EntryChange;

/**
 * What a post-operation or post-response plugin may read: the request's view plus its outcome.
 * Read-only; hooks check {@link #resultCode()} for SUCCESS before acting on a write's {@link #change()}.
 */
public interface CompletedOperationView extends OperationView {
    ResultCode resultCode();

    /**
     * The entry before and after a successful write: for add, before is {@code null}; for delete, after
     * is {@code null}; for modify DN, after is under the new DN. Empty for reads and failed writes. A bind has
     * one only when its failure locked the account (password policy lockout): the lock it wrote.
     */
    Optional<EntryChange> change();
}
