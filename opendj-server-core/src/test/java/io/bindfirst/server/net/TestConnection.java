package io.bindfirst.server.net;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.forgerock.opendj.ldap.DN;
import org.forgerock.opendj.ldap.ResultCode;
import org.forgerock.opendj.ldap.controls.Control;
import org.forgerock.opendj.ldap.requests.Requests;
import org.forgerock.opendj.ldap.responses.Responses;
import org.forgerock.opendj.ldap.responses.Result;

import io.bindfirst.server.replication.ReplicaWrites;
import io.bindfirst.server.core.ServerContext;
import io.bindfirst.server.config.ServerConfig;
import io.bindfirst.server.core.CancelOperation;
import io.bindfirst.server.core.Operation;
import io.bindfirst.server.log.AccessLog;
import io.bindfirst.server.stats.OperationCounts;
import io.bindfirst.server.plugin.OperationType;
import io.bindfirst.server.plugin.PluginInvoker;

/**
 * One client connection as the transport's tests need it: its limit on outstanding operations, and
 * operations on it that send a chosen number of search entries, then their result, through the real
 * {@link Operation#run} (no plugins, no access log). The only place in these tests that knows how an
 * operation and what it runs on are built.
 */
final class TestConnection {
    private final ServerContext server;
    private final ClientConnection connection;

    TestConnection(int maxConcurrentOps) {
        ServerConfig.Listener listener =
                new ServerConfig.Listener("127.0.0.1", 0, 128, 1 << 20, maxConcurrentOps, 16, 1,
                        ServerConfig.Listener.Inline.NEVER, false, false, false);
        ServerConfig config = new ServerConfig(Path.of("."), Path.of("."), listener, null, null,
                ServerConfig.SecurePasswordBinds.NON_LOOPBACK,
                new ServerConfig.Limits(0, 0, 0), new ServerConfig.WorkQueue(1, 16, 1, 100, Long.MAX_VALUE),
                new ServerConfig.Passwords("SSHA512", false), List.of(), List.of(), Map.of(), List.of(), null,
                ServerConfig.HttpMetrics.DISABLED, ServerConfig.Sasl.DEFAULTS,
                io.bindfirst.server.config.AccessControlConfig.OFF, null, false, List.of());
        // Only what Operation.run and finish touch: plugins and the access log. No backend, schema or registry.
        server = new ServerContext(config, null, null, null, null, null, null, null, AccessLog.DISABLED, null,
                Set.of(), new PluginInvoker(List.of()), null, null, null, new OperationCounts(), null, null,
                null, null, new ReplicaWrites(java.util.Map.of()));
        // No SDK context: it is used to write notices and to name the peer, and nothing here does either.
        connection = new ClientConnection(null, new ClientConnections(1, 0), null, AccessLog.DISABLED,
                maxConcurrentOps, null, false);
    }

    /** A decoder of one request on this connection, building operations with the real factory. */
    RequestDecoder decoder() {
        return new RequestDecoder(new io.bindfirst.server.core.OperationFactory(server), connection);
    }

    /** The connection's limit, which its operations free as they finish. */
    OperationSlots slots() {
        return connection.slots();
    }

    /** An operation that sends {@code entries} entries, then SUCCESS; decoded, as the request handler counts it. */
    Entries operation(long entries) {
        Entries op = new Entries(server, connection, entries);
        connection.operationStarted(op);
        return op;
    }

    /** What the transport's tests' operations share: message ID 1, no controls, their type's name in the log. */
    private abstract static class TestOperation extends Operation {
        private final OperationType type;
        private final DN target;

        TestOperation(ServerContext server, ClientConnection connection, OperationType type, DN target) {
            super(server, connection, 1);
            this.type = type;
            this.target = target;
        }

        @Override
        public OperationType operationType() {
            return type;
        }

        @Override
        protected List<Control> requestControls() {
            return List.of();
        }

        @Override
        protected String kind() {
            return type.name();
        }

        @Override
        public DN targetDN() {
            return target;
        }
    }

    /** A Cancel (RFC 3909) with message ID {@code messageId} naming {@code target}, decoded as the handler does. */
    Operation cancel(int messageId, int target) {
        Operation op = new CancelOperation(server, connection, messageId, Requests.newCancelExtendedRequest(target));
        connection.operationStarted(op);
        return op;
    }

    /**
     * An operation that may start inline (as a cached bind does); with {@code movesToWorkers} it continues
     * on the workers ({@code Operation.onWorkers}) as a bind whose entry is not in memory does.
     */
    Cheap cheap(boolean movesToWorkers) {
        Cheap op = new Cheap(server, connection, movesToWorkers);
        connection.operationStarted(op);
        return op;
    }

    /** Records the threads it started and finished on, and whether it saw itself inline when it started. */
    static final class Cheap extends TestOperation {
        private final boolean movesToWorkers;
        private final CountDownLatch finished = new CountDownLatch(1);
        volatile Thread startedOn;
        volatile Thread finishedOn;
        volatile boolean startedInline;

        Cheap(ServerContext server, ClientConnection connection, boolean movesToWorkers) {
            super(server, connection, OperationType.BIND, null);
            this.movesToWorkers = movesToWorkers;
        }

        @Override
        public boolean startsInline() {
            return true;
        }

        /** Waits until it has finished, wherever it ran. */
        void awaitFinished() throws InterruptedException {
            if (!finished.await(30, TimeUnit.SECONDS)) {
                throw new AssertionError("the operation never finished");
            }
        }

        @Override
        protected Result execute() {
            startedOn = Thread.currentThread();
            startedInline = inline();
            return movesToWorkers ? onWorkers(this::rest) : rest();
        }

        private Result rest() {
            finishedOn = Thread.currentThread();
            finished.countDown();
            return Responses.newBindResult(ResultCode.SUCCESS);
        }
    }

    /**
     * A search-like operation: {@code entries} entries named {@code cn=entry-<i>}, then SUCCESS. It stops
     * sending entries once abandoned; {@link #hold()} makes it wait in {@code execute} for {@link #release()}.
     */
    static final class Entries extends TestOperation {
        private static final DN BASE = DN.valueOf("dc=example,dc=com");
        private final long entries;
        private final CountDownLatch running = new CountDownLatch(1);
        private volatile CountDownLatch release;

        Entries(ServerContext server, ClientConnection connection, long entries) {
            super(server, connection, OperationType.SEARCH, BASE);
            this.entries = entries;
        }

        Entries hold() {
            release = new CountDownLatch(1);
            return this;
        }

        void release() {
            release.countDown();
        }

        /** Waits until a worker has started it. */
        void awaitRunning() throws InterruptedException {
            if (!running.await(30, TimeUnit.SECONDS)) {
                throw new AssertionError("the operation was never run");
            }
        }

        boolean hasRun() {
            return running.getCount() == 0;
        }

        @Override
        protected Result execute() {
            running.countDown();
            CountDownLatch r = release;
            if (r != null) {
                try {
                    r.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            for (long i = 0; i < entries && !isAbandoned(); i++) {
                sink().send(Responses.newSearchResultEntry(BASE.child("cn", "entry-" + i)));
            }
            return Responses.newResult(ResultCode.SUCCESS);
        }
    }
}
