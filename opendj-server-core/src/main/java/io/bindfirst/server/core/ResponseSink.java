package io.bindfirst.server.core;

import org.forgerock.opendj.ldap.responses.Response;

/**
 * Where an operation's responses go: search entries as they are found, then exactly one final result
 * (or nothing, for an abandoned operation, but {@link #complete()} all the same so the transport frees
 * the request's slot). Called from a worker thread.
 */
public interface ResponseSink {
    void send(Response response);

    void complete();
}
