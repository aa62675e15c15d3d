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
 * rotates (the access logger's attribute names). Read by the process that runs the server; {@link ConfigLoader}
 * reads it too, so that a bad value stops the start like any other.
 */
public final class ErrorLogConfig {
    static final DN ENTRY = DN.valueOf("cn=File-Based Error Logger,cn=Loggers,cn=config");

    private ErrorLogConfig() {
    }

    /** The settings, or empty when the entry is absent or disabled (the console only, as before). */
    public static Optional<ErrorLog.Settings> read(ServerConfig config) throws ConfigException {
        for (Entry e : config.entries()) {
            if (e.getName().equals(ENTRY)) {
                return read(e, config.instanceRoot());
            }
        }
        return Optional.empty();
    }

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
