package io.bindfirst.server.backend;

import org.forgerock.opendj.ldap.ByteString;
import org.forgerock.opendj.ldap.Entry;

/**
 * Receives search candidates from {@link Backend#search(org.forgerock.opendj.ldap.DN,
 * org.forgerock.opendj.ldap.SearchScope, org.forgerock.opendj.ldap.Filter, ByteString, PositionedEntryVisitor)}
 * with each one's position: handing a position back resumes the search just after that entry.
 */
@FunctionalInterface
public interface PositionedEntryVisitor {
    /** @return {@code false} to stop the search */
    boolean visit(Entry entry, ByteString position) throws BackendException;
}
