package io.bindfirst.tools;

import java.util.List;

/**
 * The lines of one LDIF record as they were in the file (comments and continuation lines included), and
 * the number of its first line: line {@code i} of the list is line {@code firstLine + i} of the file.
 */
record LdifRecord(long firstLine, List<String> lines) {
    LdifRecord {
        lines = List.copyOf(lines);
    }

    /**
     * The file's line number of the record's {@code dn:} line: its first line that is neither a comment
     * (nor a comment's continuation) nor the file's {@code version:} line.
     */
    long dnLine() {
        boolean inComment = false;
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            inComment = line.startsWith("#") || (inComment && line.startsWith(" "));
            if (!inComment && !line.startsWith("version:")) {
                return firstLine + i;
            }
        }
        return firstLine;
    }

    /** The file's line number of the first line in this record equal to {@code text}, or the first line's. */
    long lineOf(String text) {
        int i = lines.indexOf(text);
        return firstLine + Math.max(i, 0);
    }
}
