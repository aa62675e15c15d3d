package io.bindfirst.server.cache;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertNull;
import static org.testng.Assert.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

import org.testng.annotations.Test;

public class FifoCacheTest {
    @Test
    public void theFirstAdmittedLeaveFirstAndTheSizeNeverPassesTheCapacity() {
        FifoCache<Integer, String> cache = new FifoCache<>(50);
        for (int i = 0; i < 5_000; i++) {
            cache.put(i, "v" + i);
            assertTrue(cache.size() <= 50, "holds " + cache.size());
        }
        assertNull(cache.get(4_949));
        for (int i = 4_950; i < 5_000; i++) {
            assertEquals(cache.get(i), "v" + i);
        }
    }

    @Test
    public void removedKeysAreGoneAndMayComeBack() {
        FifoCache<String, String> cache = new FifoCache<>(4);
        cache.put("a", "1");
        cache.put("b", "2");
        cache.remove("a");
        assertNull(cache.get("a"));
        cache.put("a", "3");
        assertEquals(cache.get("a"), "3");
        cache.removeKeysIf(k -> k.compareTo("b") <= 0);
        assertEquals(cache.size(), 0);
    }

    @Test
    public void aCapacityOfZeroHoldsNothing() {
        FifoCache<String, String> cache = new FifoCache<>(0);
        cache.put("a", "1");
        assertNull(cache.get("a"));
    }

    /**
     * Eight threads admit, read and remove 500 keys through a cache of 64, so entries come and go all the time:
     * a read must only ever see its own key's value, and the size must stay within the capacity.
     */
    @Test(timeOut = 60_000)
    public void threadsRacingAdmissionsEvictionsAndRemovalsOnlyEverSeeTheirOwnValues() throws Exception {
        FifoCache<Integer, String> cache = new FifoCache<>(64);
        int threads = 8;
        CyclicBarrier start = new CyclicBarrier(threads);
        ConcurrentLinkedQueue<String> wrong = new ConcurrentLinkedQueue<>();
        List<Thread> running = new ArrayList<>();
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(2);
        for (int t = 0; t < threads; t++) {
            Thread thread = new Thread(() -> {
                try {
                    start.await();
                    ThreadLocalRandom random = ThreadLocalRandom.current();
                    while (System.nanoTime() < end) {
                        int key = random.nextInt(500);
                        int what = random.nextInt(10);
                        if (what < 3) {
                            cache.put(key, "v" + key);
                        } else if (what == 3) {
                            cache.remove(key);
                        } else {
                            String value = cache.get(key);
                            if (value != null && !value.equals("v" + key)) {
                                wrong.add(key + " -> " + value);
                            }
                        }
                        if (cache.size() > 64) {
                            wrong.add("size " + cache.size());
                        }
                    }
                } catch (Exception e) {
                    wrong.add(e.toString());
                }
            });
            thread.start();
            running.add(thread);
        }
        for (Thread thread : running) {
            thread.join();
        }
        assertTrue(wrong.isEmpty(), "wrong: " + wrong);
    }
}
