package io.bindfirst.it.stress;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.OperatingSystemMXBean;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

import com.unboundid.asn1.ASN1StreamReader;
import com.unboundid.ldap.protocol.BindRequestProtocolOp;
import com.unboundid.ldap.protocol.BindResponseProtocolOp;
import com.unboundid.ldap.protocol.LDAPMessage;
import com.unboundid.ldap.sdk.LDAPException;

import io.bindfirst.it.support.TestServer;

/**
 * Connections that bind once and then stay silent: raw non-blocking {@link SocketChannel}s, no thread and
 * no SDK object per connection, so that 10,000 of them cost the client a few MiB and one descriptor each.
 * They are opened in batches of {@value #BATCH} driven by one {@link Selector} on the calling thread: each
 * connects, writes the BER of a simple bind request as {@code uid=user.K} (K cycling over the user range)
 * and reads the bind response, which must be success. Then nothing is read or written until
 * {@link #countOpen()}, which finds out without blocking which ones the server has closed.
 */
final class IdleCrowd implements AutoCloseable {
    static final int BATCH = 200;
    /** A batch whose connections are not all bound in this long fails the opening. */
    static final long BATCH_TIMEOUT_MS = 30_000;
    private static final int BIND_MESSAGE_ID = 1;

    private final InetSocketAddress address;
    private final int users;
    private final byte[] password;
    private final List<SocketChannel> channels = new ArrayList<>();
    private int bound;
    /** By {@link #countOpen()}: why the connections it found closed were closed. */
    final Map<String, Integer> closedBy = new TreeMap<>();

    IdleCrowd(String host, int port, int users, byte[] password) {
        this.address = new InetSocketAddress(host, port);
        this.users = users;
        this.password = password.clone();
    }

    /** Connections opened and bound so far. */
    int opened() {
        return bound;
    }

    /**
     * Opens and binds {@code n} more connections, before {@code deadlineNanos} ({@link System#nanoTime}).
     *
     * @throws IllegalStateException naming how many were opened, if one cannot be opened, bound in time or
     *                               bound at all (those opened stay open until {@link #close()})
     */
    void open(int n, long deadlineNanos) {
        int target = bound + n;
        try (Selector selector = Selector.open()) {
            while (bound < target) {
                long batchDeadline = Math.min(deadlineNanos,
                        System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(BATCH_TIMEOUT_MS));
                openBatch(selector, Math.min(BATCH, target - bound), batchDeadline, target);
            }
        } catch (IOException e) {
            throw failure(target, "I/O error (" + descriptors() + "): " + e, e);
        }
    }

    private void openBatch(Selector selector, int size, long deadline, int target) throws IOException {
        int pending = 0;
        for (int i = 0; i < size; i++) {
            SocketChannel ch;
            try {
                ch = SocketChannel.open();
            } catch (IOException e) {
                throw failure(target, "cannot open a socket (" + descriptors() + "): " + e, e);
            }
            channels.add(ch);
            ch.configureBlocking(false);
            ch.setOption(StandardSocketOptions.TCP_NODELAY, true);
            int k = (channels.size() - 1) % users;
            Pending p = new Pending(k, bindRequest(k));
            try {
                boolean connected = ch.connect(address);
                ch.register(selector, connected ? SelectionKey.OP_WRITE : SelectionKey.OP_CONNECT, p);
            } catch (IOException e) {
                throw failure(target, "cannot connect to " + address + " (" + descriptors() + "): " + e, e);
            }
            pending++;
        }
        while (pending > 0) {
            long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
            if (left <= 0) {
                throw failure(target, pending + " connections of the current batch not bound within "
                        + BATCH_TIMEOUT_MS + " ms or the overall deadline (" + descriptors()
                        + "; a server out of descriptors stops accepting)", null);
            }
            selector.select(left);
            for (Iterator<SelectionKey> it = selector.selectedKeys().iterator(); it.hasNext(); ) {
                SelectionKey key = it.next();
                it.remove();
                if (step(key, target)) {
                    key.cancel();
                    pending--;
                    bound++;
                }
            }
        }
        selector.selectNow(); // flushes the cancelled keys, so the selector does not grow with the crowd
    }

