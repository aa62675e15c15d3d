package io.bindfirst.tools;

import java.io.BufferedReader;
import java.io.Closeable;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Splits an LDIF file into records (runs of lines between empty lines), numbering lines as it goes. The
 * SDK's reader parses each record but keeps no line numbers of its own for the entries it returns, and a
 * rejected entry must be named by its line in the file.
 */
final class LdifRecords implements Closeable {
    private final Counting counting;
    private final BufferedReader reader;
    private long linesRead;

    LdifRecords(InputStream in) {
        this.counting = new Counting(in);
        this.reader = new BufferedReader(new InputStreamReader(counting, StandardCharsets.UTF_8), 1 << 16);
    }

    /** The next record, or {@code null} at the end of the input. */
    LdifRecord next() throws IOException {
        String line;
        do {
            line = reader.readLine();
            linesRead++;
            if (line == null) {
                return null;
            }
        } while (line.isEmpty());
        long first = linesRead;
        List<String> lines = new ArrayList<>(24);
        while (line != null && !line.isEmpty()) {
            lines.add(line);
            line = reader.readLine();
            linesRead++;
        }
        return new LdifRecord(first, lines);
    }

    /** Bytes taken from the input so far (read ahead by up to one buffer): for progress. */
    long bytesRead() {
        return counting.count;
    }

    @Override
    public void close() throws IOException {
        reader.close();
    }

    private static final class Counting extends FilterInputStream {
        private volatile long count;

        Counting(InputStream in) {
            super(in);
        }

        @Override
        public int read() throws IOException {
            int b = super.read();
            if (b >= 0) {
                count++;
            }
            return b;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            int n = super.read(b, off, len);
            if (n > 0) {
                count += n;
            }
            return n;
        }
    }
}
