package io.bindfirst.server.config;

import java.nio.file.Files;
import java.nio.file.Path;

import io.bindfirst.server.fuzz.Fuzzing;

/**
 * Jazzer target: a {@code config.ldif} as {@link ConfigLoader} reads it at start (the SDK's LDIF reader, then every
 * entry and attribute the server's configuration takes). Only {@link ConfigException} is expected, whose message
 * names the entry and the attribute; anything else would stop the server with a stack trace instead.
 */
public final class ConfigLdifFuzzTarget {
    private static Path instance;
    private static Path file;

    private ConfigLdifFuzzTarget() {
    }

    public static void fuzzerInitialize() throws Exception {
        instance = Files.createTempDirectory("config-fuzz");
        file = instance.resolve("config.ldif");
        instance.toFile().deleteOnExit();
        file.toFile().deleteOnExit();
        // The first load starts the logging (logback reads its configuration): seconds on a busy machine, which the
        // fuzzer would take for a hang in the first input.
        fuzzerTestOneInput(new byte[0]);
    }

    public static void fuzzerTestOneInput(byte[] data) throws Exception {
        Files.write(file, data);
        Fuzzing.withinAllowance(data.length, () -> {
            try {
                ConfigLoader.load(file, instance);
            } catch (ConfigException e) {
                // the documented answer: the server does not start and says which entry and attribute are wrong
            }
        });
    }
}
