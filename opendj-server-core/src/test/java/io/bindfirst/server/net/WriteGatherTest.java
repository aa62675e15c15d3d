package io.bindfirst.server.net;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.glassfish.grizzly.CompletionHandler;
import org.glassfish.grizzly.Connection;
import org.glassfish.grizzly.EmptyCompletionHandler;
import org.glassfish.grizzly.filterchain.BaseFilter;
import org.glassfish.grizzly.filterchain.FilterChainBuilder;
import org.glassfish.grizzly.filterchain.FilterChainContext;
import org.glassfish.grizzly.filterchain.NextAction;
import org.glassfish.grizzly.filterchain.TransportFilter;
import org.glassfish.grizzly.memory.Buffers;
import org.glassfish.grizzly.nio.transport.TCPNIOServerConnection;
import org.glassfish.grizzly.nio.transport.TCPNIOTransport;
import org.glassfish.grizzly.nio.transport.TCPNIOTransportBuilder;
import org.testng.annotations.AfterMethod;
import org.testng.annotations.BeforeMethod;
import org.testng.annotations.Test;

/**
 * {@link WriteGather} in a real Grizzly chain on loopback: a filter below it counts the writes that reach the
 * socket, and a plain socket reads what arrives.
 */
public class WriteGatherTest {
    private TCPNIOTransport transport;
    private final WriteGather gather = new WriteGather();
    private final AtomicInteger socketWrites = new AtomicInteger();
    private final BlockingQueue<Connection<?>> accepted = new LinkedBlockingQueue<>();
    private Socket client;
    private Connection<?> server;

    @BeforeMethod
    public void connect() throws Exception {
        socketWrites.set(0);
        accepted.clear();
        transport = TCPNIOTransportBuilder.newInstance().build();
        transport.setProcessor(FilterChainBuilder.stateless()
                .add(new TransportFilter())
                .add(new BaseFilter() {
                    @Override
                    public NextAction handleWrite(FilterChainContext ctx) {
                        socketWrites.incrementAndGet();
                        return ctx.getInvokeAction();
                    }
                })
                .add(gather)
                .add(new BaseFilter() {
                    @Override
                    public NextAction handleAccept(FilterChainContext ctx) {
                        accepted.add(ctx.getConnection());
                        return ctx.getInvokeAction();
                    }
                })
                .build());
        TCPNIOServerConnection listening = transport.bind("127.0.0.1", 0);
        transport.start();
        client = new Socket("127.0.0.1", ((java.net.InetSocketAddress) listening.getLocalAddress()).getPort());
        client.setSoTimeout(5_000);
        server = accepted.poll(5, TimeUnit.SECONDS);
        assertTrue(server != null, "the server side of the connection was accepted");
    }

    @AfterMethod(alwaysRun = true)
    public void close() throws IOException {
        if (client != null) {
            client.close();
        }
        transport.shutdownNow();
    }

    @Test
    public void aHeldWriteGoesOutWithTheNextInOneSocketWrite() throws Exception {
        gather.holdingNextWrite(() -> write("entry", null));
        assertEquals(socketWrites.get(), 0, "the entry is held");
        write("done", null);
        assertEquals(socketWrites.get(), 1, "one write for the two");
        assertEquals(read(9), "entrydone");
    }

    @Test
    public void aHeldWriteIsReportedDoneAtOnceSoTheTransportAsksForTheNext() throws Exception {
        CountDownLatch done = new CountDownLatch(1);
        gather.holdingNextWrite(() -> write("entry", new EmptyCompletionHandler<>() {
            @Override
            public void completed(Object result) {
                done.countDown();
            }
        }));
        assertEquals(done.getCount(), 0L, "completed before the held bytes were written");
        write("done", null);
        assertEquals(read(9), "entrydone");
    }

    @Test
    public void anotherThreadsWriteTakesTheHeldBytesFirst() throws Exception {
        gather.holdingNextWrite(() -> write("entry", null));
        Thread other = new Thread(() -> write("other", null));
        other.start();
        other.join(5_000);
        assertEquals(read(10), "entryother", "nothing reordered");
        write("done", null);
        assertEquals(read(4), "done");
        assertEquals(socketWrites.get(), 2);
    }

    @Test
    public void aHoldWhoseWriteNeverCameLeavesNothingSet() throws Exception {
        gather.holdingNextWrite(() -> { });
        write("alone", null);
        assertEquals(socketWrites.get(), 1, "written at once, not held");
        assertEquals(read(5), "alone");
    }

    @Test
    public void writesWithoutAHoldGoOutEachOnItsOwn() throws Exception {
        write("one", null);
        write("two", null);
        assertEquals(socketWrites.get(), 2);
        assertEquals(read(6), "onetwo");
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private void write(String text, CompletionHandler handler) {
        ((Connection) server).write(Buffers.wrap(transport.getMemoryManager(), text), handler);
    }

    private String read(int length) throws IOException {
        byte[] bytes = new byte[length];
        InputStream in = client.getInputStream();
        int n = 0;
        while (n < length) {
            int got = in.read(bytes, n, length - n);
            if (got < 0) {
                break;
            }
            n += got;
        }
        return new String(bytes, 0, n, StandardCharsets.US_ASCII);
    }
}