    /** Advances one connection; {@code true} once its bind succeeded. */
    private boolean step(SelectionKey key, int target) {
        SocketChannel ch = (SocketChannel) key.channel();
        Pending p = (Pending) key.attachment();
        try {
            if (key.isConnectable() && ch.finishConnect()) {
                key.interestOps(SelectionKey.OP_WRITE);
            }
            if (key.isValid() && key.isWritable()) {
                ch.write(p.out);
                if (!p.out.hasRemaining()) {
                    key.interestOps(SelectionKey.OP_READ);
                }
            }
            if (key.isValid() && key.isReadable()) {
                if (!p.in.hasRemaining()) {
                    p.in = ByteBuffer.allocate(p.in.capacity() * 2).put(p.in.flip());
                }
                if (ch.read(p.in) < 0) {
                    throw failure(target, "the server closed a connection before answering the bind as "
                            + TestServer.user(p.user), null);
                }
                LDAPMessage m = complete(p.in);
                if (m != null) {
                    check(m, p.user, target);
                    return true;
                }
            }
            return false;
        } catch (IOException e) {
            throw failure(target, "connection error (" + descriptors() + "): " + e, e);
        }
    }

    private void check(LDAPMessage m, int user, int target) {
        if (m.getMessageID() == BIND_MESSAGE_ID
                && m.getProtocolOpType() == LDAPMessage.PROTOCOL_OP_TYPE_BIND_RESPONSE) {
            BindResponseProtocolOp r = m.getBindResponseProtocolOp();
            if (r.getResultCode() == 0) {
                return;
            }
            throw failure(target, "bind as " + TestServer.user(user) + ": result code " + r.getResultCode()
                    + " " + r.getDiagnosticMessage(), null);
        }
        throw failure(target, "bind as " + TestServer.user(user) + ": unexpected answer " + m, null);
    }

    /** The LDAPMessage at the start of {@code in} (in write mode) once all of its bytes are there. */
    private static LDAPMessage complete(ByteBuffer in) throws IOException {
        int have = in.position();
        if (have < 2) {
            return null;
        }
        byte[] a = in.array();
        int first = a[1] & 0xff;
        int header = 2;
        long length = first;
        if (first >= 0x80) {
            int octets = first & 0x7f;
            if (octets == 0 || octets > 4) {
                throw new IOException("unexpected BER length octet " + first);
            }
            if (have < 2 + octets) {
                return null;
            }
            length = 0;
            for (int i = 0; i < octets; i++) {
                length = (length << 8) | (a[2 + i] & 0xff);
            }
            header += octets;
        }
        if (have < header + length) {
            return null;
        }
        try {
            return LDAPMessage.readFrom(new ASN1StreamReader(new ByteArrayInputStream(a, 0, header + (int) length)),
                    true);
        } catch (LDAPException e) {
            throw new IOException("cannot decode the server's answer: " + e.getMessage(), e);
        }
    }

    private ByteBuffer bindRequest(int user) {
        return ByteBuffer.wrap(new LDAPMessage(BIND_MESSAGE_ID, new BindRequestProtocolOp(TestServer.user(user),
                password)).encode().encode());
    }

    private IllegalStateException failure(int target, String why, Throwable cause) {
        return new IllegalStateException("opened " + bound + " of " + target + " idle connections to " + address
                + ", then: " + why, cause);
    }

    /** This JVM's open and maximum file descriptors, where the JVM tells them. */
    static String descriptors() {
        OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
        if (os instanceof com.sun.management.UnixOperatingSystemMXBean) {
            com.sun.management.UnixOperatingSystemMXBean u = (com.sun.management.UnixOperatingSystemMXBean) os;
            return "this JVM has " + u.getOpenFileDescriptorCount() + " files open, limit "
                    + u.getMaxFileDescriptorCount();
        }
        return "descriptor counts unknown";
    }

    /**
     * How many of the bound connections are still open, by a non-blocking read of each: -1 (end of stream)
     * or an error means closed; any byte means closed too, since the only thing a server sends unasked is a
     * notice of disconnection. Fills {@link #closedBy}.
     */
    int countOpen() {
        ByteBuffer buf = ByteBuffer.allocate(512);
        int open = 0;
        closedBy.clear();
        for (SocketChannel ch : channels.subList(0, bound)) {
            buf.clear();
            String closed;
            try {
                int r = ch.isOpen() ? ch.read(buf) : -1;
                closed = r == 0 ? null : r < 0 ? "end of stream" : "unsolicited message";
            } catch (IOException e) {
                closed = "error: " + e.getMessage();
            }
            if (closed == null) {
                open++;
            } else {
                closedBy.merge(closed, 1, Integer::sum);
            }
        }
        return open;
    }

    @Override
    public void close() {
        for (SocketChannel ch : channels) {
            try {
                ch.close();
            } catch (IOException e) {
                // closing anyway
            }
        }
        channels.clear();
    }

    /** One connection being opened: the user it binds as and its I/O buffers. */
    private static final class Pending {
        final int user;
        final ByteBuffer out;
        ByteBuffer in = ByteBuffer.allocate(256);

        Pending(int user, ByteBuffer out) {
            this.user = user;
            this.out = out;
        }
    }
}
