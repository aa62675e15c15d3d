package io.bindfirst.server.backend;

import java.nio.file.Path;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import java.util.function.LongConsumer;

import org.forgerock.opendj.ldap.Entry;
import org.forgerock.opendj.ldap.ResultCode;

/**
 * What the tools do with a backend's storage (import-ldif, backup and restore, rebuild-index, verify-index, the
 * entry counts they report), apart from what operations do ({@link Backend}). A backend without storage of its
 * own refuses all of it ({@link #REFUSED}).
 */
public interface BackendMaintenance {

    /** Refuses every request with {@code UNWILLING_TO_PERFORM}: for {@code cn=config} and {@code cn=monitor}. */
    BackendMaintenance REFUSED = new BackendMaintenance() {
        private BackendException refused() {
            return new BackendException(ResultCode.UNWILLING_TO_PERFORM,
                    "This backend has no storage of its own to import, back up, index, verify or count");
        }

        @Override
        public long importEntries(Iterator<Entry> entries) throws BackendException {
            throw refused();
        }

        @Override
        public <T extends ImportItem> long importEntries(Iterator<T> items, ImportRejects<? super T> rejects)
                throws BackendException {
            throw refused();
        }

        @Override
        public long entryCount() throws BackendException {
            throw refused();
        }
    };

    /**
     * Loads many entries, parents before children, in large transactions: for the first start's
     * sample data and LDIF imports, where one transaction per entry would take minutes.
     *
     * @return how many entries were added
     */
    long importEntries(Iterator<Entry> entries) throws BackendException;

    /**
     * Like {@link #importEntries(Iterator)}, except that an entry the backend cannot store (its parent is
     * missing, its DN is taken or outside the base DNs) goes to {@code rejects}, once, and the import goes on:
     * for import-ldif, which names each refused entry with its reason. Every other error stops the import
     * (what was committed before stays).
     *
     * @return how many entries were added
     */
    <T extends ImportItem> long importEntries(Iterator<T> items, ImportRejects<? super T> rejects)
            throws BackendException;

    /** Whether an add failed because of the entry itself (where it would go), not because of the backend. */
    static boolean isEntryRefusal(BackendException e) {
        ResultCode code = e.resultCode();
        return code.equals(ResultCode.ENTRY_ALREADY_EXISTS) || code.equals(ResultCode.NO_SUCH_OBJECT)
                || code.equals(ResultCode.INVALID_DN_SYNTAX);
    }

    /**
     * Copies a consistent state of the backend's storage into the empty directory {@code dir} while writes go
     * on, then writes its {@link BackupManifest} there, last. Runs in the process that has the storage open:
     * the server for an online backup, the backup tool offline.
     *
     * @throws BackendException {@code UNWILLING_TO_PERFORM} for a backend that cannot be backed up, or a
     *         directory that is not empty
     */
    default BackupManifest backup(Path dir) throws BackendException {
        throw new BackendException(ResultCode.UNWILLING_TO_PERFORM, "This backend cannot be backed up");
    }

    /**
     * Rebuilds the named indexes from the stored entries: each is emptied, then every entry is indexed again.
     * For a backend no operation is using (the offline {@code rebuild-index} tool): readers meanwhile would see
     * an index being filled. An index rebuilt only in part (the process was stopped) must not be trusted
     * afterwards: the backend builds it again when it next opens.
     *
     * @param names the indexes, by the attribute names they were configured with (any case)
     * @param progress called now and then with the number of entries indexed so far
     * @return how many entries were indexed
     * @throws BackendException {@code UNWILLING_TO_PERFORM} for a backend without indexes to rebuild (this
     *         default) or a name that is not one of its indexes (the message names those it has)
     */
    default long rebuildIndexes(Set<String> names, LongConsumer progress) throws BackendException {
        throw new BackendException(ResultCode.UNWILLING_TO_PERFORM, "This backend has no indexes to rebuild");
    }

    /**
     * Checks that the backend's storage agrees with itself: every entry reachable by its DN and from its parent,
     * the DN index and the entries naming each other, every index holding what the entries say and nothing
     * else. Meant for a backend nothing writes to meanwhile (a stopped server's, opened offline).
     *
     * @return the problems found, one sentence each; empty when there are none
     * @throws BackendException {@code UNWILLING_TO_PERFORM} for a backend that cannot check itself
     */
    default List<String> verify() throws BackendException {
        throw new BackendException(ResultCode.UNWILLING_TO_PERFORM, "This backend cannot verify its storage");
    }

    /** How many entries the backend holds. */
    long entryCount() throws BackendException;
}
