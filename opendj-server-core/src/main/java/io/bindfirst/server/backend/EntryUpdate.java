package io.bindfirst.server.backend;

import org.forgerock.opendj.ldap.Entry;

/**
 * Computes an entry's new content from its current one, inside the backend's write transaction, so that
 * two concurrent modifies of one entry cannot lose each other's changes. Must be a pure function of its
 * argument: the backend may call it again when it retries after a lock conflict.
 */
@FunctionalInterface
public interface EntryUpdate {
    /**
     * @param current the entry as stored now (never modified by the callee: return a copy)
     * @return the new entry
     * @throws BackendException with the LDAP result code to answer (e.g. attributeOrValueExists); the
     *         write is abandoned
     */
    Entry apply(Entry current) throws BackendException;
}
