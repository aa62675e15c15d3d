package io.bindfirst.tools;

import java.io.BufferedWriter;
import java.io.Closeable;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Where refused records go: each one, as its lines in the file under a comment giving its line number and
 * the reason, to the reject file when there is one (OpenDJ's format, so it can be fixed and imported
 * again); the first few also to the error output, so a run without a reject file still says what was wrong.
 */
final class Rejections implements Closeable {
    /** Enough to see a pattern without burying the summary under a million lines. */
    static final int SHOWN = 20;

    private final BufferedWriter file;
    private final Path path;
    private final PrintWriter err;
    private long count;

    private Rejections(BufferedWriter file, Path path, PrintWriter err) {
        this.file = file;
        this.path = path;
        this.err = err;
    }

    /**
     * @param path the reject file, or {@code null} for none
     * @param overwrite whether to replace it rather than append to it (OpenDJ appends unless told)
     */
    static Rejections open(Path path, boolean overwrite, PrintWriter err) throws ToolException {
        if (path == null) {
            return new Rejections(null, null, err);
        }
        try {
            BufferedWriter w = Files.newBufferedWriter(path, StandardCharsets.UTF_8, StandardOpenOption.CREATE,
                    StandardOpenOption.WRITE, overwrite ? StandardOpenOption.TRUNCATE_EXISTING
                            : StandardOpenOption.APPEND);
            return new Rejections(w, path, err);
        } catch (IOException e) {
            throw new ToolException("Cannot write the reject file " + path + ": " + Tools.why(e, path), e);
        }
    }

    /** Called by the thread that reads the file and by the one that stores: one record at a time. */
    synchronized void reject(LdifRecord record, long line, String reason) throws IOException {
        count++;
        if (count <= SHOWN) {
            err.println("Rejected the record at line " + line + ": " + reason);
        } else if (count == SHOWN + 1) {
            err.println(path != null ? "More records were rejected: all are in the reject file " + path
                    : "More records were rejected: give --rejectFile FILE to keep them all");
        }
        if (file != null) {
            file.write("# Rejected: line " + line + ": " + reason.replace("\n", "\n# "));
            file.newLine();
            for (String text : record.lines()) {
                file.write(text);
                file.newLine();
            }
            file.newLine();
        }
    }

    synchronized long count() {
        return count;
    }

    @Override
    public void close() throws IOException {
        if (file != null) {
            file.close();
        }
    }
}
