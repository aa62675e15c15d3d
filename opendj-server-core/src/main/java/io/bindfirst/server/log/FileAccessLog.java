package io.bindfirst.server.log;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The access log file, in the shape OpenDJ's text access log made familiar
 * ({@code [21/Nov/2026:17:52:54 +0000] BIND conn=3 op=0 msgID=1 dn="..." result=0 etime=0.052}), but one
 * line per operation rather than a REQ/RES pair.
 *
 * <p>The file rotates by size and age ({@link LogRotation}, {@link RotatingFile}) between batches, so a
 * record is never split and no worker waits for a rotation.
 *
 * <p>Workers only {@code offer} a record to a bounded queue; one daemon thread formats and writes in
 * batches. When the queue is full the record is dropped and counted (a line says how many), so a slow
 * disk can never stall binds. While records keep coming the writer sleeps a millisecond between batches
 * rather than blocking on the queue: a blocked writer is woken (a futex call and a context switch) by
 * every record offered, which the profile showed costing more than the formatting.
 */
public final class FileAccessLog implements AccessLog {
    private static final Logger LOG = LoggerFactory.getLogger(FileAccessLog.class);
    private static final DateTimeFormatter TIME =
            DateTimeFormatter.ofPattern("dd/MMM/yyyy:HH:mm:ss Z", Locale.ROOT).withZone(ZoneOffset.UTC);
    /** How long the writer lets records gather between batches while records keep coming. */
    private static final long GATHER_NANOS = TimeUnit.MILLISECONDS.toNanos(1);
    private static final AccessRecord STOP = new AccessRecord(0, "", 0, 0, 0, null, 0, 0, "");

    private final BlockingQueue<AccessRecord> queue;
    private final RotatingFile out;
    private final Thread writer;
    private final AtomicLong dropped = new AtomicLong();

    /**
     * @param rotation when the file is rotated (between batches of records, never inside one record)
     * @param capacity records that may wait for the writer; beyond it they are dropped and counted
     */
    public FileAccessLog(Path file, LogRotation rotation, int capacity) throws IOException {
        this.out = new RotatingFile(file, rotation, System.currentTimeMillis());
        this.queue = new ArrayBlockingQueue<>(capacity);
        this.writer = new Thread(this::drain, "access-log-writer");
        this.writer.setDaemon(true);
        this.writer.start();
    }

    @Override
    public void log(AccessRecord record) {
        if (!queue.offer(record)) {
            dropped.incrementAndGet();
        }
    }

    private void drain() {
        List<AccessRecord> batch = new ArrayList<>(1024);
        StringBuilder line = new StringBuilder(256);
        boolean running = true;
        while (running) {
            try {
                AccessRecord first = queue.poll(200, TimeUnit.MILLISECONDS);
                if (first == null) {
                    out.flush();
                    out.rotateIfDue(System.currentTimeMillis());
                    continue;
                }
                batch.add(first);
                queue.drainTo(batch, 1023);
                for (AccessRecord r : batch) {
                    if (r == STOP) {
                        running = false;
                        break;
                    }
                    line.setLength(0);
                    format(r, line, clock);
                    out.append(line);
                }
                batch.clear();
                long lost = dropped.getAndSet(0);
                if (lost > 0) {
                    out.append("[" + TIME.format(Instant.now()) + "] DROPPED records=" + lost
                            + " reason=\"access log queue full\"\n");
                }
                out.rotateIfDue(System.currentTimeMillis());
                if (running) {
                    // Let records gather for a moment instead of waiting on the queue, where every record
                    // offered would wake this thread: under load, one wake-up per GATHER_NANOS, not per bind.
                    LockSupport.parkNanos(GATHER_NANOS);
                }
            } catch (InterruptedException e) {
                running = false;
            } catch (IOException e) {
                LOG.error("Cannot write the access log: {}", e.getMessage());
            }
        }
        try {
            out.flush();
        } catch (IOException e) {
            LOG.error("Cannot flush the access log: {}", e.getMessage());
        }
    }

    /** The last second formatted and its text: records come in bursts within one second. */
    private static final class Clock {
        long second = Long.MIN_VALUE;
        String text;

        String format(long epochMillis) {
            long s = Math.floorDiv(epochMillis, 1000);
            if (s != second) {
                second = s;
                text = TIME.format(Instant.ofEpochMilli(epochMillis));
            }
            return text;
        }
    }

    /** Used by the single writer thread only. */
    private final Clock clock = new Clock();

    static void format(AccessRecord r, StringBuilder b) {
        format(r, b, new Clock());
    }

    private static void format(AccessRecord r, StringBuilder b, Clock clock) {
        b.append('[').append(clock.format(r.epochMillis())).append("] ")
                .append(r.kind()).append(" conn=").append(r.connectionId());
        if (r.operationId() >= 0) {
            b.append(" op=").append(r.operationId()).append(" msgID=").append(r.messageId());
        }
        if (r.dn() != null) {
            b.append(" dn=\"");
            appendEscaped(b, r.dn());
            b.append('"');
        }
        if (r.resultCode() >= 0) {
            b.append(" result=").append(r.resultCode());
        }
        if (r.details() != null && !r.details().isEmpty()) {
            b.append(' ').append(r.details());
        }
        if (r.operationId() >= 0) {
            // Milliseconds with microsecond precision, like OpenDJ's etime with nanosecond resolution off.
            long micros = r.etimeNanos() / 1_000;
            b.append(" etime=").append(micros / 1000).append('.');
            long frac = micros % 1000;
            if (frac < 100) {
                b.append('0');
            }
            if (frac < 10) {
                b.append('0');
            }
            b.append(frac);
        }
        b.append('\n');
    }

    /** Client-supplied text (DNs, filters) must not forge lines: escape quotes, backslashes and controls. */
    static void appendEscaped(StringBuilder b, String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '"' || c == '\\') {
                b.append('\\').append(c);
            } else if (c < 0x20 || c == 0x7f) {
                b.append(String.format("\\%02x", (int) c));
            } else {
                b.append(c);
            }
        }
    }

    @Override
    public void close() {
        try {
            queue.put(STOP);
            writer.join(5_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        try {
            out.close();
        } catch (IOException e) {
            LOG.error("Cannot close the access log: {}", e.getMessage());
        }
    }
}
