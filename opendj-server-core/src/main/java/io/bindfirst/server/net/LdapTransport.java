package io.bindfirst.server.net;

import java.io.IOException;
import java.util.concurrent.TimeUnit;

import org.glassfish.grizzly.filterchain.Filter;
import org.glassfish.grizzly.filterchain.FilterChainBuilder;
import org.glassfish.grizzly.filterchain.TransportFilter;
import org.glassfish.grizzly.memory.HeapMemoryManager;
import org.glassfish.grizzly.nio.transport.TCPNIOTransport;
import org.glassfish.grizzly.nio.transport.TCPNIOTransportBuilder;
import org.glassfish.grizzly.strategies.SameThreadIOStrategy;
import org.glassfish.grizzly.threadpool.ThreadPoolConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The server's own Grizzly transport, instead of the SDK's shared default one, for three reasons:
 * its filter chain starts with the {@link ReadGate} (server-wide back-pressure); it is shut down with the
 * server; and requests are decoded on the selector threads themselves ({@code SameThreadIOStrategy}) and
 * handed once to the work queue, where the SDK's default adds a second hand-off through a Grizzly worker
 * pool of its own. The selectors never block: they decode, queue, and run the binds that can be answered
 * from memory with one hash ({@link OperationDispatch}).
 */
final class LdapTransport implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(LdapTransport.class);

    private final TCPNIOTransport transport;
    private final ReadGate gate;
    private final WriteGather gather = new WriteGather();

    LdapTransport(int selectorThreads, ReadGate gate) throws IOException {
        TCPNIOTransportBuilder builder = TCPNIOTransportBuilder.newInstance()
                .setIOStrategy(SameThreadIOStrategy.getInstance())
                .setSelectorThreadPoolConfig(ThreadPoolConfig.defaultConfig()
                        .setCorePoolSize(selectorThreads).setMaxPoolSize(selectorThreads)
                        .setPoolName("ldap-selector").setDaemon(true))
                .setWorkerThreadPoolConfig(null)
                .setTcpNoDelay(true)
                .setReuseAddress(true)
                // Heap buffers: pooled direct ones held ~57 MB outside the heap at 400 connections (NMT "Other"),
                // which put resident memory over the 256 MiB target at 400 connections, and bought no CPU per bind.
                // Not pooled: with SDK 5.0.3 a read buffer never returns to a pool (the request envelope keeps a
                // read-only view of it that nothing closes), so a pool hands out a new 4 KiB array per read and,
                // once drained by reads, per response too. HeapMemoryManager slices small buffers out of a chunk
                // per selector thread: a 60-byte read costs 60 bytes.
                .setMemoryManager(new HeapMemoryManager());
        this.transport = builder.build();
        transport.setSelectorRunnersCount(selectorThreads);
        transport.setNIOChannelDistributor(new RandomSelectorDistributor(transport));
        this.gate = gate;
        useFilters();
        transport.start();
    }

    /**
     * The filters a listener created next puts between the transport and the LDAP decoder, after any given
     * here (TLS, for LDAPS) come the {@link ReadGate} and the {@link WriteGather}. The SDK's listener copies the
     * transport's chain when it is created, so each listener keeps the chain it was created with.
     */
    void useFilters(Filter... beforeGate) {
        FilterChainBuilder chain = FilterChainBuilder.stateless().add(new TransportFilter());
        for (Filter f : beforeGate) {
            chain.add(f);
        }
        transport.setProcessor(chain.add(gate).add(gather).build());
    }

    /** The filter that writes a search's last entry and its result at once, in every listener's chain. */
    WriteGather gather() {
        return gather;
    }

    TCPNIOTransport grizzly() {
        return transport;
    }

    /** Lets queued writes (notices of disconnection) go out for a moment, then stops the selectors. */
    @Override
    public void close() {
        try {
            transport.shutdown(2, TimeUnit.SECONDS).get(3, TimeUnit.SECONDS);
        } catch (Exception e) {
            LOG.debug("Graceful transport shutdown did not finish", e);
        } finally {
            try {
                transport.shutdownNow();
            } catch (IOException e) {
                LOG.debug("Transport shutdown failed", e);
            }
        }
    }
}
