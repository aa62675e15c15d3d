package io.bindfirst.it.support;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * This machine's TCP sockets as Linux lists them ({@code /proc/net/tcp}, {@code /proc/self/fd}): whether a server
 * in this JVM still holds its end of a connection, which no client can tell without reading from it.
 */
public final class LocalSockets {
    private LocalSockets() {
    }

    /** The inode of the socket whose local port is {@code serverPort} and remote port {@code clientPort}, or -1. */
    public static long serverSide(int serverPort, int clientPort) throws IOException {
        for (String table : List.of("/proc/net/tcp", "/proc/net/tcp6")) {
            Path p = Path.of(table);
            if (!Files.exists(p)) {
                continue;
            }
            for (String line : Files.readAllLines(p)) {
                String[] f = line.trim().split("\\s+");
                if (f.length < 10 || !f[1].contains(":")) {
                    continue;
                }
                if (port(f[1]) == serverPort && port(f[2]) == clientPort) {
                    return Long.parseLong(f[9]);
                }
            }
        }
        return -1;
    }

    private static int port(String hexAddress) {
        return Integer.parseInt(hexAddress.substring(hexAddress.lastIndexOf(':') + 1), 16);
    }

    /** Whether a file descriptor of this process is the socket {@code inode}. */
    public static boolean heldByThisProcess(long inode) throws IOException {
        String wanted = "socket:[" + inode + "]";
        try (DirectoryStream<Path> fds = Files.newDirectoryStream(Path.of("/proc/self/fd"))) {
            for (Path fd : fds) {
                try {
                    if (Files.readSymbolicLink(fd).toString().equals(wanted)) {
                        return true;
                    }
                } catch (IOException closedMeanwhile) {
                    // the descriptor went away while listed
                }
            }
        }
        return false;
    }
}
