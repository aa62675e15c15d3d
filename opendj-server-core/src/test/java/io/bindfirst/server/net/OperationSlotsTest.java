package io.bindfirst.server.net;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertFalse;
import static org.testng.Assert.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.testng.annotations.Test;

import io.bindfirst.server.work.WorkerPool;

public class OperationSlotsTest {

    @Test
    public void startsUpToTheLimitAtOnceAndTheRestInArrivalOrderAsSlotsFree() {
        OperationSlots slots = new OperationSlots(2);
        List<String> started = new ArrayList<>();
        for (String op : List.of("a", "b", "c", "d", "e")) {
            slots.received();
            slots.start(() -> started.add(op));
        }
        assertEquals(started, List.of("a", "b"), "two slots: the third waits");
        slots.done();
        assertEquals(started, List.of("a", "b", "c"));
        slots.done();
        slots.done();
        assertEquals(started, List.of("a", "b", "c", "d", "e"), "the waiting ones start in the order they came");
    }

    @Test
    public void aSlotFreedWithNothingWaitingServesTheNextStartAtOnce() {
        OperationSlots slots = new OperationSlots(1);
        AtomicInteger started = new AtomicInteger();
        slots.received();
        slots.start(started::incrementAndGet);
        slots.done();
        slots.received();
        slots.start(started::incrementAndGet);
        assertEquals(started.get(), 2, "the slot the first one freed must be free again");
    }

    @Test
    public void readingStopsAtTheLimitAndTheParkedReadResumesOnceWhenAnOperationFinishes() {
        OperationSlots slots = new OperationSlots(2);
        AtomicInteger resumed = new AtomicInteger();
        slots.received();
        assertTrue(slots.readAllowed());
        slots.received();
        assertFalse(slots.readAllowed(), "two outstanding of two");
        slots.parkRead(resumed::incrementAndGet);
        assertEquals(resumed.get(), 0, "the read stays parked while the limit is reached");
        slots.done();
        assertEquals(resumed.get(), 1, "one finished: below the limit, the read resumes");
        assertTrue(slots.readAllowed());
        slots.done();
        assertEquals(resumed.get(), 1, "a parked read is resumed once");
        assertEquals(slots.outstanding(), 0);
    }

    @Test
    public void operationsWaitingForASlotStillCountAgainstReading() {
        OperationSlots slots = new OperationSlots(1);
        AtomicInteger started = new AtomicInteger();
        AtomicInteger resumed = new AtomicInteger();
        slots.received();
        slots.start(started::incrementAndGet);
        slots.received(); // pipelined in the same segment: decoded past the limit
        slots.start(started::incrementAndGet);
        slots.parkRead(resumed::incrementAndGet);
        slots.done();
        assertEquals(started.get(), 2, "the first one's slot goes to the one waiting");
        assertEquals(resumed.get(), 0, "one still outstanding of one: no reading yet");
        slots.done();
        assertEquals(resumed.get(), 1);
    }

    @Test
    public void aReadParkedJustAfterTheLastOperationFinishedResumesAtOnce() {
        // The gate saw the limit reached, then the operation finished before the read was parked: no operation
        // is left to resume it, so parking must notice.
        OperationSlots slots = new OperationSlots(1);
        AtomicInteger resumed = new AtomicInteger();
        slots.received();
        assertFalse(slots.readAllowed());
        slots.done();
        slots.parkRead(resumed::incrementAndGet);
        assertEquals(resumed.get(), 1);
    }

    /**
     * The gate's check-then-park against an operation finishing on a worker: whatever the interleaving,
     * the read goes on exactly once (never lost, never twice).
     */
    @Test(timeOut = 120_000)
    public void aReadRacingTheLastOperationGoesOnExactlyOnce() throws Exception {
        int rounds = 20_000;
        CyclicBarrier start = new CyclicBarrier(2);
        CyclicBarrier end = new CyclicBarrier(2);
        AtomicInteger wentOn = new AtomicInteger();
        OperationSlots[] current = new OperationSlots[1];
        List<Integer> wrong = new ArrayList<>();
        Thread worker = new Thread(() -> {
            try {
                for (int i = 0; i < rounds; i++) {
                    start.await();
                    spin(i * 7 % 64);
                    current[0].done();
                    end.await();
                }
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }, "slots-race-worker");
        worker.setDaemon(true);
        worker.start();
        for (int i = 0; i < rounds; i++) {
            OperationSlots slots = new OperationSlots(1);
            slots.received();
            current[0] = slots;
            wentOn.set(0);
            start.await(); // publishes current[0] to the worker
            spin(i % 64); // the two sides meet at every phase of each other's code over the rounds
            if (slots.readAllowed()) {
                wentOn.incrementAndGet();
            } else {
                slots.parkRead(wentOn::incrementAndGet);
            }
            end.await(); // the worker's done() has returned
            if (wentOn.get() != 1 && wrong.size() < 10) {
                wrong.add(wentOn.get());
            }
        }
        worker.join(TimeUnit.SECONDS.toMillis(30));
        assertTrue(wrong.isEmpty(), "reads that went on 0 or 2 times instead of once: " + wrong);
    }

    private static void spin(int n) {
        for (int k = 0; k < n; k++) {
            Thread.onSpinWait();
        }
    }

    /** Operations started and finished from several threads, as selectors and workers do: never past the limit. */
    @Test(timeOut = 120_000)
    public void concurrentStartsNeverExceedTheLimitAndAllRun() throws Exception {
        int limit = 3;
        int threads = 4;
        int perThread = 5_000;
        OperationSlots slots = new OperationSlots(limit);
        WorkerPool workers = new WorkerPool(4, 1_000_000, 0);
        AtomicInteger holding = new AtomicInteger();
        AtomicInteger mostHolding = new AtomicInteger();
        CountDownLatch finished = new CountDownLatch(threads * perThread);
        try {
            Runnable operation = () -> {
                mostHolding.accumulateAndGet(holding.incrementAndGet(), Math::max);
                Thread.yield();
                holding.decrementAndGet();
                slots.done();
                finished.countDown();
            };
            CyclicBarrier go = new CyclicBarrier(threads);
            List<Thread> selectors = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                Thread s = new Thread(() -> {
                    try {
                        go.await();
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                    for (int i = 0; i < perThread; i++) {
                        slots.received();
                        slots.start(() -> workers.enqueue(operation));
                    }
                }, "slots-selector-" + t);
                s.start();
                selectors.add(s);
            }
            for (Thread s : selectors) {
                s.join();
            }
            assertTrue(finished.await(60, TimeUnit.SECONDS), finished.getCount() + " operations never ran");
            assertTrue(mostHolding.get() <= limit, mostHolding.get() + " held a slot at once, limit " + limit);
            assertEquals(slots.outstanding(), 0);
            assertTrue(slots.readAllowed());
        } finally {
            workers.close();
        }
    }
}
