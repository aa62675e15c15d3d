package io.bindfirst.server.log;

/**
 * Where operations are recorded, one line each. Calls are cheap and never block the caller: the
 * record is formatted and written elsewhere.
 */
public interface AccessLog extends AutoCloseable {

    /** For a server whose access log is disabled. */
    AccessLog DISABLED = new AccessLog() {
        @Override
        public void log(AccessRecord record) {
        }

        @Override
        public void close() {
        }
    };

    void log(AccessRecord record);

    /** Writes what is queued and closes the file. */
    @Override
    void close();
}
