package io.bindfirst.server.core;

import java.util.List;
import java.util.Set;

import org.forgerock.opendj.ldap.AVA;
import org.forgerock.opendj.ldap.Attribute;
import org.forgerock.opendj.ldap.AttributeDescription;
import org.forgerock.opendj.ldap.DN;
import org.forgerock.opendj.ldap.Entry;
import org.forgerock.opendj.ldap.LinkedAttribute;
import org.forgerock.opendj.ldap.LinkedHashMapEntry;
import org.forgerock.opendj.ldap.RDN;
import org.forgerock.opendj.ldap.ResultCode;
import org.forgerock.opendj.ldap.controls.AssertionRequestControl;
import org.forgerock.opendj.ldap.controls.Control;
import org.forgerock.opendj.ldap.controls.PostReadRequestControl;
import org.forgerock.opendj.ldap.controls.PreReadRequestControl;
import org.forgerock.opendj.ldap.requests.Request;
import org.forgerock.opendj.ldap.requests.Requests;
import org.forgerock.opendj.ldap.requests.ModifyDNRequest;
import org.forgerock.opendj.ldap.responses.Result;

import io.bindfirst.server.access.AccessDecision;
import io.bindfirst.server.access.Requester;
import io.bindfirst.server.backend.Backend;
import io.bindfirst.server.backend.BackendException;
import io.bindfirst.server.backend.EntryChange;
import io.bindfirst.server.core.write.SchemaChecker;
import io.bindfirst.server.core.write.WriteException;
import io.bindfirst.server.log.AccessRecord;
import io.bindfirst.server.plugin.OperationType;

/**
 * A modify DN (RFC 4511 4.9): rename in place or move under a new superior, with its whole subtree, in
 * one backend transaction. The entry's RDN values follow the new RDN (the old ones removed when
 * {@code deleteoldrdn} is set). The post-response plugin then re-keys every connection bound at or below
 * it, so WhoAmI answers the new DN.
 */
public final class ModifyDNOperation extends WriteOperation {
    private final ModifyDNRequest request;
    private DN newDN;

    public ModifyDNOperation(ServerContext server, Session session, int messageId,
                             ModifyDNRequest request) {
        super(server, session, messageId);
        this.request = request;
    }

    @Override
    protected Request forwardable() {
        return Requests.copyOfModifyDNRequest(request);
    }

    @Override
    protected List<Control> requestControls() {
        return request.getControls();
    }

    @Override
    protected Result checkRequest() {
        DN dn = request.getName();
        if (dn.isRootDN()) {
            return errorResult(ResultCode.UNWILLING_TO_PERFORM, "The root DSE cannot be renamed");
        }
        DN parent = request.getNewSuperior() != null ? request.getNewSuperior() : dn.parent();
        newDN = parent.child(request.getNewRDN());
        return refuseServerAttributesIn(request.getNewRDN());
    }

    @Override
    protected Set<String> writeControls() {
        return Set.of(AssertionRequestControl.OID, PreReadRequestControl.OID, PostReadRequestControl.OID);
    }

    @Override
    protected AccessDecision checkAccess(Requester who) {
        return AccessDecision.ALLOW; // decided on the entry as stored, in write
    }

    @Override
    protected Result prepare(Backend backend) {
        DN dn = request.getName();
        if (backend.baseDNs().contains(dn)) {
            return errorResult(ResultCode.UNWILLING_TO_PERFORM, "The naming context " + dn + " cannot be renamed");
        }
        if (server.backends().backendFor(newDN) != backend) {
            return errorResult(ResultCode.AFFECTS_MULTIPLE_DSAS,
                    "The new DN " + newDN + " is not in the same backend as " + dn);
        }
        return null;
    }

    @Override
    protected EntryChange write(Backend backend) throws BackendException {
        return backend.renameEntry(request.getName(), newDN, current -> {
            require(server.accessPolicy().mayRename(accessRequester(), current, newDN));
            requireAssertion(current);
            try {
                Entry renamed = renamed(current);
                SchemaChecker.check(renamed, server.schema());
                stampModified(renamed);
                return renamed;
            } catch (WriteException e) {
                throw toBackend(e);
            }
        });
    }

    /**
     * The entry under its new DN, its RDN attribute values adjusted. A deep copy: the SDK's copy
     * constructor shares attribute objects, and removing values from them would change {@code current}.
     */
    private Entry renamed(Entry current) {
        Entry e = new LinkedHashMapEntry(newDN);
        for (Attribute a : current.getAllAttributes()) {
            e.addAttribute(new LinkedAttribute(a));
        }
        RDN oldRdn = request.getName().rdn();
        RDN newRdn = request.getNewRDN();
        if (request.isDeleteOldRDN()) {
            for (AVA ava : oldRdn) {
                if (!contains(newRdn, ava)) {
                    e.removeAttribute(new LinkedAttribute(AttributeDescription.create(ava.getAttributeType()),
                            ava.getAttributeValue()), null);
                }
            }
        }
        for (AVA ava : newRdn) {
            AttributeDescription ad = AttributeDescription.create(ava.getAttributeType());
            Attribute existing = e.getAttribute(ad);
            if (existing != null && existing.contains(ava.getAttributeValue())) {
                // The same value by the matching rule, perhaps spelt otherwise (cn=caseonly -> cn=CaseOnly): the
                // entry keeps the new RDN's spelling, as slapd and OpenDJ store it.
                existing.remove(ava.getAttributeValue());
            }
            e.addAttribute(new LinkedAttribute(ad, ava.getAttributeValue()));
        }
        return e;
    }

    private static boolean contains(RDN rdn, AVA ava) {
        for (AVA a : rdn) {
            if (a.equals(ava)) {
                return true;
            }
        }
        return false;
    }

    @Override
    protected String kind() {
        return "MODDN";
    }

    @Override
    protected String logDetails(Result result) {
        return newDN == null ? "" : AccessRecord.quoted("newDN", newDN);
    }

    @Override
    public OperationType operationType() {
        return OperationType.MODIFY_DN;
    }

    @Override
    public DN targetDN() {
        return request.getName();
    }
}
