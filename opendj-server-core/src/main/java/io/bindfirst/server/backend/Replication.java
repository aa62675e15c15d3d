package io.bindfirst.server.backend;

import java.util.function.Consumer;

/**
 * What a replicated backend tells the server: the changes it replays from its group's master, and where it stands
 * in the group. A backend that is not replicated answers {@link #NONE}.
 */
public interface Replication {

    /** The node's part in its group, as the storage engine last said. */
    enum Role {
        /** Takes writes. */
        MASTER,
        /** Replays the master's writes; serves reads. */
        REPLICA,
        /** In no group that has a master (an election under way, or no majority reachable): serves reads. */
        UNKNOWN,
        /** Not replicated. */
        STANDALONE
    }

    /**
     * Where the node stands.
     *
     * @param role its part now
     * @param group its group's name ({@code null} when standalone)
     * @param node its own name ({@code null} when standalone)
     * @param master the master's node name, or {@code null} when none is known
     * @param masterAddress the master's replication address ({@code host:port}), or {@code null}
     */
    record Status(Role role, String group, String node, String master, String masterAddress) {
    }

    /**
     * Hands {@code sink} every change this node applies from the master from now on, in commit order, on the thread
     * that applied it, once the change is visible to reads and before this node acknowledges it to the master. A
     * change replayed while the storage opened, before this call, is not handed to anyone: nothing had read the
     * storage yet. One made since, if any, is handed first: replay waits for this call (see the implementation).
     * Called once, by the server, after the listeners of committed changes are in place.
     */
    void follow(Consumer<EntryChange> sink);

    /** Where the node stands now. */
    Status status();

    /**
     * How far this node is behind its master, in milliseconds: 0 on the master; on a replica, how long after its
     * master committed the last change this node applied, applied it (the storage engine's measure); -1 when
     * there is no master to be behind.
     */
    default long lagMillis() {
        return -1;
    }

    /**
     * Tells the other nodes of the group how to reach this one over LDAP ({@code ldap://host:port}): a replica that
     * forwards a write, or answers a referral, names the master's. Called once the server's listeners are open.
     */
    default void advertise(String ldapUrl) {
        // a node of its own is reached by no other
    }

    /**
     * The master's LDAP URL as it advertised it, or {@code null} when there is no master, it is this node, or the
     * master cannot be asked now (it may block for a moment the first time a master is asked).
     */
    default String masterLdapUrl() {
        return null;
    }

    /**
     * Has {@code action} run, once, with the reason, when the storage engine says this node's storage must be
     * closed and opened again (JE's {@code RestartRequiredException}: a rollback of transactions its group never
     * confirmed, when a cut-off master rejoins; a node too far behind while it runs). Until then, the storage
     * answers nothing. If that happened before this call, {@code action} runs at once.
     */
    default void whenRestartRequired(java.util.function.Consumer<String> action) {
        // a storage of its own is never rolled back by others
    }

    /**
     * Waits, at most {@code timeoutMillis}, until this node has applied every change the master had committed when
     * asked: after a write this replica forwarded, so that the client reads it here next (read-your-writes).
     * Returns whether it got there.
     */
    default boolean awaitMaster(long timeoutMillis) {
        return true;
    }

    /** A backend that is not replicated. */
    Replication NONE = new Replication() {
        @Override
        public void follow(Consumer<EntryChange> sink) {
            // nothing is ever replayed
        }

        @Override
        public Status status() {
            return new Status(Role.STANDALONE, null, null, null, null);
        }
    };
}
