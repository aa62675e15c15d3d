package io.bindfirst.server.core;

import java.util.List;

import org.forgerock.opendj.ldap.AVA;
import org.forgerock.opendj.ldap.Attribute;
import org.forgerock.opendj.ldap.AttributeDescription;
import org.forgerock.opendj.ldap.DN;
import org.forgerock.opendj.ldap.Entry;
import org.forgerock.opendj.ldap.LinkedAttribute;
import org.forgerock.opendj.ldap.LinkedHashMapEntry;
import org.forgerock.opendj.ldap.RDN;
import org.forgerock.opendj.ldap.ResultCode;
import org.forgerock.opendj.ldap.controls.Control;
import org.forgerock.opendj.ldap.requests.AddRequest;
import org.forgerock.opendj.ldap.responses.Responses;
import org.forgerock.opendj.ldap.responses.Result;

import io.bindfirst.server.ServerContext;
import io.bindfirst.server.access.AccessDecision;
import io.bindfirst.server.backend.Backend;
import io.bindfirst.server.backend.BackendException;
import io.bindfirst.server.backend.EntryChange;
import io.bindfirst.server.core.write.SchemaChecker;
import io.bindfirst.server.core.write.WriteException;
import io.bindfirst.server.net.ClientConnection;
import io.bindfirst.server.plugin.OperationType;
import io.bindfirst.server.pwd.PasswordValues;

/**
 * An add (RFC 4511 4.7): access check, the RDN's values added to the entry if the client left them
 * out, passwords hashed, operational attributes set, schema checked, then one backend transaction.
 */
public final class AddOperation extends Operation {
    private final AddRequest request;

    public AddOperation(ServerContext server, ClientConnection connection, int messageId, AddRequest request) {
        super(server, connection, messageId);
        this.request = request;
    }

    @Override
    protected List<Control> requestControls() {
        return request.getControls();
    }

    @Override
    protected Result execute() {
        DN dn = request.getName();
        if (dn.isRootDN()) {
            return errorResult(ResultCode.UNWILLING_TO_PERFORM, "The root DSE cannot be added");
        }
        AccessDecision access = server.accessPolicy().mayAdd(requester(), dn);
        if (!access.allowed()) {
            return errorResult(ResultCode.INSUFFICIENT_ACCESS_RIGHTS, access.message());
        }
        try {
            Backend backend = WriteSupport.backendFor(server.backends(), dn);
            Entry entry = new LinkedHashMapEntry(request);
            for (Attribute a : request.getAllAttributes()) {
                if (a.getAttributeDescription().getAttributeType().isNoUserModification()) {
                    return errorResult(ResultCode.CONSTRAINT_VIOLATION, "The attribute "
                            + a.getAttributeDescriptionAsString() + " is set by the server and cannot be given");
                }
            }
            addRdnValues(entry, dn.rdn());
            hashPasswords(entry);
            WriteSupport.stampCreated(entry, requester(), server.schema());
            SchemaChecker.check(entry, server.schema());
            Result pre = preOperation();
            if (pre != null) {
                return pre;
            }
            backend.addEntry(entry);
            changed(new EntryChange(null, entry));
            return Responses.newResult(ResultCode.SUCCESS);
        } catch (BackendException e) {
            return errorResult(e.resultCode(), e.getMessage());
        } catch (WriteException e) {
            return errorResult(e.resultCode(), e.getMessage());
        } catch (PasswordValues.Refused e) {
            return errorResult(e.resultCode(), e.getMessage());
        }
    }

    /** RFC 4511 4.7: the RDN's values must be in the entry; add them as OpenDJ does, rather than refuse. */
    private void addRdnValues(Entry entry, RDN rdn) {
        for (AVA ava : rdn) {
            AttributeDescription ad = AttributeDescription.create(ava.getAttributeType());
            Attribute existing = entry.getAttribute(ad);
            if (existing == null || !existing.contains(ava.getAttributeValue())) {
                entry.addAttribute(new LinkedAttribute(ad, ava.getAttributeValue()));
            }
        }
    }

    private void hashPasswords(Entry entry) throws PasswordValues.Refused {
        List<Attribute> all = new java.util.ArrayList<>();
        entry.getAllAttributes().forEach(all::add);
        for (Attribute a : all) {
            if (server.passwordAttribute().isPassword(a.getAttributeDescription())) {
                LinkedAttribute stored = new LinkedAttribute(a.getAttributeDescription());
                stored.addAll(new PasswordValues(server.passwordSchemes()).toStored(a, requester().root()));
                entry.replaceAttribute(stored);
            }
        }
    }

    @Override
    protected String kind() {
        return "ADD";
    }

    @Override
    public OperationType operationType() {
        return OperationType.ADD;
    }

    @Override
    public DN targetDN() {
        return request.getName();
    }
}
