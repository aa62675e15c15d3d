package io.bindfirst.server.backend;

import org.forgerock.opendj.ldap.Entry;

/** Receives search candidates from a {@link Backend}. */
@FunctionalInterface
public interface EntryVisitor {
    /** @return {@code false} to stop the search (size limit reached, abandoned, time limit) */
    boolean visit(Entry entry) throws BackendException;
}
