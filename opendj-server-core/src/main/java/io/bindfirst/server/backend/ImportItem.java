package io.bindfirst.server.backend;

import org.forgerock.opendj.ldap.Entry;

/**
 * One input of {@link Backend#importEntries(java.util.Iterator, ImportRejects)}: the entry to store, in a type
 * of the importer's that also says where the entry came from (an LDIF file's line, for the reject file).
 */
public interface ImportItem {
    Entry entry();
}
