package io.bindfirst.server.log;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Locale;

import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.ThrowableProxy;
import ch.qos.logback.core.AppenderBase;

/**
 * The server (error) log's file: logback events written as OpenDJ-like lines
 * ({@code [24/Nov/2026:07:05:31 +0000] severity=WARN logger=io.bindfirst.server.X thread=worker-3 msg="..."}, a
 * stack trace on the lines after), through {@link RotatingFile}, so it rotates by size and age with a retention
 * count as the access log does. Each event is flushed: these are rare, and the last ones before a crash matter.
 * logback calls {@link #append} under the appender's lock, so the file has one writer at a time.
 */
final class RotatingFileAppender extends AppenderBase<ILoggingEvent> {
    private static final DateTimeFormatter TIME =
            DateTimeFormatter.ofPattern("dd/MMM/yyyy:HH:mm:ss Z", Locale.ROOT).withZone(ZoneOffset.UTC);

    private final RotatingFile out;
    private final StringBuilder line = new StringBuilder(256);

    RotatingFileAppender(Path file, LogRotation rotation) throws IOException {
        this.out = new RotatingFile(file, rotation, System.currentTimeMillis());
        setName("errors");
    }

    @Override
    protected void append(ILoggingEvent event) {
        line.setLength(0);
        line.append('[').append(TIME.format(Instant.ofEpochMilli(event.getTimeStamp()))).append("] severity=")
                .append(event.getLevel()).append(" logger=").append(event.getLoggerName())
                .append(" thread=").append(event.getThreadName()).append(" msg=\"");
        AccessRecord.appendEscaped(line, event.getFormattedMessage());
        line.append("\"\n");
        if (event.getThrowableProxy() instanceof ThrowableProxy proxy) {
            StringWriter trace = new StringWriter();
            proxy.getThrowable().printStackTrace(new PrintWriter(trace));
            line.append(trace);
        }
        try {
            out.rotateIfDue(event.getTimeStamp());
            out.append(line);
            out.flush();
        } catch (IOException e) {
            addError("Cannot write the server log", e);
        }
    }

    @Override
    public void stop() {
        super.stop();
        try {
            out.close();
        } catch (IOException e) {
            addError("Cannot close the server log", e);
        }
    }
}
