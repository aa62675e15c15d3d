package io.bindfirst.server.access.aci;

import java.time.ZonedDateTime;

import org.forgerock.opendj.ldap.Entry;

import io.bindfirst.server.access.Requester;

/**
 * What bind rules are evaluated against for one decision: who asks, the entry they want, and the server's
 * view of users and groups. Bind rules that need the requester's own entry (a {@code userdn} URL with a filter,
 * {@code userattr} with a value) read it once per context.
 */
final class AciContext {
    private final Requester who;
    private final Entry target;
    private final AciDirectory directory;
    private Entry requesterEntry;
    private boolean requesterEntryRead;
    private ZonedDateTime now;

    AciContext(Requester who, Entry target, AciDirectory directory) {
        this.who = who;
        this.target = target;
        this.directory = directory;
    }

    Requester who() {
        return who;
    }

    Entry target() {
        return target;
    }

    AciDirectory directory() {
        return directory;
    }

    /** The requester's own entry, or {@code null} (anonymous, a root user outside the backends, gone). */
    Entry requesterEntry() {
        if (!requesterEntryRead) {
            requesterEntryRead = true;
            requesterEntry = who.isAnonymous() ? null : directory.entry(who.dn());
        }
        return requesterEntry;
    }

    ZonedDateTime now() {
        if (now == null) {
            now = ZonedDateTime.now(directory.clock());
        }
        return now;
    }
}
