package io.bindfirst.server.backend;

import org.forgerock.opendj.ldap.Entry;

/**
 * An entry before and after a committed write, as the backend returns it: what a
 * {@link io.bindfirst.server.commit.Change} and the post-operation and post-response plugins are made of.
 *
 * @param before the entry as it was (for a rename: under its old DN)
 * @param after the entry as it is now (for a rename: under its new DN)
 */
public record EntryChange(Entry before, Entry after) {
}
