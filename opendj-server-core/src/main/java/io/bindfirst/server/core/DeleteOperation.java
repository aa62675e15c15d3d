package io.bindfirst.server.core;

import java.util.List;
import java.util.Set;

import org.forgerock.opendj.ldap.DN;
import org.forgerock.opendj.ldap.Entry;
import org.forgerock.opendj.ldap.ResultCode;
import org.forgerock.opendj.ldap.controls.AssertionRequestControl;
import org.forgerock.opendj.ldap.controls.Control;
import org.forgerock.opendj.ldap.controls.PreReadRequestControl;
import org.forgerock.opendj.ldap.requests.Request;
import org.forgerock.opendj.ldap.requests.Requests;
import org.forgerock.opendj.ldap.requests.DeleteRequest;
import org.forgerock.opendj.ldap.responses.Result;

import io.bindfirst.server.access.AccessDecision;
import io.bindfirst.server.access.Requester;
import io.bindfirst.server.backend.Backend;
import io.bindfirst.server.backend.BackendException;
import io.bindfirst.server.backend.EntryChange;
import io.bindfirst.server.plugin.OperationType;
import io.bindfirst.server.virtual.VirtualEntries;

/**
 * A delete (RFC 4511 4.8): a leaf, or with the Subtree Delete control (draft-armijo-ldap-treedelete) the
 * entry and everything below it, in one backend transaction. The post-response plugin then disconnects
 * every connection bound at or below it.
 */
public final class DeleteOperation extends WriteOperation {
    /** Subtree Delete control, as OpenDJ and Active Directory support it. */
    public static final String OID_SUBTREE_DELETE = VirtualEntries.OID_SUBTREE_DELETE;

    private final DeleteRequest request;

    public DeleteOperation(ServerContext server, Session session, int messageId, DeleteRequest request) {
        super(server, session, messageId);
        this.request = request;
    }

    @Override
    protected Request forwardable() {
        return Requests.copyOfDeleteRequest(request);
    }

    @Override
    protected List<Control> requestControls() {
        return request.getControls();
    }

    @Override
    protected boolean understands(String oid) {
        return OID_SUBTREE_DELETE.equals(oid) || super.understands(oid);
    }

    @Override
    protected Set<String> writeControls() {
        return Set.of(AssertionRequestControl.OID, PreReadRequestControl.OID);
    }

    /** The subtree delete control has no value (draft-armijo-ldap-treedelete); one with a value is malformed. */
    @Override
    protected Result checkRequest() {
        for (Control c : request.getControls()) {
            if (OID_SUBTREE_DELETE.equals(c.getOID()) && c.hasValue()) {
                return errorResult(ResultCode.PROTOCOL_ERROR, "The subtree delete control takes no value");
            }
        }
        return null;
    }

    @Override
    protected AccessDecision checkAccess(Requester who) {
        return AccessDecision.ALLOW; // decided on the entry, in write
    }

    /**
     * The access decision is taken on the entry read just before the delete, outside its transaction: a rule
     * that depends on the entry's values could see them a moment old. The backend's delete reads the entry
     * again, so a missing entry answers {@code noSuchObject} either way.
     */
    @Override
    protected EntryChange write(Backend backend) throws BackendException {
        Entry entry = backend.getEntry(request.getName());
        if (entry != null) {
            require(server.accessPolicy().mayDelete(accessRequester(), entry));
            requireAssertion(entry);
        }
        return new EntryChange(backend.deleteEntry(request.getName(), hasControl(OID_SUBTREE_DELETE)), null);
    }

    @Override
    protected String kind() {
        return "DELETE";
    }

    @Override
    public OperationType operationType() {
        return OperationType.DELETE;
    }

    @Override
    public DN targetDN() {
        return request.getName();
    }
}
