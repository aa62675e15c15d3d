package io.bindfirst.server.backend;

import org.forgerock.opendj.ldap.DN;

/**
 * Where the server's own update of an account's entry goes (a lockout, a grace login, a last-login time, a
 * rehash): the entry's backend, or, on a replica of a replication group, the group's master (see
 * {@code replication.ReplicaWrites}), so that a bind on any node records what it must.
 */
@FunctionalInterface
public interface EntryWriter {
    /** Writes to the backend itself. */
    EntryWriter LOCAL = (backend, dn, update) -> backend.modifyEntry(dn, update);

    /**
     * Applies {@code update} to the entry {@code dn} of {@code backend}, durably, and returns the entry before and
     * after. May block.
     *
     * @throws BackendException as {@link Backend#modifyEntry} does, or when the write cannot be made now
     */
    EntryChange modify(Backend backend, DN dn, EntryUpdate update) throws BackendException;
}
