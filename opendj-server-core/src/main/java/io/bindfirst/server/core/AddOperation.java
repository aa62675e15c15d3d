package io.bindfirst.server.core;

import java.util.List;
import java.util.Set;

import org.forgerock.opendj.ldap.AVA;
import org.forgerock.opendj.ldap.Attribute;
import org.forgerock.opendj.ldap.AttributeDescription;
import org.forgerock.opendj.ldap.ByteString;
import org.forgerock.opendj.ldap.DN;
import org.forgerock.opendj.ldap.Entry;
import org.forgerock.opendj.ldap.LinkedAttribute;
import org.forgerock.opendj.ldap.LinkedHashMapEntry;
import org.forgerock.opendj.ldap.RDN;
import org.forgerock.opendj.ldap.ResultCode;
import org.forgerock.opendj.ldap.controls.AssertionRequestControl;
import org.forgerock.opendj.ldap.controls.Control;
import org.forgerock.opendj.ldap.controls.PostReadRequestControl;
import org.forgerock.opendj.ldap.requests.Request;
import org.forgerock.opendj.ldap.requests.Requests;
import org.forgerock.opendj.ldap.requests.AddRequest;
import org.forgerock.opendj.ldap.responses.Result;

import io.bindfirst.server.access.AccessDecision;
import io.bindfirst.server.access.Requester;
import io.bindfirst.server.backend.Backend;
import io.bindfirst.server.backend.BackendException;
import io.bindfirst.server.backend.EntryChange;
import io.bindfirst.server.core.write.ImpliedObjectClasses;
import io.bindfirst.server.core.write.SchemaChecker;
import io.bindfirst.server.core.write.WriteException;
import io.bindfirst.server.plugin.OperationType;
import io.bindfirst.server.pwd.PasswordValues;

/**
 * An add (RFC 4511 4.7): access check, the RDN's values added to the entry if the client left them
 * out, passwords hashed, operational attributes set, schema checked, then one backend transaction.
 */
public final class AddOperation extends WriteOperation {
    private final AddRequest request;
    /** The entry as it will be stored, built by {@link #prepare}. */
    private Entry entry;

    public AddOperation(ServerContext server, Session session, int messageId, AddRequest request) {
        super(server, session, messageId);
        this.request = request;
    }

    @Override
    protected Request forwardable() {
        return Requests.copyOfAddRequest(request);
    }

    @Override
    protected List<Control> requestControls() {
        return request.getControls();
    }

    @Override
    protected Result checkRequest() {
        if (request.getName().isRootDN()) {
            return errorResult(ResultCode.UNWILLING_TO_PERFORM, "The root DSE cannot be added");
        }
        return refuseServerAttributesIn(request.getName().rdn());
    }

    @Override
    protected Set<String> writeControls() {
        return Set.of(AssertionRequestControl.OID, PostReadRequestControl.OID);
    }

    @Override
    protected AccessDecision checkAccess(Requester who) {
        return server.accessPolicy().mayAdd(who, request);
    }

    @Override
    protected Result prepare(Backend backend) throws BackendException, WriteException, PasswordValues.Refused {
        for (Attribute a : request.getAllAttributes()) {
            if (a.getAttributeDescription().getAttributeType().isNoUserModification()) {
                return errorResult(ResultCode.CONSTRAINT_VIOLATION, "The attribute "
                        + a.getAttributeDescriptionAsString() + " is set by the server and cannot be given");
            }
        }
        entry = new LinkedHashMapEntry(request);
        addRdnValues(entry, request.getName().rdn());
        ImpliedObjectClasses.addTo(entry, server.schema());
        server.accounts().passwordChanges().refuseWeak(entry, clearPasswords(entry));
        hashPasswords(entry);
        stampCreated(entry);
        server.accounts().passwordChanges().stamp(null, entry, false);
        SchemaChecker.check(entry, server.schema());
        checkRules(entry);
        requireAssertion(entry);
        return null;
    }

    @Override
    protected EntryChange write(Backend backend) throws BackendException {
        backend.addEntry(entry);
        return new EntryChange(null, entry);
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

    /** The passwords the request gives in clear (a root user's pre-encoded values are not). */
    private List<ByteString> clearPasswords(Entry entry) {
        List<ByteString> out = new java.util.ArrayList<>();
        for (Attribute a : entry.getAllAttributes()) {
            if (server.passwordAttribute().isPassword(a.getAttributeDescription())) {
                for (ByteString v : a) {
                    if (!PasswordValues.looksEncoded(v)) {
                        out.add(v);
                    }
                }
            }
        }
        return out;
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
