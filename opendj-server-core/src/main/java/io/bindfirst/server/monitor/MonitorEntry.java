package io.bindfirst.server.monitor;

import org.forgerock.opendj.ldap.DN;

/**
 * One entry under {@code cn=monitor}: its name, and its values as they are at the moment it is read. An
 * implementation holds references to the live parts of the server it reports on, never copies of their numbers.
 */
public interface MonitorEntry {

    /** The entry's DN, fixed for the life of the server. */
    DN name();

    /** Adds the entry's current values (the object classes and the naming attribute are already there). */
    void addValues(MonitorValues out);
}
