package io.bindfirst.tools;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * The server run on an instance folder as {@code bin/start-ds} runs it: a child JVM of the server's main class
 * (this test's class path holds it), which writes the instance's {@code logs/server.pid}. Stopped with SIGTERM,
 * as {@code bin/stop-ds} does.
 */
final class ServerChild implements AutoCloseable {
    private final Process process;
    private final StringBuilder output = new StringBuilder();

    private ServerChild(Process process) {
        this.process = process;
    }

    /** @param options more of the server's options, as {@code bin/start-ds} passes them ({@code --port N}) */
    static ServerChild start(Path instanceRoot, String... options) throws IOException, InterruptedException {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        List<String> command = new java.util.ArrayList<>(List.of(java.toString(), "-Xmx256m", "-cp",
                System.getProperty("java.class.path"), ServerProcess.MAIN_CLASS, "--instanceRoot",
                instanceRoot.toString()));
        command.addAll(List.of(options));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        ServerChild child = new ServerChild(p);
        CompletableFuture<Boolean> listening = CompletableFuture.supplyAsync(child::readUntilListening);
        try {
            if (Boolean.TRUE.equals(listening.get(90, TimeUnit.SECONDS))) {
                return child;
            }
        } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
            // reported below with what the server printed
        }
        child.close();
        throw new IllegalStateException("The server did not report listening within 90 s:\n" + child.output());
    }

    private boolean readUntilListening() {
        try {
            BufferedReader r = new BufferedReader(new InputStreamReader(process.getInputStream(),
                    StandardCharsets.UTF_8));
            for (String line = r.readLine(); line != null; line = r.readLine()) {
                synchronized (output) {
                    output.append(line).append('\n');
                }
                if (line.startsWith("The server is listening on")) {
                    // keep draining, so that the server never blocks on a full pipe
                    CompletableFuture.runAsync(() -> r.lines().forEach(l -> { }));
                    return true;
                }
            }
            return false;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    String output() {
        synchronized (output) {
            return output.toString();
        }
    }

    long pid() {
        return process.pid();
    }

    /** Ports free now on loopback, for a configuration written before the server starts. */
    static int[] freePorts(int n) throws IOException {
        ServerSocket[] sockets = new ServerSocket[n];
        int[] ports = new int[n];
        try {
            for (int i = 0; i < n; i++) {
                sockets[i] = new ServerSocket(0);
                ports[i] = sockets[i].getLocalPort();
            }
        } finally {
            for (ServerSocket s : sockets) {
                if (s != null) {
                    s.close();
                }
            }
        }
        return ports;
    }

    @Override
    public void close() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor();
        }
    }
}
