package io.bindfirst.server.net;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertTrue;

import java.net.InetSocketAddress;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.glassfish.grizzly.filterchain.BaseFilter;
import org.glassfish.grizzly.filterchain.FilterChain;
import org.glassfish.grizzly.filterchain.FilterChainContext;
import org.glassfish.grizzly.filterchain.NextAction;
import org.testng.annotations.Test;

import io.bindfirst.server.testsupport.Poll;
import io.bindfirst.server.work.WorkerPool;

/**
 * The server's transport with two selector threads and real sockets: connections opened in pairs of a busy one
 * and an idle one (as UnboundID's AuthRate and a bind pool beside a search pool open them) must not all land
 * their busy halves on one selector. Round robin, Grizzly's default, puts every busy connection on the same one
 * here, which fails this test.
 */
public class RandomSelectorDistributorTest {
    private static final int PAIRS = 200;

    @Test(timeOut = 120_000)
    public void busyHalvesOfConnectionPairsSpreadOverBothSelectors() throws Exception {
        // The selector thread that read each client's byte, by the client's port.
        Map<Integer, String> selectorOf = new ConcurrentHashMap<>();
        List<Socket> sockets = new ArrayList<>();
        try (WorkerPool workers = new WorkerPool(1, 16, 16);
             LdapTransport transport = new LdapTransport(2, new ReadGate(workers, new ClientConnections(16, 0)))) {
            ((FilterChain) transport.grizzly().getProcessor()).add(new BaseFilter() {
                @Override
                public NextAction handleRead(FilterChainContext ctx) {
                    int peer = ((InetSocketAddress) ctx.getConnection().getPeerAddress()).getPort();
                    selectorOf.putIfAbsent(peer, Thread.currentThread().getName());
                    return ctx.getStopAction();
                }
            });
            int port = ((InetSocketAddress) transport.grizzly().bind("127.0.0.1", 0).getLocalAddress()).getPort();
            Map<String, Integer> busyPerSelector = new HashMap<>();
            for (int i = 0; i < 2 * PAIRS; i++) {
                Socket s = new Socket("127.0.0.1", port);
                sockets.add(s);
                s.getOutputStream().write(1);
                s.getOutputStream().flush();
                // One connection at a time, so that the order of accepts is the order of connects.
                Poll.until("connection " + i + " read", Duration.ofSeconds(30),
                        () -> selectorOf.containsKey(s.getLocalPort()));
                if (i % 2 == 0) {
                    busyPerSelector.merge(selectorOf.get(s.getLocalPort()), 1, Integer::sum);
                }
            }
            assertEquals(busyPerSelector.size(), 2, "busy connections per selector: " + busyPerSelector);
            // Binomial(200, 1/2): below 60 on either side with a probability under 1e-8.
            for (int n : busyPerSelector.values()) {
                assertTrue(n >= 60, "busy connections per selector: " + busyPerSelector);
            }
        } finally {
            for (Socket s : sockets) {
                s.close();
            }
        }
    }
}
