package io.bindfirst.it.ops;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.testng.annotations.AfterClass;
import org.testng.annotations.BeforeClass;
import org.testng.annotations.Test;

import com.unboundid.ldap.protocol.LDAPMessage;

import io.bindfirst.it.support.RawLdap;
import io.bindfirst.it.support.TestServer;
import io.bindfirst.server.work.WorkerPool;

/**
 * Resource control: a work queue far smaller than the load (capacity 4, one worker) under 1,000 connections
 * that each pipeline 10 binds at once. The server must stop reading while the queue is full (its read gate
 * parks reads), hold no more operations than capacity plus the burst already read, refuse nothing as busy,
 * and answer every request.
 */
public class BackPressureTest {
    private static final int CONNECTIONS = 1_000;
    private static final int PIPELINED = 10;
    private static final int CAPACITY = 4;
    private static final int WORKERS = 1;
    private static final int SELECTORS = 2;
    private TestServer server;

    @BeforeClass
    public void start() throws Exception {
        server = TestServer.start(100, c -> c
                .withWorkQueue(c.workQueue().withWorkerThreads(WORKERS).withCapacity(CAPACITY))
                .withListener(c.listener().withSelectorThreads(SELECTORS)
                        .withMaxConcurrentOpsPerConnection(PIPELINED)));
    }

    @AfterClass(alwaysRun = true)
    public void stop() {
        server.close();
    }

    @Test(timeOut = 180_000)
    public void aSaturatedQueueStopsReadingAndEveryRequestIsAnswered() throws Exception {
        List<RawLdap> clients = new ArrayList<>();
        Map<Integer, Integer> results = new TreeMap<>();
        try {
            for (int i = 0; i < CONNECTIONS; i++) {
                clients.add(new RawLdap(server.port()));
            }
            for (int i = 0; i < CONNECTIONS; i++) {
                byte[][] binds = new byte[PIPELINED][];
                for (int k = 0; k < PIPELINED; k++) {
                    binds[k] = RawLdap.bind(k + 1, TestServer.user((i + k) % 100), TestServer.USER_PASSWORD);
                }
                clients.get(i).send(binds);
            }
            for (RawLdap c : clients) {
                for (int k = 0; k < PIPELINED; k++) {
                    LDAPMessage m = c.read(LDAPMessage.PROTOCOL_OP_TYPE_BIND_RESPONSE);
                    results.merge(m.getBindResponseProtocolOp().getResultCode(), 1, Integer::sum);
                }
            }
        } finally {
            for (RawLdap c : clients) {
                c.close();
            }
        }
        assertEquals(results, Map.of(0, CONNECTIONS * PIPELINED), "result codes -> count");
        WorkerPool pool = (WorkerPool) server.server().workQueue();
        int bound = WORKERS + CAPACITY + (SELECTORS + WORKERS) * PIPELINED;
        assertTrue(pool.mostPending() <= bound, "operations held at once: " + pool.mostPending()
                + ", more than capacity + burst (" + bound + ")");
        assertTrue(server.server().timesReadsParked() > 0, "the read gate never closed: back-pressure untested");
    }
}
