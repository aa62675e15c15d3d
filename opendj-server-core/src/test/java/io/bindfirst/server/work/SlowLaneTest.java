package io.bindfirst.server.work;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertFalse;
import static org.testng.Assert.assertTrue;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;

import org.testng.annotations.Test;

public class SlowLaneTest {

    /** Work of about {@code millis} on the calling thread, calling the pacer as long work does. */
    private static void work(SlowLane lane, long millis) {
        long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
        while (System.nanoTime() < end) {
            lane.pacer().pace();
        }
    }

    @Test(timeOut = 30_000)
    public void pausesOnlyWhileTheWorkersHaveWork() throws Exception {
        WorkerPool main = new WorkerPool(1, 10, 0);
        SlowLane lane = new SlowLane(1, 10, 10, main);
        try {
            // The workers are idle: the lane works flat out.
            CountDownLatch idleRun = new CountDownLatch(1);
            assertTrue(lane.enqueue(() -> {
                work(lane, 30);
                idleRun.countDown();
            }));
            assertTrue(idleRun.await(10, TimeUnit.SECONDS));
            assertEquals(lane.timesPaused(), 0, "paused with no other work");

            // A worker is busy: the lane gives way.
            CountDownLatch release = new CountDownLatch(1);
            assertTrue(main.enqueue(() -> {
                try {
                    release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }));
            assertTrue(main.hasWork());
            CountDownLatch busyRun = new CountDownLatch(1);
            assertTrue(lane.enqueue(() -> {
                work(lane, 30);
                busyRun.countDown();
            }));
            assertTrue(busyRun.await(10, TimeUnit.SECONDS));
            assertTrue(lane.timesPaused() > 0, "never paused while the workers had work");
            release.countDown();
        } finally {
            lane.close();
            main.close();
        }
    }

    @Test(timeOut = 60_000)
    public void theLaneGivesWayToOperationsThatRanInlineThoughNoneWaits() throws Exception {
        WorkerPool main = new WorkerPool(1, 10, 0);
        SlowLane lane = new SlowLane(1, 10, 10, main);
        AtomicBoolean binding = new AtomicBoolean(true);
        Thread selector = new Thread(() -> {
            while (binding.get()) {
                main.ranInline(); // a cached bind on a transport thread: never queued
                LockSupport.parkNanos(50_000);
            }
        });
        selector.start();
        try {
            CountDownLatch run = new CountDownLatch(1);
            assertTrue(lane.enqueue(() -> {
                work(lane, 30);
                run.countDown();
            }));
            assertTrue(run.await(30, TimeUnit.SECONDS));
            assertFalse(main.hasWork(), "nothing ever waited in the main queue");
            assertTrue(lane.timesPaused() > 0, "never paused while binds ran inline");
        } finally {
            binding.set(false);
            selector.join();
            lane.close();
            main.close();
        }
    }

    @Test
    public void thePacerDoesNothingOffTheLane() {
        WorkerPool main = new WorkerPool(1, 10, 0);
        SlowLane lane = new SlowLane(1, 10, 1, main);
        try {
            CountDownLatch release = new CountDownLatch(1);
            assertTrue(main.enqueue(() -> {
                try {
                    release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }));
            assertTrue(main.hasWork());
            work(lane, 5); // this test thread is not a lane thread
            assertEquals(lane.timesPaused(), 0);
            release.countDown();
        } finally {
            lane.close();
            main.close();
        }
    }

    @Test(timeOut = 30_000)
    public void aFullLaneRefuses() throws Exception {
        WorkerPool main = new WorkerPool(1, 10, 0);
        SlowLane lane = new SlowLane(1, 1, 10, main);
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch running = new CountDownLatch(1);
        try {
            Runnable hold = () -> {
                running.countDown();
                try {
                    release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            };
            assertTrue(lane.enqueue(hold));
            assertTrue(running.await(10, TimeUnit.SECONDS));
            assertTrue(lane.enqueue(() -> { }));
            assertFalse(lane.enqueue(() -> { }), "one running and one waiting fill a lane of capacity 1");
        } finally {
            release.countDown();
            lane.close();
            main.close();
        }
    }
}
