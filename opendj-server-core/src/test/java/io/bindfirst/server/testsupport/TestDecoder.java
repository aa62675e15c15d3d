package io.bindfirst.server.testsupport;

import org.forgerock.opendj.io.AbstractLDAPMessageHandler;
import org.forgerock.opendj.ldap.requests.AddRequest;
import org.forgerock.opendj.ldap.requests.CompareRequest;
import org.forgerock.opendj.ldap.requests.DeleteRequest;
import org.forgerock.opendj.ldap.requests.ExtendedRequest;
import org.forgerock.opendj.ldap.requests.GenericBindRequest;
import org.forgerock.opendj.ldap.requests.ModifyDNRequest;
import org.forgerock.opendj.ldap.requests.ModifyRequest;
import org.forgerock.opendj.ldap.requests.Request;
import org.forgerock.opendj.ldap.requests.SearchRequest;
import org.forgerock.opendj.ldap.responses.ExtendedResult;

import io.bindfirst.server.core.Operation;
import io.bindfirst.server.core.OperationFactory;

/**
 * The decoded request handed to the server's {@link OperationFactory}, as the transport's {@code RequestDecoder}
 * hands it over (that one is the transport's own, bound to its connection class): one factory method per request
 * type, the request kept so that its controls can be attached once read.
 */
final class TestDecoder extends AbstractLDAPMessageHandler {
    private final OperationFactory operations;
    private final TestSession session;
    Operation operation;
    Request request;

    TestDecoder(OperationFactory operations, TestSession session) {
        this.operations = operations;
        this.session = session;
    }

    @Override
    public void bindRequest(int messageID, int version, GenericBindRequest r) {
        request = r;
        operation = operations.bind(session, messageID, version, r);
    }

    @Override
    public void searchRequest(int messageID, SearchRequest r) {
        request = r;
        operation = operations.search(session, messageID, r);
    }

    @Override
    public void compareRequest(int messageID, CompareRequest r) {
        request = r;
        operation = operations.compare(session, messageID, r);
    }

    @Override
    public void addRequest(int messageID, AddRequest r) {
        request = r;
        operation = operations.add(session, messageID, r);
    }

    @Override
    public void modifyRequest(int messageID, ModifyRequest r) {
        request = r;
        operation = operations.modify(session, messageID, r);
    }

    @Override
    public void deleteRequest(int messageID, DeleteRequest r) {
        request = r;
        operation = operations.delete(session, messageID, r);
    }

    @Override
    public void modifyDNRequest(int messageID, ModifyDNRequest r) {
        request = r;
        operation = operations.modifyDN(session, messageID, r);
    }

    @Override
    public <R extends ExtendedResult> void extendedRequest(int messageID, ExtendedRequest<R> r) {
        request = r;
        operation = operations.extended(session, messageID, r);
    }
}
