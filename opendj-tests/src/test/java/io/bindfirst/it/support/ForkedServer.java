package io.bindfirst.it.support;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.bindfirst.it.stress.BenchSettings;
import io.bindfirst.server.testsupport.ConfigText;

/**
 * The server as a child JVM ({@code io.bindfirst.server.Launcher}, this JVM's class path), on a fresh
 * instance folder made like {@link TestServer}'s: the repository's {@code config/} copied into a temp dir,
 * with {@code ds-cfg-sample-entries} set to the wanted number of users, listening on a free loopback port.
 * Its own process has its own open-file limit, heap and garbage collector. Stopped by {@link #close()}
 * (SIGTERM, then SIGKILL after 30 s), and by a shutdown hook if this JVM exits first.
 */
public final class ForkedServer implements AutoCloseable {
    private static final Pattern LISTENING = Pattern.compile("listening on ldap://127\\.0\\.0\\.1:(\\d+)");
    /** Enough to create 10,000 users on a loaded machine; the 1,000-user start takes about 2 s. */
    private static final long START_TIMEOUT_S = 180;
    private static final int KEPT_LINES = 50;
    /**
     * The bind benchmark's servers run without the verified-credential cache: its slow connections re-bind
     * with the right password, which the cache would answer with one HMAC after the first, and they are there
     * to be slow (the sample users' one-hash passwords never use the cache, so the fast binds are unchanged).
     */
    public static final int VERIFIED_CREDENTIAL_CACHE = 0;

    private final Path instance;
    private final Process process;
    private final int port;
    private final Thread hook;
    private final Deque<String> lastLines;

    private ForkedServer(Path instance, Process process, int port, Thread hook, Deque<String> lastLines) {
        this.instance = instance;
        this.process = process;
        this.port = port;
        this.hook = hook;
        this.lastLines = lastLines;
    }

    public static ForkedServer start(int users, List<String> jvmOpts) throws Exception {
        return start(users, jvmOpts, java.util.function.UnaryOperator.identity());
    }

    /** @param config more edits of the instance's config.ldif before the start */
    public static ForkedServer start(int users, List<String> jvmOpts,
            java.util.function.UnaryOperator<ConfigText> config) throws Exception {
        Path instance = Files.createTempDirectory("bindfirst-bench-");
        try {
            TestServer.copyConfig(instance);
            Path ldif = instance.resolve("config/config.ldif");
            ConfigText text = ConfigText.read(ldif).set("ds-cfg-backend-id=userRoot,cn=Backends,cn=config",
                    "ds-cfg-sample-entries",
                    Integer.toString(users)).set("cn=Password Storage Schemes,cn=config",
                    "ds-cfg-verified-credential-cache-size", Integer.toString(VERIFIED_CREDENTIAL_CACHE));
            config.apply(text).write(ldif);
        } catch (IOException | RuntimeException e) {
            TestServer.deleteTree(instance);
            throw e;
        }
        return startIn(instance, jvmOpts);
    }

