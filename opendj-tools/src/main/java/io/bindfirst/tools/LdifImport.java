package io.bindfirst.tools;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Iterator;
import java.util.NoSuchElementException;

import org.forgerock.opendj.ldap.Entry;

import io.bindfirst.server.backend.Backend;
import io.bindfirst.server.backend.BackendException;
import io.bindfirst.server.backend.ImportItem;

/**
 * One import: LDIF records read and checked ({@link CheckedRecords}, {@link ImportChecks}), handed to the backend's
 * batched import ({@link Backend#importEntries(Iterator, io.bindfirst.server.backend.ImportRejects)}: large
 * transactions, or a bulk load when the backend was opened cleared), every refusal, the parser's, the checks'
 * and the backend's, sent to {@link Rejections} with its line.
 */
final class LdifImport {
    /** What an import did. */
    record Outcome(long imported, long rejected, double seconds) {
        double rate() {
            return seconds > 0 ? imported / seconds : 0;
        }
    }

    /** An entry on its way to the backend, with the record it came from for a refusal. */
    private record Item(LdifRecord record, Entry entry) implements ImportItem {
    }

    private final Backend backend;
    private final ImportChecks checks;
    private final Rejections rejections;
    private final Progress progress;

    LdifImport(Backend backend, ImportChecks checks, Rejections rejections, Progress progress) {
        this.backend = backend;
        this.checks = checks;
        this.rejections = rejections;
        this.progress = progress;
    }

    /** @param threads how many threads parse and check records while this one stores them */
    Outcome run(LdifRecords records, int threads) throws IOException, BackendException {
        long imported;
        try (CheckedRecords checked = new CheckedRecords(records, checks, threads)) {
            imported = backend.maintenance().importEntries(new Checked(checked), (item, reason) -> reject(item.record(),
                    item.record().dnLine(), reason.getMessage()));
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
        progress.finish();
        return new Outcome(imported, rejections.count(), progress.seconds());
    }

    private void reject(LdifRecord record, long line, String reason) {
        try {
            rejections.reject(record, line, reason);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The records that pass the checks, as items; the others go to the rejections as they come. */
    private final class Checked implements Iterator<Item> {
        private final CheckedRecords records;
        private Item next;
        private long read;

        Checked(CheckedRecords records) {
            this.records = records;
        }

        @Override
        public boolean hasNext() {
            try {
                while (next == null) {
                    CheckedRecords.Checked c = records.next();
                    if (c == null) {
                        return false;
                    }
                    read++;
                    progress.update(read, records.bytesRead());
                    if (c.rejected() != null) {
                        rejections.reject(c.record(), c.rejected().line(), c.rejected().getMessage());
                    } else {
                        next = new Item(c.record(), c.entry());
                    }
                }
                return true;
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        @Override
        public Item next() {
            if (!hasNext()) {
                throw new NoSuchElementException();
            }
            Item item = next;
            next = null;
            return item;
        }
    }
}
