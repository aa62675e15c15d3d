package io.bindfirst.tools;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

import org.forgerock.opendj.ldap.Entry;

/**
 * The records of an LDIF file, checked ({@link ImportChecks}) on other threads while the caller stores the
 * ones before them: parsing and checking cost about as much as storing, so an import runs them side by side.
 * One thread reads records in chunks, in order; a pool checks the chunks; {@link #next()} hands the results
 * back in file order (parents must reach the backend before their children). Bounded: at most a few chunks
 * per checking thread are read ahead.
 */
final class CheckedRecords implements AutoCloseable {
    /** A record's fate: the entry to store, or why not (exactly one of the two is set). */
    record Checked(LdifRecord record, Entry entry, EntryRejected rejected) {
    }

    private static final int CHUNK = 256;
    private static final List<Checked> END = List.of();

    private final LdifRecords records;
    private final ImportChecks checks;
    private final ExecutorService checkers;
    private final Thread reader;
    private final BlockingQueue<CompletableFuture<List<Checked>>> chunks;
    private final AtomicInteger threadNumber = new AtomicInteger();
    private List<Checked> current = List.of();
    private int position;
    private boolean ended;

    CheckedRecords(LdifRecords records, ImportChecks checks, int threads) {
        this.records = records;
        this.checks = checks;
        this.checkers = Executors.newFixedThreadPool(threads, r -> daemon(r, "import-check-"
                + threadNumber.incrementAndGet()));
        this.chunks = new ArrayBlockingQueue<>(2 * threads + 2);
        this.reader = daemon(this::read, "import-read");
        reader.start();
    }

    /** The next record's fate, or {@code null} at the end of the file. */
    Checked next() throws IOException {
        while (position == current.size()) {
            if (ended) {
                return null;
            }
            try {
                current = chunks.take().get();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted", e);
            } catch (ExecutionException e) {
                throw e.getCause() instanceof IOException io ? io : new IOException(e.getCause());
            }
            position = 0;
            ended = current == END;
        }
        return current.get(position++);
    }

    long bytesRead() {
        return records.bytesRead();
    }

    private void read() {
        try {
            while (true) {
                List<LdifRecord> chunk = new ArrayList<>(CHUNK);
                LdifRecord r = null;
                while (chunk.size() < CHUNK && (r = records.next()) != null) {
                    chunk.add(r);
                }
                if (!chunk.isEmpty()) {
                    chunks.put(CompletableFuture.supplyAsync(() -> check(chunk), checkers));
                }
                if (r == null) {
                    chunks.put(CompletableFuture.completedFuture(END));
                    return;
                }
            }
        } catch (IOException e) {
            putQuietly(CompletableFuture.failedFuture(e));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt(); // closed: nobody is waiting for more
        }
    }

    private List<Checked> check(List<LdifRecord> chunk) {
        List<Checked> out = new ArrayList<>(chunk.size());
        for (LdifRecord r : chunk) {
            try {
                Entry entry = checks.entry(r);
                if (entry != null) {
                    out.add(new Checked(r, entry, null));
                }
            } catch (EntryRejected e) {
                out.add(new Checked(r, null, e));
            }
        }
        return out;
    }

    private void putQuietly(CompletableFuture<List<Checked>> f) {
        try {
            chunks.put(f);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static Thread daemon(Runnable r, String name) {
        Thread t = new Thread(r, name);
        t.setDaemon(true);
        return t;
    }

    /** Stops reading and checking (the caller may stop early, on a storage error). */
    @Override
    public void close() {
        reader.interrupt();
        checkers.shutdownNow();
    }
}
