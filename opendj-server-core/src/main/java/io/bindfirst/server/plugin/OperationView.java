package io.bindfirst.server.plugin;

import org.forgerock.opendj.ldap.DN;

import io.bindfirst.server.auth.AuthenticationInfo;

/** What a plugin may read of an operation before it has a result. Read-only. */
public interface OperationView {
    OperationType operationType();

    long connectionId();

    long operationId();

    /** Who the requesting connection is authenticated as when the operation started. */
    AuthenticationInfo requester();

    /** The entry the operation targets (bind DN, search base, entry added/changed), or {@code null}. */
    DN targetDN();
}
