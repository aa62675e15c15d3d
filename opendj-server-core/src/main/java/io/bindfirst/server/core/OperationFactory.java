package io.bindfirst.server.core;

import org.forgerock.opendj.ldap.requests.AddRequest;
import org.forgerock.opendj.ldap.requests.CancelExtendedRequest;
import org.forgerock.opendj.ldap.requests.CompareRequest;
import org.forgerock.opendj.ldap.requests.DeleteRequest;
import org.forgerock.opendj.ldap.requests.ExtendedRequest;
import org.forgerock.opendj.ldap.requests.GenericBindRequest;
import org.forgerock.opendj.ldap.requests.ModifyDNRequest;
import org.forgerock.opendj.ldap.requests.ModifyRequest;
import org.forgerock.opendj.ldap.requests.PasswordModifyExtendedRequest;
import org.forgerock.opendj.ldap.requests.SearchRequest;
import org.forgerock.opendj.ldap.requests.StartTLSExtendedRequest;


/**
 * Builds the {@link Operation} that answers each decoded request: the one place that decides which class
 * handles what. Called on the selector thread, so it only builds objects.
 */
public final class OperationFactory {
    private final ServerContext server;
    /** The benchmark-only bind ceiling (refused on non-loopback listeners): every bind succeeds unchecked. */
    private final boolean bindCeiling;

    public OperationFactory(ServerContext server) {
        this.server = server;
        this.bindCeiling = server.config().listener().bindCeiling();
    }

    public Operation bind(Session session, int messageId, int version, GenericBindRequest request) {
        return bindCeiling ? new BindCeilingOperation(server, session, messageId, version, request)
                : new BindOperation(server, session, messageId, version, request);
    }

    public Operation search(Session session, int messageId, SearchRequest request) {
        return new SearchOperation(server, session, messageId, request);
    }

    public Operation compare(Session session, int messageId, CompareRequest request) {
        return new CompareOperation(server, session, messageId, request);
    }

    public Operation add(Session session, int messageId, AddRequest request) {
        return new AddOperation(server, session, messageId, request);
    }

    public Operation delete(Session session, int messageId, DeleteRequest request) {
        return new DeleteOperation(server, session, messageId, request);
    }

    public Operation modify(Session session, int messageId, ModifyRequest request) {
        return new ModifyOperation(server, session, messageId, request);
    }

    public Operation modifyDN(Session session, int messageId, ModifyDNRequest request) {
        return new ModifyDNOperation(server, session, messageId, request);
    }

    /**
     * Password Modify (RFC 3062), StartTLS (RFC 4511 4.14), Cancel (RFC 3909) and this server's backup have their
     * own operations; every other extended request goes to one class.
     */
    public Operation extended(Session session, int messageId, ExtendedRequest<?> request) {
        if (PasswordModifyExtendedRequest.OID.equals(request.getOID())) {
            return new PasswordModifyOperation(server, session, messageId, request);
        }
        if (StartTLSExtendedRequest.OID.equals(request.getOID())) {
            return new StartTlsOperation(server, session, messageId, request);
        }
        if (CancelExtendedRequest.OID.equals(request.getOID())) {
            return new CancelOperation(server, session, messageId, request);
        }
        if (BackupRequest.OID.equals(request.getOID())) {
            return new BackupOperation(server, session, messageId, request);
        }
        return new ExtendedOperation(server, session, messageId, request);
    }
}
