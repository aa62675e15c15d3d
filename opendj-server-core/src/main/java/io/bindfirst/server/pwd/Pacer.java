package io.bindfirst.server.pwd;

/**
 * Lets a long computation give way to cheap work: called every fraction of a millisecond of work, it may
 * pause the calling thread (see {@code io.bindfirst.server.work.SlowLane}). {@link #NONE} never pauses.
 */
@FunctionalInterface
public interface Pacer {
    Pacer NONE = () -> { };

    void pace();
}
