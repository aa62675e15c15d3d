package io.bindfirst.server.net;

import java.io.IOException;
import java.nio.channels.SelectableChannel;
import java.util.concurrent.ThreadLocalRandom;

import org.glassfish.grizzly.CompletionHandler;
import org.glassfish.grizzly.nio.AbstractNIOConnectionDistributor;
import org.glassfish.grizzly.nio.NIOTransport;
import org.glassfish.grizzly.nio.RegisterChannelResult;
import org.glassfish.grizzly.nio.SelectorRunner;

/**
 * Gives each accepted connection to a selector thread drawn at random, instead of Grizzly's round robin.
 * Clients open connections in patterns: UnboundID's AuthRate, and applications with a bind pool beside a search
 * pool, open them in pairs of a busy one and an idle one, and with two selectors round robin put every busy
 * connection on one of them (measured: one selector thread at 84% of a core, the other idle, under 200 TLS
 * connections binding). No fixed order can be fair to every pattern; a random choice spreads any pattern evenly
 * on average. Which selector a connection has cannot change later, so this choice is the only one there is.
 */
final class RandomSelectorDistributor extends AbstractNIOConnectionDistributor {

    RandomSelectorDistributor(NIOTransport transport) {
        super(transport);
    }

    @Override
    public void registerChannel(SelectableChannel channel, int interestOps, Object attachment) throws IOException {
        transport.getSelectorHandler().registerChannel(any(), channel, interestOps, attachment);
    }

    @Override
    public void registerChannelAsync(SelectableChannel channel, int interestOps, Object attachment,
                                     CompletionHandler<RegisterChannelResult> done) {
        transport.getSelectorHandler().registerChannelAsync(any(), channel, interestOps, attachment, done);
    }

    /** Listening sockets: accepting is cheap and rare next to reading, any selector will do. */
    @Override
    public void registerServiceChannelAsync(SelectableChannel channel, int interestOps, Object attachment,
                                            CompletionHandler<RegisterChannelResult> done) {
        transport.getSelectorHandler().registerChannelAsync(any(), channel, interestOps, attachment, done);
    }

    private SelectorRunner any() {
        SelectorRunner[] runners = getTransportSelectorRunners();
        return runners[runners.length == 1 ? 0 : ThreadLocalRandom.current().nextInt(runners.length)];
    }
}
