package io.bindfirst.server.monitor;

import java.util.concurrent.atomic.LongAdder;

import io.bindfirst.server.plugin.OperationType;

/**
 * Operations completed since the start, by type: counted once per operation where it finishes
 * ({@code Operation.finish}). A {@link LongAdder} per type, so the count costs the bind path one uncontended
 * add, whichever thread finishes it.
 */
public final class OperationCounts {
    private final LongAdder[] completed = new LongAdder[OperationType.values().length];

    public OperationCounts() {
        for (int i = 0; i < completed.length; i++) {
            completed[i] = new LongAdder();
        }
    }

    public void completed(OperationType type) {
        completed[type.ordinal()].increment();
    }

    /** Operations of this type completed since the start. */
    public long count(OperationType type) {
        return completed[type.ordinal()].sum();
    }

    /** Operations of every type completed since the start. */
    public long total() {
        long sum = 0;
        for (LongAdder a : completed) {
            sum += a.sum();
        }
        return sum;
    }
}
