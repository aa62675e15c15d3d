package io.bindfirst.server.log;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Locale;

import org.slf4j.LoggerFactory;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.filter.ThresholdFilter;
import ch.qos.logback.core.Appender;
import ch.qos.logback.classic.spi.ILoggingEvent;

/**
 * The server log ({@code cn=File-Based Error Logger,cn=Loggers,cn=config}, OpenDJ's "errors" log): what the
 * server's classes log through SLF4J, at the configured severity and above, into a file that rotates as the
 * access log does. Installed by the process that runs the server ({@code Launcher}); the console, which bin/start-ds
 * keeps in logs/server.out (never rotated), then keeps warnings and errors only.
 *
 * <p>logback's context is the process's (SLF4J finds it by itself), so this configures it rather than owning it:
 * {@link #close()} puts the console back as it was.
 */
public final class ErrorLog implements AutoCloseable {
    /**
     * @param file the live file ({@code ds-cfg-log-file}, {@code logs/errors})
     * @param rotation when it rotates ({@code ds-cfg-file-size-limit}, {@code ds-cfg-rotation-interval},
     *        {@code ds-cfg-number-of-files})
     * @param severity the least severe events written ({@code ds-cfg-default-severity}: error, warning, info or
     *        debug)
     */
    public record Settings(Path file, LogRotation rotation, String severity) {
        /** The severities {@code ds-cfg-default-severity} takes, least verbose first. */
        public static final String SEVERITIES = "error, warning, info, debug";

        public Settings {
            if (level(severity) == null) {
                throw new IllegalArgumentException("'" + severity + "' is not a severity: " + SEVERITIES);
            }
        }
    }

    private final Logger root;
    private final RotatingFileAppender file;
    private final ThresholdFilter consoleWarnings;

    private ErrorLog(Logger root, RotatingFileAppender file, ThresholdFilter consoleWarnings) {
        this.root = root;
        this.file = file;
        this.consoleWarnings = consoleWarnings;
    }

    /** Starts writing the server log as {@code settings} says, and quiets the console down to warnings. */
    public static ErrorLog install(Settings settings) throws IOException {
        LoggerContext context = (LoggerContext) LoggerFactory.getILoggerFactory();
        Logger root = context.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
        RotatingFileAppender appender = new RotatingFileAppender(settings.file(), settings.rotation());
        appender.setContext(context);
        appender.start();
        root.addAppender(appender);
        root.setLevel(level(settings.severity()));
        ThresholdFilter warnings = new ThresholdFilter();
        warnings.setLevel(Level.WARN.levelStr);
        warnings.setContext(context);
        warnings.start();
        for (java.util.Iterator<Appender<ILoggingEvent>> it = root.iteratorForAppenders(); it.hasNext(); ) {
            Appender<ILoggingEvent> a = it.next();
            if (a != appender) {
                a.addFilter(warnings);
            }
        }
        return new ErrorLog(root, appender, warnings);
    }

    static Level level(String severity) {
        switch (severity.trim().toLowerCase(Locale.ROOT)) {
            case "error":
                return Level.ERROR;
            case "warning":
                return Level.WARN;
            case "info":
                return Level.INFO;
            case "debug":
                return Level.DEBUG;
            default:
                return null;
        }
    }

    /** Stops writing the file (closing it) and lets the console show what it showed before. */
    @Override
    public void close() {
        root.detachAppender(file);
        file.stop();
        for (java.util.Iterator<Appender<ILoggingEvent>> it = root.iteratorForAppenders(); it.hasNext(); ) {
            it.next().clearAllFilters(); // only ours were there: logback.xml sets none
        }
        consoleWarnings.stop();
    }
}
