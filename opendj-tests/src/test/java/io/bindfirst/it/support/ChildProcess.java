package io.bindfirst.it.support;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A command run as a user runs it, in a process of its own: the bin scripts, or a main class of this JVM's
 * class path (a second JVM, so its storage lock is really another process's). Waited for within a time limit,
 * after which it is killed and the test fails saying what it printed.
 */
public final class ChildProcess {
    /** What the process did: its exit code and everything it printed (standard output and error). */
    public record Result(int exitCode, String output) {
        public String said() {
            return "exit " + exitCode + ", output:\n" + output;
        }
    }

    private final Process process;
    private final CompletableFuture<String> output;

    private ChildProcess(Process process) {
        this.process = process;
        this.output = CompletableFuture.supplyAsync(() -> readAll(process.getInputStream()));
    }

    static ChildProcess start(List<String> command) throws IOException {
        return start(command, Map.of());
    }

    /** As {@link #start(List)}, with {@code environment} added to this process's environment. */
    public static ChildProcess start(List<String> command, Map<String, String> environment) throws IOException {
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().putAll(environment);
        return new ChildProcess(builder.start());
    }

    /** {@code java -cp <this JVM's class path> mainClass args...}. */
    public static ChildProcess java(String mainClass, String... args) throws IOException {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                .toString(), "-cp", System.getProperty("java.class.path"), mainClass));
        command.addAll(List.of(args));
        return start(command);
    }

    public static Result run(Duration limit, List<String> command) throws Exception {
        return start(command).await(limit);
    }

    public Result await(Duration limit) throws InterruptedException, ExecutionException {
        try {
            if (!process.waitFor(limit.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly();
                throw new AssertionError("still running after " + limit + ": " + process.info().commandLine()
                        .orElse("?") + "; it printed:\n" + output.get(10, TimeUnit.SECONDS));
            }
            return new Result(process.exitValue(), output.get(10, TimeUnit.SECONDS));
        } catch (TimeoutException e) {
            throw new AssertionError("the output of a finished process did not end", e);
        }
    }

    /** Its process id. */
    public long pid() {
        return process.pid();
    }

    /** Kills it if it still runs (a test that failed half-way). */
    public void kill() {
        process.destroyForcibly();
    }

    private static String readAll(InputStream in) {
        try (in) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "(output unreadable: " + e + ")";
        }
    }
}
