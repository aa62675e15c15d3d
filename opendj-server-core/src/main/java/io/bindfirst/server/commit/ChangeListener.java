package io.bindfirst.server.commit;

/**
 * A part of the server that keeps something true of the directory in memory (the registry of authenticated
 * connections, compiled access rules, the group index, the write epoch, ...) and is told of every committed
 * change through the {@link CommitPath}, before the client that made it is answered.
 */
@FunctionalInterface
public interface ChangeListener {

    /**
     * {@code change} committed. Runs on the thread that committed it, before the answer; it must not fail (a
     * listener that cannot keep its state true logs it and keeps the rest of its state). Work that must wait
     * until the origin connection has its answer (closing that very connection) goes into {@code afterAnswer}.
     */
    void committed(Change change, AfterAnswer afterAnswer);
}
