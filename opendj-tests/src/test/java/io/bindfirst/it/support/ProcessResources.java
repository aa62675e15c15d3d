package io.bindfirst.it.support;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * A process's threads (/proc/PID/task/N/comm, by name with digits folded so that {@code worker-3} and
 * {@code worker-7} count together) except the JVM's own, its sockets and its other descriptors
 * (/proc/PID/fd) except the database's log files ({@code .jdb}), of which the database opens a new one
 * whenever the last is full.
 *
 * <p>The JVM's own threads (compilers, garbage collector workers, G1's refinement threads) are left out:
 * the JVM starts them when its load calls for them, up to limits it sets from the number of processors,
 * and keeps some of them for good, so one more of them after a load is not something the server holds.
 */
public record ProcessResources(SortedMap<String, Integer> threads, int sockets, int otherFds) {
    private static final Pattern DIGITS = Pattern.compile("\\d+");
    /** Names the JVM gives its own threads (Linux keeps the first 15 characters). */
    private static final List<String> JVM_THREADS = List.of("C1 CompilerThre", "C2 CompilerThre",
            "GC Thread#", "G1 Refine#", "G1 Conc#", "G1 Main Marker", "G1 Service", "G1 Young RemSet",
            "VM Thread", "VM Periodic Tas", "Sweeper thread", "Monitor Deflati", "Service Thread",
            "Notification Th", "Signal Dispatch", "Reference Handl", "Finalizer", "Common-Cleaner",
            "Attach Listener");

    public static ProcessResources of(long pid) throws IOException {
        Path proc = Path.of("/proc", Long.toString(pid));
        SortedMap<String, Integer> threads = new TreeMap<>();
        try (Stream<Path> tasks = Files.list(proc.resolve("task"))) {
            for (Path task : (Iterable<Path>) tasks::iterator) {
                String name;
                try {
                    name = Files.readString(task.resolve("comm")).strip();
                } catch (IOException e) {
                    continue; // ended between the listing and the read
                }
                if (JVM_THREADS.stream().noneMatch(name::startsWith)) {
                    threads.merge(DIGITS.matcher(name).replaceAll("N"), 1, Integer::sum);
                }
            }
        }
        int sockets = 0;
        int other = 0;
        try (Stream<Path> fds = Files.list(proc.resolve("fd"))) {
            for (Path fd : (Iterable<Path>) fds::iterator) {
                String target;
                try {
                    target = Files.readSymbolicLink(fd).toString();
                } catch (IOException e) {
                    continue; // closed between the listing and the read
                }
                if (target.startsWith("socket:")) {
                    sockets++;
                } else if (!target.endsWith(".jdb")) {
                    other++;
                }
            }
        }
        return new ProcessResources(threads, sockets, other);
    }

    int threadCount() {
        return threads.values().stream().mapToInt(Integer::intValue).sum();
    }

    /**
     * No more of anything than this (a pool may shrink after the load; it must not grow), and no thread of a
     * name this did not have.
     */
    public boolean covers(ProcessResources now) {
        return now.threadCount() <= threadCount() && threads.keySet().containsAll(now.threads.keySet())
                && now.sockets <= sockets && now.otherFds <= otherFds;
    }

    @Override
    public String toString() {
        return "ProcessResources[threads=" + threadCount() + " " + threads + ", sockets=" + sockets
                + ", otherFds=" + otherFds + "]";
    }
}
