package io.bindfirst.server.work;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertFalse;
import static org.testng.Assert.assertTrue;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.testng.annotations.Test;

import io.bindfirst.server.testsupport.Poll;

public class WorkerPoolTest {

    @Test(timeOut = 30_000)
    public void saturatesAtCapacityAndRejectsOnlyPastTheBurst() throws Exception {
        WorkerPool pool = new WorkerPool(1, 2, 1);
        AtomicInteger caughtUp = new AtomicInteger();
        pool.whenCaughtUp(caughtUp::incrementAndGet);
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
            assertFalse(pool.saturated(), "one running of capacity 2");
            assertTrue(pool.enqueue(ran::incrementAndGet));
            assertTrue(pool.saturated(), "two held (one running, one waiting) of capacity 2");
            // Past the capacity, requests already read (the burst) still queue...
            assertTrue(pool.enqueue(ran::incrementAndGet));
            assertTrue(pool.enqueue(ran::incrementAndGet));
            // ...and only past capacity + burst is one refused.
            assertFalse(pool.enqueue(ran::incrementAndGet), "past capacity + burst the queue must refuse, not grow");
            assertEquals(pool.mostPending(), 4);
            release.countDown();
            Poll.until("the four operations run, the queue below capacity and the transport told to read again",
                    Duration.ofSeconds(10), () -> ran.get() >= 4 && !pool.saturated() && caughtUp.get() > 0);
            assertEquals(ran.get(), 4);
            assertFalse(pool.saturated());
            assertTrue(caughtUp.get() > 0, "the transport must be told to read again");
        } finally {
            pool.close();
        }
    }

    @Test(timeOut = 30_000)
    public void aFailingOperationDoesNotKillItsWorker() throws Exception {
        WorkerPool pool = new WorkerPool(1, 10, 0);
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
