package io.bindfirst.server.net;

import java.io.IOException;

import org.forgerock.opendj.io.AbstractLDAPMessageHandler;
import org.forgerock.opendj.ldap.DecodeException;
import org.forgerock.opendj.ldap.requests.AbandonRequest;
import org.forgerock.opendj.ldap.requests.AddRequest;
import org.forgerock.opendj.ldap.requests.CompareRequest;
import org.forgerock.opendj.ldap.requests.DeleteRequest;
import org.forgerock.opendj.ldap.requests.ExtendedRequest;
import org.forgerock.opendj.ldap.requests.GenericBindRequest;
import org.forgerock.opendj.ldap.requests.ModifyDNRequest;
import org.forgerock.opendj.ldap.requests.ModifyRequest;
import org.forgerock.opendj.ldap.requests.SearchRequest;
import org.forgerock.opendj.ldap.requests.UnbindRequest;
import org.forgerock.opendj.ldap.responses.ExtendedResult;

import io.bindfirst.server.core.Operation;
import io.bindfirst.server.core.OperationFactory;

/**
 * Turns one decoded LDAP message into the {@link Operation} that will answer it, built by the core's
 * {@link OperationFactory}. Runs on the selector thread, so it only builds objects: no I/O, no locks.
 */
final class RequestDecoder extends AbstractLDAPMessageHandler {
    private final OperationFactory operations;
    private final ClientConnection connection;
    Operation operation;
    /** The decoded request, so the caller can attach the message's controls. */
    org.forgerock.opendj.ldap.requests.Request request;
    int abandonedMessageId = -1;

    /** Attaches the message's controls (decoded by {@link RequestReader}) to the request, if there is one. */
    void addControls(java.util.List<org.forgerock.opendj.ldap.controls.Control> controls) {
        if (request != null) {
            for (org.forgerock.opendj.ldap.controls.Control c : controls) {
                request.addControl(c);
            }
        }
    }

    RequestDecoder(OperationFactory operations, ClientConnection connection) {
        this.operations = operations;
        this.connection = connection;
    }

    @Override
    public void bindRequest(int messageID, int version, GenericBindRequest request) {
        this.request = request;
        operation = operations.bind(connection, messageID, version, request);
    }

    @Override
    public void searchRequest(int messageID, SearchRequest request) {
        this.request = request;
        operation = operations.search(connection, messageID, request);
    }

    @Override
    public <R extends ExtendedResult> void extendedRequest(int messageID, ExtendedRequest<R> request) {
        this.request = request;
        operation = operations.extended(connection, messageID, request);
    }

    @Override
    public void compareRequest(int messageID, CompareRequest request) {
        this.request = request;
        operation = operations.compare(connection, messageID, request);
    }

    @Override
    public void addRequest(int messageID, AddRequest request) {
        this.request = request;
        operation = operations.add(connection, messageID, request);
    }

    @Override
    public void deleteRequest(int messageID, DeleteRequest request) {
        this.request = request;
        operation = operations.delete(connection, messageID, request);
    }

    @Override
    public void modifyRequest(int messageID, ModifyRequest request) {
        this.request = request;
        operation = operations.modify(connection, messageID, request);
    }

    @Override
    public void modifyDNRequest(int messageID, ModifyDNRequest request) {
        this.request = request;
        operation = operations.modifyDN(connection, messageID, request);
    }

    @Override
    public void abandonRequest(int messageID, AbandonRequest request) {
        abandonedMessageId = request.getRequestID();
    }

    @Override
    public void unbindRequest(int messageID, UnbindRequest request) {
        // The SDK reports unbind as a connection close event; nothing to answer.
    }

    @Override
    public void unrecognizedMessage(int messageID, byte messageTag, org.forgerock.opendj.ldap.ByteString content)
            throws DecodeException, IOException {
        throw DecodeException.fatalError(org.forgerock.i18n.LocalizableMessage.raw(
                "Unrecognized LDAP message type 0x%02x", messageTag));
    }
}
