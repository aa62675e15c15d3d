package io.bindfirst.tools;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.OptionalLong;

/**
 * What can be told of an instance's server without asking it anything: its process, from {@code logs/server.pid}
 * checked as {@code bin/_common.sh} checks it (alive, and running the server's main class: a pid file left by a
 * crash may name a process that has since reused the number), and whether a TCP port answers.
 */
final class ServerProcess {
    static final String MAIN_CLASS = "io.bindfirst.server.Launcher";

    private ServerProcess() {
    }

    /** The pid in {@code logs/server.pid} when that process runs the server, else empty. */
    static OptionalLong runningPid(Path instanceRoot) {
        Path pidFile = instanceRoot.resolve("logs/server.pid");
        long pid;
        try {
            pid = Long.parseLong(Files.readString(pidFile, StandardCharsets.US_ASCII).trim());
        } catch (IOException | NumberFormatException e) {
            return OptionalLong.empty();
        }
        return ProcessHandle.of(pid).filter(ProcessHandle::isAlive).filter(ServerProcess::runsServer)
                .map(p -> OptionalLong.of(p.pid())).orElse(OptionalLong.empty());
    }

    /**
     * The value of {@code option} on the server process's command line ({@code bin/start-ds --port N} and the
     * like override the configuration), or {@code null}: the listeners are where the server was told to listen.
     */
    static String argument(long pid, String option) {
        try {
            String[] args = new String(Files.readAllBytes(Path.of("/proc", Long.toString(pid), "cmdline")),
                    StandardCharsets.UTF_8).split("\0");
            for (int i = 0; i + 1 < args.length; i++) {
                if (args[i].equals(option)) {
                    return args[i + 1];
                }
            }
        } catch (IOException e) {
            // no /proc: the configuration is all there is to go by
        }
        return null;
    }

    /** The server process's working folder, what a relative {@code --config} it was given is relative to. */
    static Path workingFolder(long pid, Path otherwise) {
        try {
            return Path.of("/proc", Long.toString(pid), "cwd").toRealPath();
        } catch (IOException e) {
            return otherwise;
        }
    }

    private static boolean runsServer(ProcessHandle p) {
        try { // what bin/_common.sh reads; the JDK's view of another process's arguments can be cut short
            byte[] cmdline = Files.readAllBytes(Path.of("/proc", Long.toString(p.pid()), "cmdline"));
            return new String(cmdline, StandardCharsets.UTF_8).contains(MAIN_CLASS);
        } catch (IOException e) {
            return p.info().commandLine().map(c -> c.contains(MAIN_CLASS)).orElse(false);
        }
    }

    /** Whether a TCP connection to the port is accepted within a second (an any-address listener on loopback). */
    static boolean answers(String address, int port) {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress(connectAddress(address), port), 1000);
            return true;
        } catch (IOException | IllegalArgumentException e) {
            return false;
        }
    }

    /** The address a client on this machine reaches a listener on: loopback for a wildcard listen address. */
    static String connectAddress(String listenAddress) {
        return switch (listenAddress) {
            case "0.0.0.0", "::", "0:0:0:0:0:0:0:0" -> "127.0.0.1";
            default -> listenAddress;
        };
    }
}
