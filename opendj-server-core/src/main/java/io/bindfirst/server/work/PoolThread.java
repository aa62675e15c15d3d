package io.bindfirst.server.work;

/** A thread of one of the server's pools, which knows how to replace it while it waits ({@link Compensation}). */
class PoolThread extends Thread {
    private final Compensation compensation;

    PoolThread(Runnable r, String name, Compensation compensation) {
        super(r, name);
        this.compensation = compensation;
        setDaemon(true);
    }

    Compensation compensation() {
        return compensation;
    }
}
