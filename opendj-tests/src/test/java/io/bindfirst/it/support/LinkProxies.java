package io.bindfirst.it.support;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One TCP proxy on loopback for each ordered pair of nodes of a replication group (the connections node {@code s}
 * opens to node {@code t}), so that a test can cut a node off from the others and heal the cut, as a broken link
 * would: while a node is cut off, every link to or from it takes what is sent and delivers nothing, in both
 * directions, its connections left open (the ends notice only by their own timeouts); healing closes those
 * connections, so that both ends connect again, and forwards again. The nodes route their links here with
 * {@link RoutedChannelFactory} ({@link #routesFrom}).
 */
public final class LinkProxies implements AutoCloseable {
    private final List<Integer> targets;
    /** proxies[s][t]: what node s connects to, to reach node t. */
    private final Proxy[][] proxies;
    private final Set<Integer> cut = ConcurrentHashMap.newKeySet();

    /** Proxies for nodes listening on the loopback {@code ports}, in node order. */
    public LinkProxies(List<Integer> ports) throws IOException {
        this.targets = List.copyOf(ports);
        int n = ports.size();
        proxies = new Proxy[n][n];
        for (int s = 0; s < n; s++) {
            for (int t = 0; t < n; t++) {
                if (s != t) {
                    proxies[s][t] = new Proxy(s, t);
                }
            }
        }
    }

    /** Node {@code s}'s routes, as {@link RoutedChannelFactory} reads them: {@code port>proxy,...}. */
    public String routesFrom(int s) {
        List<String> out = new ArrayList<>();
        for (int t = 0; t < targets.size(); t++) {
            if (t != s) {
                out.add(targets.get(t) + ">" + proxies[s][t].server.getLocalPort());
            }
        }
        return String.join(",", out);
    }

    /** Cuts node {@code i} off: its links deliver nothing until {@link #heal}. */
    public void cut(int i) {
        cut.add(i);
    }

    /** Ends the cut of node {@code i}: its links' connections are closed, and new ones are forwarded. */
    public void heal(int i) {
        cut.remove(i);
        for (int s = 0; s < targets.size(); s++) {
            for (int t = 0; t < targets.size(); t++) {
                if (s != t && (s == i || t == i)) {
                    proxies[s][t].closeConnections();
                }
            }
        }
    }

    @Override
    public void close() {
        for (Proxy[] row : proxies) {
            for (Proxy p : row) {
                if (p != null) {
                    p.close();
                }
            }
        }
    }

    /** The proxy of the links node {@code from} opens to node {@code to}. */
    private final class Proxy {
        private final int from;
        private final int to;
        private final ServerSocket server;
        private final Set<Socket> open = ConcurrentHashMap.newKeySet();

        Proxy(int from, int to) throws IOException {
            this.from = from;
            this.to = to;
            this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
            Thread accept = new Thread(this::accept, "link-proxy-n" + from + "-n" + to);
            accept.setDaemon(true);
            accept.start();
        }

        private boolean cut() {
            return cut.contains(from) || cut.contains(to);
        }

        private void accept() {
            while (!server.isClosed()) {
                try {
                    Socket in = server.accept();
                    Socket out = new Socket();
                    open.add(in);
                    open.add(out);
                    try {
                        out.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), targets.get(to)), 5_000);
                    } catch (IOException e) {
                        closeQuietly(in);
                        closeQuietly(out);
                        continue; // the node is not listening (not started, or killed): as a refused connection
                    }
                    pump(in, out);
                    pump(out, in);
                } catch (IOException e) {
                    return; // closed
                }
            }
        }

        /** Copies {@code a} to {@code b} while the link is not cut; drops what it reads while it is. */
        private void pump(Socket a, Socket b) {
            Thread t = new Thread(() -> {
                byte[] buffer = new byte[16_384];
                try (InputStream in = a.getInputStream(); OutputStream out = b.getOutputStream()) {
                    for (int n; (n = in.read(buffer)) >= 0; ) {
                        if (!cut()) {
                            out.write(buffer, 0, n);
                            out.flush();
                        }
                    }
                } catch (IOException e) {
                    // one side closed: close both below
                } finally {
                    closeQuietly(a);
                    closeQuietly(b);
                }
            }, "link-proxy-pump-n" + from + "-n" + to);
            t.setDaemon(true);
            t.start();
        }

        void closeConnections() {
            for (Socket s : open) {
                closeQuietly(s);
            }
        }

        void close() {
            closeQuietly(server);
            closeConnections();
        }

        private void closeQuietly(java.io.Closeable c) {
            try {
                c.close();
            } catch (IOException e) {
                // closing: nothing more to do
            }
            if (c instanceof Socket s) {
                open.remove(s);
            }
        }
    }
}
