package io.bindfirst.server.config;

import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.Optional;

import org.forgerock.opendj.ldap.DN;
import org.forgerock.opendj.ldap.Entry;

import io.bindfirst.server.log.ErrorLog;
import io.bindfirst.server.log.LogRotation;

/**
 * {@code cn=File-Based Error Logger,cn=Loggers,cn=config}: where the server log goes, at which severity, and how it
 * rotates (the access logger's attribute names). Read by {@link ConfigLoader} into
 * {@link ServerConfig#errorLog()}, so that a bad value stops the start like any other; installed by the process
 * that runs the server.
 */
public final class ErrorLogConfig {
    static final DN ENTRY = DN.valueOf("cn=File-Based Error Logger,cn=Loggers,cn=config");

    private ErrorLogConfig() {
    }

    /** The settings of the logger's entry {@code e}, or empty when it is disabled (the console only). */
    static Optional<ErrorLog.Settings> read(Entry e, Path instanceRoot) throws ConfigException {
        if (!ConfigLoader.bool(e, "ds-cfg-enabled", true)) {
            return Optional.empty();
        }
        String file = ConfigLoader.string(e, "ds-cfg-log-file", "logs/errors");
        Path path;
        try {
            path = instanceRoot.resolve(file).normalize();
        } catch (InvalidPathException ex) {
            throw new ConfigException(e.getName() + ": ds-cfg-log-file: '" + file + "' is not a valid path");
        }
        LogRotation rotation = new LogRotation(
                ConfigUnits.bytes(e.getName() + ": ds-cfg-file-size-limit",
                        ConfigLoader.string(e, "ds-cfg-file-size-limit", "100 mb")),
                ConfigUnits.duration(e.getName() + ": ds-cfg-rotation-interval",
                        ConfigLoader.string(e, "ds-cfg-rotation-interval", "1 d")),
                ConfigLoader.integer(e, "ds-cfg-number-of-files", 10, 1, 100_000));
        String severity = ConfigLoader.string(e, "ds-cfg-default-severity", "info");
        try {
            return Optional.of(new ErrorLog.Settings(path, rotation, severity));
        } catch (IllegalArgumentException ex) {
            throw new ConfigException(e.getName() + ": ds-cfg-default-severity: " + ex.getMessage());
        }
    }
}
