package io.bindfirst.backend.je;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
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

    /**
     * A run file: a record count, then per record its key length (4 bytes), key and id (8 bytes). Read through a
     * buffer of its own rather than a {@code DataInputStream} on a {@code BufferedInputStream}, whose every
     * {@code readInt} takes the stream's lock four times: at millions of records an index, that cost the write-out
     * threads about 6% of their CPU.
     */
    private static final class FileSource extends Source {
        private final Path file;
        private final FileChannel channel;
        private final ByteBuffer buffer = ByteBuffer.allocate(1 << 16);
        private int left;

        FileSource(Path file) throws IOException {
            this.file = file;
            this.channel = FileChannel.open(file, StandardOpenOption.READ);
            buffer.flip(); // nothing read yet
            try {
                fill(4);
            } catch (IOException e) {
                channel.close();
                throw e;
            }
            this.left = buffer.getInt();
        }

        @Override
        boolean advance() throws IOException {
            if (left == 0) {
                return false;
            }
            left--;
            fill(4);
            length = buffer.getInt();
            if (length < 0) {
                throw new IOException("the run file " + file + " is damaged (a key of " + length + " bytes)");
            }
            if (key.length < length) {
                key = new byte[Math.max(length, key.length * 2)];
            }
            for (int done = 0; done < length;) { // a key may be longer than the buffer
                fill(1);
                int n = Math.min(length - done, buffer.remaining());
                buffer.get(key, done, n);
                done += n;
            }
            fill(8);
            id = buffer.getLong();
            return true;
        }

        /** Makes at least {@code n} bytes (at most the buffer's size) readable from the buffer. */
        private void fill(int n) throws IOException {
            if (buffer.remaining() >= n) {
                return;
            }
            buffer.compact();
            while (buffer.position() < n) {
                if (channel.read(buffer) < 0) {
                    throw new IOException("the run file " + file + " ends early");
                }
            }
            buffer.flip();
        }

        @Override
        void close() throws IOException {
            channel.close();
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
