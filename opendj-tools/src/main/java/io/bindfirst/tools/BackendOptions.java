package io.bindfirst.tools;

import java.nio.file.Path;

import picocli.CommandLine.Option;

/** The options that say which backend of which server instance a tool works on, shared by the tools. */
final class BackendOptions {
    @Option(names = {"-n", "--backendID"}, paramLabel = "ID", defaultValue = "userRoot",
            description = "The backend to work on, its ds-cfg-backend-id (default: ${DEFAULT-VALUE}).")
    String backendId;

    @Option(names = "--configFile", paramLabel = "FILE",
            description = "The server's configuration (default: config/config.ldif under the instance root).")
    Path configFile;

    @Option(names = "--instanceRoot", paramLabel = "DIR", defaultValue = ".",
            description = "What relative paths in the configuration are resolved against, as the server does "
                    + "(the bin scripts give the folder bin/ is in; default: the current folder).")
    Path instanceRoot;

    Path root() {
        return instanceRoot.toAbsolutePath().normalize();
    }

    Path config() {
        return configFile != null ? configFile.toAbsolutePath() : root().resolve("config/config.ldif");
    }
}
