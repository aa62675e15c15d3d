package io.bindfirst.server.commit;

import java.util.ArrayList;
import java.util.List;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the listeners of a change left to do once its origin connection has been answered: closing that
 * connection, when the change deleted, renamed away or disabled the entry it is bound as, after it has read the
 * result of its own write. Not thread-safe: filled and run by the thread of the operation that committed.
 */
public final class AfterAnswer {
    private static final Logger LOG = LoggerFactory.getLogger(AfterAnswer.class);

    private List<Runnable> actions;

    /** Adds {@code action}, to be run after the answer, in the order added. */
    public void add(Runnable action) {
        if (actions == null) {
            actions = new ArrayList<>(1);
        }
        actions.add(action);
    }

    /** Whether anything waits. */
    public boolean isEmpty() {
        return actions == null || actions.isEmpty();
    }

    /** Takes in what {@code other} holds, after what this one holds. */
    public void addAll(AfterAnswer other) {
        if (!other.isEmpty()) {
            for (Runnable r : other.actions) {
                add(r);
            }
        }
    }

    /** Runs every action once, in order; one that fails is logged and the others still run. */
    public void run() {
        if (actions == null) {
            return;
        }
        List<Runnable> now = actions;
        actions = null;
        for (Runnable r : now) {
            try {
                r.run();
            } catch (RuntimeException e) {
                LOG.error("An action after a write's answer failed", e);
            }
        }
    }
}
