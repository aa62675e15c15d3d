package io.bindfirst.server.testsupport;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Predicate;

/**
 * Waiting in a test for something that happens on another thread (a close event, a registry update, a
 * worker finishing): checks every few milliseconds until it holds or the time is up. On timeout it fails
 * with an {@link AssertionError} that says what was awaited, and for how long.
 *
 * <p>Only for waiting. A pause that is part of a test's load (time between requests, a slow backend) is a
 * plain sleep, not a poll.
 */
public final class Poll {
    private static final long INTERVAL_MILLIS = 5;

    /** A condition to wait for; may call the server and throw. */
    @FunctionalInterface
    public interface Condition {
        boolean holds() throws Exception;
    }

    /** A value to watch, read again at each check. */
    @FunctionalInterface
    public interface Probe<T> {
        T read() throws Exception;
    }

    private Poll() {
    }

    /**
     * Returns once {@code condition} holds.
     *
     * @param description what is awaited, for the failure message, e.g. "no connection registered"
     * @throws AssertionError if it still does not hold after {@code timeout}
     */
    public static void until(String description, Duration timeout, Condition condition) throws Exception {
        if (!within(timeout, condition)) {
            throw new AssertionError("Timed out after " + timeout.toMillis() + " ms waiting for: " + description);
        }
    }

    /**
     * Returns the first value of {@code probe} that {@code wanted} accepts.
     *
     * @param description what is awaited, for the failure message, which also gives the last value read
     * @throws AssertionError if no value read within {@code timeout} was accepted
     */
    public static <T> T until(String description, Duration timeout, Probe<T> probe, Predicate<? super T> wanted)
            throws Exception {
        AtomicReference<T> last = new AtomicReference<>();
        boolean held = within(timeout, () -> {
            T value = probe.read();
            last.set(value);
            return wanted.test(value);
        });
        if (!held) {
            throw new AssertionError("Timed out after " + timeout.toMillis() + " ms waiting for: " + description
                    + " (last seen: " + last.get() + ")");
        }
        return last.get();
    }

    /**
     * Whether {@code condition} came to hold within {@code timeout}, for a test that counts outcomes rather
     * than failing at the first. It is always checked at least once, and once more at the end of the time.
     */
    public static boolean within(Duration timeout, Condition condition) throws Exception {
        Objects.requireNonNull(condition, "condition");
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            if (condition.holds()) {
                return true;
            }
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return false;
            }
            Thread.sleep(Math.min(INTERVAL_MILLIS, Math.max(1, Duration.ofNanos(left).toMillis())));
        }
    }
}
