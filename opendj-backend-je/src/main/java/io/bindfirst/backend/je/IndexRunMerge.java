package io.bindfirst.backend.je;

import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.PriorityQueue;

import com.sleepycat.je.DatabaseEntry;

/**
 * The records of one index, merged from sorted run files (as {@link PackedRecords#writeTo} writes them) and the
 * sorted records still held, smallest first: keys as unsigned bytes, then ids (the index database's order). Each
 * source is read a record at a time, so a merge holds one record per run.
 */
final class IndexRunMerge implements AutoCloseable {
    /** One sorted source and its current record: the key is {@code length} bytes of {@code key} from {@code at}. */
    private abstract static class Source {
        byte[] key = new byte[64];
        int at;
        int length;
        long id;

        /** Reads the next record into {@link #key}, {@link #at}, {@link #length} and {@link #id}; false at the end. */
        abstract boolean advance() throws IOException;

        void close() throws IOException {
        }

        final int compareTo(Source other) {
            int c = Arrays.compareUnsigned(key, at, at + length, other.key, other.at, other.at + other.length);
            return c != 0 ? c : Long.compare(id, other.id);
        }
    }

    /** A run file: a record count, then per record its key length (4 bytes), key and id (8 bytes). */
    private static final class FileSource extends Source {
        private final Path file;
        private final DataInputStream in;
        private int left;

        FileSource(Path file) throws IOException {
            this.file = file;
            this.in = new DataInputStream(new BufferedInputStream(Files.newInputStream(file), 1 << 16));
            this.left = in.readInt();
        }

        @Override
        boolean advance() throws IOException {
            if (left == 0) {
                return false;
            }
            left--;
            try {
                length = in.readInt();
                if (key.length < length) {
                    key = new byte[Math.max(length, key.length * 2)];
                }
                in.readFully(key, 0, length);
                id = in.readLong();
            } catch (EOFException e) {
                throw new IOException("the run file " + file + " ends early", e);
            }
            return true;
        }

        @Override
        void close() throws IOException {
            in.close();
        }
    }

    /** The records still in memory, sorted: read in place. */
    private static final class HeldSource extends Source {
        private final PackedRecords records;
        private int next;

        HeldSource(PackedRecords records) {
            this.records = records;
            this.key = records.data();
        }

        @Override
        boolean advance() {
            if (next == records.size()) {
                return false;
            }
            int offset = records.offset(next++);
            length = records.keyLength(offset);
            at = offset + 4;
            id = records.id(offset);
            return true;
        }
    }

    private final List<Source> sources = new ArrayList<>();
    private final PriorityQueue<Source> queue = new PriorityQueue<>(Source::compareTo);
    /** The source whose record the last {@link #next} gave: advanced at the next call, not before (its buffer). */
    private Source given;

    /**
     * @param files sorted run files of this index
     * @param held the records still in memory, sorted
     */
    IndexRunMerge(List<Path> files, PackedRecords held) throws IOException {
        try {
            for (Path file : files) {
                sources.add(new FileSource(file));
            }
            sources.add(new HeldSource(held));
            for (Source source : sources) {
                if (source.advance()) {
                    queue.add(source);
                }
            }
        } catch (IOException e) {
            try {
                close(); // the files opened so far
            } catch (IOException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
    }

    /**
     * The next record: {@code key} is pointed at its key (valid until the next call), {@code id} (8 bytes) given
     * its id, big-endian. False once every source is done.
     */
    boolean next(DatabaseEntry key, byte[] id) throws IOException {
        if (given != null && given.advance()) {
            queue.add(given);
        }
        given = queue.poll();
        if (given == null) {
            return false;
        }
        key.setData(given.key, given.at, given.length);
        long value = given.id;
        for (int i = 7; i >= 0; i--) {
            id[i] = (byte) value;
            value >>>= 8;
        }
        return true;
    }

    @Override
    public void close() throws IOException {
        IOException failure = null;
        for (Source source : sources) {
            try {
                source.close();
            } catch (IOException e) {
                failure = e;
            }
        }
        if (failure != null) {
            throw failure;
        }
    }
}
