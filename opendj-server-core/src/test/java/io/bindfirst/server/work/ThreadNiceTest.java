package io.bindfirst.server.work;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.expectThrows;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import org.testng.SkipException;
import org.testng.annotations.Test;

/** The calling thread's nice value, set through the C library and read back from /proc, on fresh threads. */
public class ThreadNiceTest {
    private static int niceOfThisThread() throws Exception {
        String stat = Files.readString(Path.of("/proc/thread-self/stat"));
        // after the name in parentheses: state is field 3, nice field 19
        return Integer.parseInt(stat.substring(stat.lastIndexOf(')') + 2).split(" ")[19 - 3]);
    }

    private static <T> T onAFreshThread(Supplier<T> work) throws Exception {
        CompletableFuture<T> result = new CompletableFuture<>();
        Thread t = new Thread(() -> {
            try {
                result.complete(work.get());
            } catch (Throwable e) {
                result.completeExceptionally(e);
            }
        }, "thread-nice-test");
        t.start();
        return result.get(30, TimeUnit.SECONDS);
    }

    private static ThreadNice linux() {
        if (!System.getProperty("os.name", "").toLowerCase().startsWith("linux")) {
            throw new SkipException("nice values are per thread on Linux only");
        }
        return ThreadNice.ofThisSystem();
    }

    @Test
    public void raisesTheCallingThreadAloneAndNeverLowersIt() throws Exception {
        ThreadNice nice = linux();
        int mine = niceOfThisThread();
        int[] seen = onAFreshThread(() -> {
            try {
                int before = niceOfThisThread();
                int returned = nice.raiseCurrentThread(15, "test threads");
                int after = niceOfThisThread();
                int again = nice.raiseCurrentThread(3, "test threads"); // lower: left as it is
                return new int[] {before, returned, after, again, niceOfThisThread()};
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        int expected = Math.max(15, seen[0]);
        assertEquals(seen[1], expected, "returned");
        assertEquals(seen[2], expected, "read back from /proc");
        assertEquals(seen[3], expected, "asked for less");
        assertEquals(seen[4], expected, "read back after asking for less");
        assertEquals(niceOfThisThread(), mine, "the calling test thread is not the one changed");
    }

    @Test
    public void refusesValuesOutsideZeroToNineteen() {
        ThreadNice nice = linux();
        expectThrows(IllegalArgumentException.class, () -> nice.raiseCurrentThread(20, "test threads"));
        expectThrows(IllegalArgumentException.class, () -> nice.raiseCurrentThread(-1, "test threads"));
    }
}
