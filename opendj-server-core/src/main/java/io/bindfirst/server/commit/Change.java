package io.bindfirst.server.commit;

import org.forgerock.opendj.ldap.DN;
import org.forgerock.opendj.ldap.Entry;

import io.bindfirst.server.backend.EntryChange;

/**
 * One committed change to the directory, as every {@link ChangeListener} sees it: what kind it is, the entry as
 * stored before and after it, which connection made it, and whether it is bookkeeping.
 *
 * @param kind what the change did
 * @param before the entry as it was ({@code null} for an add); for a rename, under its old DN; for a subtree
 *        delete or rename, the base of the subtree (what is below it went or moved with it)
 * @param after the entry as it is now ({@code null} for a delete); for a rename, under its new DN
 * @param origin the number of the client connection whose operation made the change, or {@link #NO_CONNECTION}
 *        (a write no client waits for: one a bind queued, a referential integrity update)
 * @param bookkeeping true for the writes a successful bind queues after its answer (the last-login time, a
 *        password moved to another storage scheme): they change no one's right to authenticate, no access rule and
 *        no group, so the listeners that guard binds (the write epoch, the registry, the failure counts) pass over
 *        them, saying so, instead of the write skipping this path
 */
public record Change(Kind kind, Entry before, Entry after, long origin, boolean bookkeeping) {

    /** What a change did to its entry. */
    public enum Kind { ADD, DELETE, MODIFY, MODIFY_DN }

    /** The origin of a change that no client connection waits for. */
    public static final long NO_CONNECTION = -1;

    public Change {
        if (kind == null || (before == null && kind != Kind.ADD) || (after == null && kind != Kind.DELETE)) {
            throw new IllegalArgumentException("A " + kind + " change needs the entries it changed");
        }
    }

    /** The change a committed write made, its kind read from its entries; {@code origin} as for the record. */
    public static Change of(EntryChange written, long origin) {
        return new Change(kindOf(written), written.before(), written.after(), origin, false);
    }

    /** A bind's deferred bookkeeping write (see the record's {@code bookkeeping}); no client waits for it. */
    public static Change bookkeeping(EntryChange written) {
        return new Change(kindOf(written), written.before(), written.after(), NO_CONNECTION, true);
    }

    private static Kind kindOf(EntryChange c) {
        if (c.before() == null) {
            return Kind.ADD;
        }
        if (c.after() == null) {
            return Kind.DELETE;
        }
        return c.before().getName().equals(c.after().getName()) ? Kind.MODIFY : Kind.MODIFY_DN;
    }

    /** The entry's DN before the change, {@code null} for an add. */
    public DN dnBefore() {
        return before == null ? null : before.getName();
    }

    /** The entry's DN after the change, {@code null} for a delete. */
    public DN dnAfter() {
        return after == null ? null : after.getName();
    }

    /** Whether the entry left its DN: a delete or a rename (what is below it went or moved with it). */
    public boolean leftItsDn() {
        return kind == Kind.DELETE || kind == Kind.MODIFY_DN;
    }

    /** The entries before and after, as the backend returned them. */
    public EntryChange entries() {
        return new EntryChange(before, after);
    }
}
