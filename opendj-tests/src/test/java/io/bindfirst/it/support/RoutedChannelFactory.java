package io.bindfirst.it.support;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.HashMap;
import java.util.Map;

import com.sleepycat.je.rep.net.DataChannel;
import com.sleepycat.je.rep.net.InstanceParams;
import com.sleepycat.je.rep.utilint.net.SimpleChannelFactory;

/**
 * JE's plain channel, with every connection a node opens to another sent to another port: the node's way to the
 * others through the {@link LinkProxies} of a test, which can cut them. Set in a node's configuration with
 * {@code ds-cfg-replication-je-property: je.rep.channelFactoryClass=} this class, and
 * {@code je.rep.channelFactoryParams=port>port,...} (each replication port of another node, and the proxy's port
 * this node reaches it through). Runs in the server process (the tests' class path is the forked server's).
 */
public final class RoutedChannelFactory extends SimpleChannelFactory {
    private final Map<Integer, Integer> routes = new HashMap<>();

    public RoutedChannelFactory(InstanceParams params) {
        super(params);
        for (String route : params.getClassParams().split(",")) {
            String[] ports = route.split(">");
            routes.put(Integer.parseInt(ports[0].trim()), Integer.parseInt(ports[1].trim()));
        }
    }

    @Override
    public DataChannel connect(InetSocketAddress address, InetSocketAddress local, ConnectOptions options)
            throws IOException {
        Integer via = routes.get(address.getPort());
        return super.connect(via == null ? address : new InetSocketAddress(address.getHostString(), via), local,
                options);
    }
}
