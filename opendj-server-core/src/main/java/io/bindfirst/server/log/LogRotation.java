package io.bindfirst.server.log;

import java.time.Duration;

/**
 * When a log file is rotated and how many rotated files are kept: OpenDJ's size-limit and time-limit rotation
 * policies and its file-count retention policy, in one value.
 *
 * @param sizeLimitBytes rotate once the file holds at least this many bytes; 0 = never for size
 * @param interval rotate once the file has been written to for this long; {@link Duration#ZERO} = never
 *                 for time
 * @param retainedFiles rotated files kept beside the live one; the oldest beyond them are deleted
 */
public record LogRotation(long sizeLimitBytes, Duration interval, int retainedFiles) {
    /** No rotation: one file that grows. */
    public static final LogRotation NEVER = new LogRotation(0, Duration.ZERO, 1);

    public LogRotation {
        if (sizeLimitBytes < 0 || interval.isNegative() || retainedFiles < 1) {
            throw new IllegalArgumentException("size limit and interval at least 0, at least one file kept: "
                    + sizeLimitBytes + ", " + interval + ", " + retainedFiles);
        }
    }
}
