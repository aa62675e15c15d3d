package io.bindfirst.server.auth;

import java.util.concurrent.atomic.AtomicLong;

import io.bindfirst.server.commit.AfterAnswer;
import io.bindfirst.server.commit.Change;
import io.bindfirst.server.commit.ChangeListener;

/**
 * Counts committed writes, so a bind can tell cheaply whether its entry may have changed while it was
 * verifying the password: the race between a bind and the delete, rename or disabling of its own entry.
 *
 * <p>The protocol: a writer commits, then {@link #advance()}, then the registry's listener scans
 * {@link AuthenticatedUsers} (both on the {@link io.bindfirst.server.commit.CommitPath}, in that order). A bind
 * reads {@link #current()} before reading its entry, registers, then reads it again. If unchanged, the bind
 * registered before the advance, so the writer's later scan finds it; if changed, the bind re-reads its entry
 * (which then shows the commit) and fails if it is gone.
 * Either way no connection stays bound to a deleted or renamed entry, and the common bind pays two
 * volatile reads instead of a second backend read.
 */
public final class WriteEpoch implements ChangeListener {
    private final AtomicLong epoch = new AtomicLong();

    public long current() {
        return epoch.get();
    }

    /** Called for every change right after its commit, before the registry's scan and the response. */
    public void advance() {
        epoch.incrementAndGet();
    }

    /** Advances for every change but bookkeeping, which changes nothing a bind decides on. */
    @Override
    public void committed(Change change, AfterAnswer afterAnswer) {
        if (!change.bookkeeping()) {
            advance();
        }
    }
}