    /**
     * Starts the server again on an instance folder made by {@link #start} (one this class stopped or killed): its
     * configuration and database as they were left.
     */
    public static ForkedServer startIn(Path instance, List<String> jvmOpts) throws Exception {
        Process p = null;
        Thread hook = null;
        try {
            Path ldif = instance.resolve("config/config.ldif");
            List<String> cmd = new ArrayList<>();
            if (envResetsHangUp()) {
                // As bin/start-ds: a build run under nohup would hand the server a SIGHUP it can never catch.
                cmd.addAll(List.of("/usr/bin/env", "--default-signal=HUP"));
            }
            cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
            cmd.addAll(jvmOpts);
            cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), "io.bindfirst.server.Launcher",
                    "--instanceRoot", instance.toString(), "--config", ldif.toString(), "--port", "0",
                    "--ldaps-port", "0", "--metrics-port", "0"));
            ProcessBuilder builder = new ProcessBuilder(cmd).redirectErrorStream(true);
            // As bin/_server-jvm.sh: the shipped arenas unless the environment already sets them.
            builder.environment().putIfAbsent("MALLOC_ARENA_MAX", BenchSettings.SHIPPED_MALLOC_ARENA_MAX);
            p = builder.start();
            Process child = p;
            hook = new Thread(() -> child.destroyForcibly(), "bind-bench-forked-server-kill");
            Runtime.getRuntime().addShutdownHook(hook);
            Deque<String> lastLines = new ArrayDeque<>();
            CompletableFuture<Integer> port = new CompletableFuture<>();
            Path out = Files.createDirectories(instance.resolve("logs")).resolve("server.out");
            Thread reader = new Thread(() -> drain(child, lastLines, port, out), "bind-bench-forked-server-output");
            reader.setDaemon(true);
            reader.start();
            int listening;
            try {
                listening = port.get(START_TIMEOUT_S, TimeUnit.SECONDS);
            } catch (TimeoutException e) {
                throw new IllegalStateException("the forked server did not listen within " + START_TIMEOUT_S
                        + " s; its last output:\n" + lines(lastLines), e);
            } catch (ExecutionException e) {
                throw new IllegalStateException(e.getCause().getMessage(), e.getCause());
            }
            System.out.println("BIND-BENCH forked server pid " + p.pid() + " " + String.join(" ", jvmOpts)
                    + " listening on 127.0.0.1:" + listening + ", instance " + instance);
            return new ForkedServer(instance, p, listening, hook, lastLines);
        } catch (Exception | Error e) {
            stop(p, hook);
            TestServer.deleteTree(instance);
            throw e;
        }
    }

    /** Whether this machine's env can start a program with SIGHUP at its default (GNU coreutils 8.31 and later). */
    private static boolean envResetsHangUp() {
        try {
            Process probe = new ProcessBuilder("/usr/bin/env", "--default-signal=HUP", "true")
                    .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            return probe.waitFor(10, TimeUnit.SECONDS) && probe.exitValue() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /**
     * Copies the child's output into {@code lastLines} (the last few lines) and into {@code out} (all of it, as
     * bin/start-ds keeps it in logs/server.out), and its port once it listens.
     */
    private static void drain(Process p, Deque<String> lastLines, CompletableFuture<Integer> port, Path out) {
        try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
             java.io.Writer w = Files.newBufferedWriter(out, StandardCharsets.UTF_8)) {
            for (String line = r.readLine(); line != null; line = r.readLine()) {
                w.write(line);
                w.write('\n');
                w.flush();
                synchronized (lastLines) {
                    lastLines.addLast(line);
                    if (lastLines.size() > KEPT_LINES) {
                        lastLines.removeFirst();
                    }
                }
                Matcher m = LISTENING.matcher(line);
                if (m.find()) {
                    port.complete(Integer.parseInt(m.group(1)));
                }
            }
        } catch (IOException e) {
            port.completeExceptionally(e);
        }
        port.completeExceptionally(new IllegalStateException("the forked server exited before listening; "
                + "its last output:\n" + lines(lastLines)));
    }

    private static String lines(Deque<String> lastLines) {
        synchronized (lastLines) {
            return String.join("\n", lastLines);
        }
    }

    public int port() {
        return port;
    }

    public long pid() {
        return process.pid();
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    /**
     * Freezes the child (SIGSTOP): it neither answers nor sends, and its connections stay open, as a machine cut off
     * from the network, or hung, looks to the others. {@link #resume} thaws it.
     */
    public void pause() throws IOException, InterruptedException {
        signal("STOP");
    }

    /** Thaws a child {@link #pause}d (SIGCONT). */
    public void resume() throws IOException, InterruptedException {
        signal("CONT");
    }

    private void signal(String name) throws IOException, InterruptedException {
        Process kill = new ProcessBuilder("kill", "-" + name, Long.toString(process.pid())).inheritIO().start();
        if (!kill.waitFor(10, TimeUnit.SECONDS) || kill.exitValue() != 0) {
            throw new IOException("kill -" + name + " " + process.pid() + " failed");
        }
    }

    /** The instance folder (its logs/ holds the access log and server.out, the child's whole output). */
    public Path instance() {
        return instance;
    }

    /** Kills the child at once (SIGKILL, as a machine that dies), keeping the instance until {@link #close()}. */
    public void kill() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor(30, TimeUnit.SECONDS);
        stop(process, hook);
    }

    /** Stops the child (SIGTERM: it closes its logs), keeping the instance until {@link #close()}. */
    public void stop() {
        stop(process, hook);
    }

    /** The child's last lines of output (for a failure message). */
    public String lastOutput() {
        return lines(lastLines);
    }

    @Override
    public void close() {
        try {
            stop(process, hook);
        } finally {
            TestServer.deleteTree(instance);
        }
    }

    private static void stop(Process p, Thread hook) {
        if (p != null) {
            p.destroy(); // SIGTERM: the server closes the database
            try {
                if (!p.waitFor(30, TimeUnit.SECONDS)) {
                    p.destroyForcibly();
                    p.waitFor(10, TimeUnit.SECONDS);
                }
            } catch (InterruptedException e) {
                p.destroyForcibly();
                Thread.currentThread().interrupt();
            }
        }
        if (hook != null) {
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException e) {
                // this JVM is already shutting down: the hook runs anyway
            }
        }
    }

    /**
     * CPU time (user + system) the process has used, from Linux {@code /proc/PID/stat} in clock ticks of
     * 10 ms, or -1 if it cannot be read.
     */
    public static long cpuNanos(long pid) {
        if (pid <= 0) {
            return -1;
        }
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
            // Fields after the command name in parentheses (which may hold spaces): state is field 3,
            // utime field 14 and stime field 15, so 11 and 12 counted from the state.
            String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            long ticks = Long.parseLong(f[11]) + Long.parseLong(f[12]);
            return ticks * TimeUnit.MILLISECONDS.toNanos(1000 / CLOCK_TICKS_PER_SECOND);
        } catch (IOException | RuntimeException e) {
            return -1; // not Linux, or the process is gone
        }
    }

    /**
     * The bytes of the objects live in the child's heap after a full collection: the "Total" of {@code jcmd PID
     * GC.class_histogram}, which runs the collection and counts in one pause (a collection and a count asked for
     * one after the other leave the load's allocations between them in the count).
     */
    public long heapAfterGcBytes() throws IOException, InterruptedException {
        for (String line : jcmd("GC.class_histogram")) {
            String[] f = line.trim().split("\\s+");
            if (f.length == 3 && f[0].equals("Total")) {
                return Long.parseLong(f[2]);
            }
        }
        throw new IOException("jcmd " + pid() + " GC.class_histogram printed no total");
    }

    /**
     * The child's resident memory in KiB once it has handed the C library's free memory back to the system
     * ({@code jcmd PID System.trim_native_heap}): without the trim a reading falls anywhere between the JVM's
     * periodic trims, a few MiB up or down, which would hide a small leak or invent one.
     */
    public long trimmedRssKb() throws IOException, InterruptedException {
        jcmd("System.trim_native_heap");
        return rssKb(pid());
    }

    /** Runs {@code jcmd PID command}, its output in a file so that a jcmd that hangs is stopped after 60 s. */
    private List<String> jcmd(String command) throws IOException, InterruptedException {
        Path out = Files.createTempFile(instance, "jcmd-", ".out");
        try {
            Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "jcmd").toString(),
                    Long.toString(pid()), command).redirectErrorStream(true).redirectOutput(out.toFile()).start();
            if (!p.waitFor(60, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IOException("jcmd " + pid() + " " + command + " did not finish within 60 s");
            }
            List<String> lines = Files.readAllLines(out, StandardCharsets.UTF_8);
            if (p.exitValue() != 0) {
                throw new IOException("jcmd " + pid() + " " + command + " failed: " + String.join("\n", lines));
            }
            return lines;
        } finally {
            Files.deleteIfExists(out);
        }
    }

    /** USER_HZ: 100 on every Linux this runs on (the kernel's ABI for /proc, whatever its internal HZ). */
    private static final int CLOCK_TICKS_PER_SECOND = 100;

    /** The resident memory of a process (Linux: VmRSS of /proc/PID/status), in KiB, or -1 if unknown. */
    public static long rssKb(long pid) {
        if (pid <= 0) {
            return -1;
        }
        try {
            for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
                if (line.startsWith("VmRSS:")) {
                    return Long.parseLong(line.replaceAll("[^0-9]", ""));
                }
            }
        } catch (IOException | NumberFormatException e) {
            // not Linux, or the process is gone
        }
        return -1;
    }
}
