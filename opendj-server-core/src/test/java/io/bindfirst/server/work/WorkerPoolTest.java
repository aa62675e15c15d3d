package io.bindfirst.server.work;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertFalse;
import static org.testng.Assert.assertTrue;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.testng.annotations.Test;

public class WorkerPoolTest {

    @Test(timeOut = 30_000)
    public void runsWorkAndRejectsWhenTheQueueIsFull() throws Exception {
        WorkerPool pool = new WorkerPool(1, 2);
        try {
            CountDownLatch release = new CountDownLatch(1);
            CountDownLatch running = new CountDownLatch(1);
            AtomicInteger ran = new AtomicInteger();
            assertTrue(pool.enqueue(() -> {
                running.countDown();
                try {
                    release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                ran.incrementAndGet();
            }));
            assertTrue(running.await(10, TimeUnit.SECONDS));
            assertTrue(pool.enqueue(ran::incrementAndGet));
            assertTrue(pool.enqueue(ran::incrementAndGet));
            assertFalse(pool.enqueue(ran::incrementAndGet), "a full queue must refuse, not grow");
            release.countDown();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (ran.get() < 3 && System.nanoTime() < deadline) {
                Thread.sleep(5);
            }
            assertEquals(ran.get(), 3);
        } finally {
            pool.close();
        }
    }

    @Test(timeOut = 30_000)
    public void aFailingOperationDoesNotKillItsWorker() throws Exception {
        WorkerPool pool = new WorkerPool(1, 10);
        try {
            assertTrue(pool.enqueue(() -> {
                throw new IllegalStateException("boom (expected by the test)");
            }));
            CountDownLatch after = new CountDownLatch(1);
            assertTrue(pool.enqueue(after::countDown));
            assertTrue(after.await(10, TimeUnit.SECONDS));
        } finally {
            pool.close();
        }
    }
}
