package io.bindfirst.server.net;

import java.util.concurrent.atomic.AtomicReference;

import org.glassfish.grizzly.Buffer;
import org.glassfish.grizzly.CompletionHandler;
import org.glassfish.grizzly.Grizzly;
import org.glassfish.grizzly.attributes.Attribute;
import org.glassfish.grizzly.filterchain.BaseFilter;
import org.glassfish.grizzly.filterchain.FilterChainContext;
import org.glassfish.grizzly.filterchain.NextAction;

/**
 * Puts a search's last entry and its result in one write to the socket. The SDK's transport writes each
 * response on its own: one pass down the filter chain and one {@code write} system call each, which for the
 * search a login makes (one entry, then the done) was a fifth of the server's CPU per search. A Grizzly filter
 * below the LDAP encoder, so it sees encoded bytes (and, on TLS connections, above the TLS filter: the two go
 * out in one record).
 *
 * <p>{@link OperationResponses} asks for it only when it holds both at once: it calls {@link #holdingNextWrite}
 * around the entry's hand-over, and the filter keeps that entry's bytes (telling the transport the write is
 * done, so it asks for the next response at once) until the next write on the connection, the result, which goes
 * out with the entry before it. Whatever thread writes next on the connection takes the held bytes first, so
 * nothing is reordered and nothing is left behind by another operation's response coming in between.
 */
final class WriteGather extends BaseFilter {
    /** Per connection, the bytes held for the next write; made when the connection is accepted. */
    private final Attribute<AtomicReference<Buffer>> held =
            Grizzly.DEFAULT_ATTRIBUTE_BUILDER.createAttribute(WriteGather.class.getName() + ".held");
    /** Set on a thread for the one write it is about to make: that write is held (see the class comment). */
    private final ThreadLocal<boolean[]> holding = ThreadLocal.withInitial(() -> new boolean[1]);

    /**
     * Runs {@code write}, whose write to the connection is held until that connection's next write; the caller
     * makes that next write right after (the operation's result). A write that never reaches this filter (the
     * connection closed first) leaves nothing set behind.
     */
    void holdingNextWrite(Runnable write) {
        boolean[] flag = holding.get();
        flag[0] = true;
        try {
            write.run();
        } finally {
            flag[0] = false;
        }
    }

    @Override
    public NextAction handleAccept(FilterChainContext ctx) {
        held.set(ctx.getConnection(), new AtomicReference<>());
        return ctx.getInvokeAction();
    }

    @Override
    @SuppressWarnings({"rawtypes", "unchecked"})
    public NextAction handleWrite(FilterChainContext ctx) {
        AtomicReference<Buffer> slot = held.get(ctx.getConnection());
        if (slot == null || !(ctx.getMessage() instanceof Buffer bytes)) {
            return ctx.getInvokeAction();
        }
        boolean[] flag = holding.get();
        if (flag[0]) {
            flag[0] = false;
            if (slot.compareAndSet(null, bytes)) {
                CompletionHandler done = ctx.getTransportContext().getCompletionHandler();
                if (done != null) {
                    done.completed(null);
                }
                return ctx.getStopAction();
            }
        }
        // A plain read first: almost every write finds nothing held, and needs no atomic exchange to learn it.
        Buffer before = slot.get() == null ? null : slot.getAndSet(null);
        if (before != null) {
            ctx.setMessage(joined(ctx, before, bytes));
        }
        return ctx.getInvokeAction();
    }

    /** One buffer of {@code first} then {@code second}: a few hundred bytes copied, one system call saved. */
    private static Buffer joined(FilterChainContext ctx, Buffer first, Buffer second) {
        Buffer both = ctx.getMemoryManager().allocate(first.remaining() + second.remaining());
        both.put(first);
        both.put(second);
        both.flip();
        both.allowBufferDispose(true);
        first.tryDispose();
        second.tryDispose();
        return both;
    }
}
