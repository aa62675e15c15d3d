package io.bindfirst.server.log;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A text log file that rotates by size and by age: the live file keeps its configured name, and a rotated one
 * is renamed, as OpenDJ names them, with the UTC time of its rotation ({@code access.20261123231500Z}; more
 * rotations within the same second add {@code .1}, {@code .2}...). After each rotation the oldest
 * rotated files beyond the retention count are deleted.
 *
 * <p>Used by one thread at a time (a log's writer; the error log's appender holds its lock). It rotates only
 * when asked between two records
 * ({@link #rotateIfDue}), so a record is never split across two files, and a file may pass its size limit
 * by what was appended since the last ask (one batch of records).
 */
final class RotatingFile implements AutoCloseable {
    private static final DateTimeFormatter SUFFIX =
            DateTimeFormatter.ofPattern("yyyyMMddHHmmss'Z'", Locale.ROOT).withZone(ZoneOffset.UTC);

    private final Path file;
    private final LogRotation rotation;
    private final Pattern rotatedName;
    private Writer out;
    /** Bytes in the live file: its size when opened, plus what was appended since (UTF-8). */
    private long size;
    private long openedMillis;

    RotatingFile(Path file, LogRotation rotation, long nowMillis) throws IOException {
        this.file = file.toAbsolutePath();
        this.rotation = rotation;
        this.rotatedName = Pattern.compile(Pattern.quote(this.file.getFileName().toString())
                + "\\.(\\d{14}Z)(?:\\.(\\d{1,9}))?");
        Files.createDirectories(this.file.getParent());
        open(nowMillis);
    }

    private void open(long nowMillis) throws IOException {
        out = new BufferedWriter(Files.newBufferedWriter(file, StandardCharsets.UTF_8,
                StandardOpenOption.CREATE, StandardOpenOption.APPEND, StandardOpenOption.WRITE), 1 << 16);
        size = Files.size(file);
        openedMillis = nowMillis;
    }

    /** Appends whole lines (one record or more). */
    void append(CharSequence text) throws IOException {
        int n = text.length();
        if (text instanceof StringBuilder line && n <= MOST_CHARS_KEPT) {
            // A formatted line goes to the writer through a kept array, not a String made for each record
            // (Writer.append's toString() copied every access-log line once more). One thread at a time uses
            // this file (see the class comment), so one array serves it.
            if (chars.length < n) {
                chars = new char[Math.min(MOST_CHARS_KEPT, Math.max(n, chars.length * 2))];
            }
            line.getChars(0, n, chars, 0);
            out.write(chars, 0, n);
        } else {
            out.append(text);
        }
        size += utf8Length(text);
    }

    /** The longest line copied through {@link #chars}; a longer one (rare) goes through a String. */
    private static final int MOST_CHARS_KEPT = 16 * 1024;
    private char[] chars = new char[512];

    void flush() throws IOException {
        out.flush();
    }

    /** Rotates if the live file is over its size limit or older than the interval, and holds something. */
    void rotateIfDue(long nowMillis) throws IOException {
        boolean bySize = rotation.sizeLimitBytes() > 0 && size >= rotation.sizeLimitBytes();
        long interval = rotation.interval().toMillis();
        boolean byAge = interval > 0 && nowMillis - openedMillis >= interval;
        if (size > 0 && (bySize || byAge)) {
            rotate(nowMillis);
        } else if (byAge) {
            openedMillis = nowMillis; // nothing written for a whole interval: no empty rotated file
        }
    }

    private void rotate(long nowMillis) throws IOException {
        out.close();
        String stamp = SUFFIX.format(Instant.ofEpochMilli(nowMillis));
        // Within one second: one counter above the highest of this second's files, never a freed lower name
        // (retention may have deleted this second's first file, which would then sort as the oldest again).
        int highest = -1;
        for (Path p : rotatedFiles()) {
            if (stamp.equals(part(p, 1))) {
                highest = Math.max(highest, counter(p));
            }
        }
        String base = file.getFileName() + "." + stamp;
        Path target = file.resolveSibling(highest < 0 ? base : base + "." + (highest + 1));
        try {
            Files.move(file, target);
        } finally {
            open(nowMillis); // if the rename failed, the live file goes on growing rather than the log stopping
        }
        deleteBeyondRetention();
    }

    /** Rotated files by age, oldest first: by their time stamps, then by the counter a same-second one got. */
    List<Path> rotatedFiles() throws IOException {
        List<Path> rotated = new ArrayList<>();
        try (DirectoryStream<Path> dir = Files.newDirectoryStream(file.getParent())) {
            for (Path p : dir) {
                if (rotatedName.matcher(p.getFileName().toString()).matches()) {
                    rotated.add(p);
                }
            }
        }
        rotated.sort(Comparator.comparing((Path p) -> part(p, 1)).thenComparingInt(this::counter));
        return rotated;
    }

    /** 0 for {@code access.STAMP}, n for {@code access.STAMP.n}. */
    private int counter(Path rotated) {
        String n = part(rotated, 2);
        return n == null ? 0 : Integer.parseInt(n);
    }

    private String part(Path rotated, int group) {
        Matcher m = rotatedName.matcher(rotated.getFileName().toString());
        return m.matches() ? m.group(group) : null;
    }

    private void deleteBeyondRetention() throws IOException {
        List<Path> rotated = rotatedFiles();
        for (int i = 0; i < rotated.size() - rotation.retainedFiles(); i++) {
            Files.deleteIfExists(rotated.get(i));
        }
    }

    private static long utf8Length(CharSequence s) {
        long n = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < 0x80) {
                n++;
            } else if (c < 0x800) {
                n += 2;
            } else if (Character.isHighSurrogate(c)) {
                n += 4;
                i++;
            } else {
                n += 3;
            }
        }
        return n;
    }

    @Override
    public void close() throws IOException {
        out.close();
    }
}
