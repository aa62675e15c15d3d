package io.bindfirst.tools;

/** An LDIF record that will not be imported: the file's line to name and why. */
final class EntryRejected extends Exception {
    private static final long serialVersionUID = 1L;

    private final long line;

    EntryRejected(long line, String reason) {
        super(reason);
        this.line = line;
    }

    long line() {
        return line;
    }
}
