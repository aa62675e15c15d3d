package io.bindfirst.server.core;

import org.forgerock.opendj.ldap.responses.Response;
import org.forgerock.opendj.ldap.responses.Result;

/**
 * Where an operation's responses go: search entries as they are found, then exactly one final result
 * (or nothing, for an abandoned operation, but {@link #complete()} all the same so the transport frees
 * the request's slot). Called from a worker thread.
 */
public interface ResponseSink {
    void send(Response response);

    /**
     * Sends an operation's last entry and then its result, which the transport may write together: what a
     * search that kept its last entry back does ({@link Operation#keptBack()}).
     */
    default void sendWithResult(Response last, Result result) {
        send(last);
        send(result);
    }

    void complete();
}
