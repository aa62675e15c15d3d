package io.bindfirst.server.core;

import java.util.List;

import org.forgerock.opendj.ldap.Attribute;
import org.forgerock.opendj.ldap.AttributeDescription;
import org.forgerock.opendj.ldap.DN;
import org.forgerock.opendj.ldap.DecodeException;
import org.forgerock.opendj.ldap.Entry;
import org.forgerock.opendj.ldap.ResultCode;
import org.forgerock.opendj.ldap.controls.AssertionRequestControl;
import org.forgerock.opendj.ldap.controls.Control;
import org.forgerock.opendj.ldap.requests.CompareRequest;
import org.forgerock.opendj.ldap.responses.Responses;
import org.forgerock.opendj.ldap.responses.Result;

import io.bindfirst.server.access.AccessDecision;
import io.bindfirst.server.access.Requester;
import io.bindfirst.server.backend.Backend;
import io.bindfirst.server.backend.BackendException;
import io.bindfirst.server.log.AccessRecord;
import io.bindfirst.server.plugin.OperationType;
import io.bindfirst.server.virtual.VirtualEntries;

/**
 * A compare (RFC 4511 4.10), with the attribute's equality matching rule. Passwords cannot be probed:
 * comparing {@code userPassword} is for root users only. Errors are CompareResults (the SDK drops the
 * connection on a plain Result here).
 */
public final class CompareOperation extends Operation {
    private final CompareRequest request;

    public CompareOperation(ServerContext server, Session session, int messageId, CompareRequest request) {
        super(server, session, messageId);
        this.request = request;
    }

    @Override
    protected List<Control> requestControls() {
        return request.getControls();
    }

    /** RFC 4370: a compare may run as another identity. */
    @Override
    protected boolean actsAsProxiedIdentity() {
        return true;
    }

    @Override
    protected boolean understands(String oid) {
        return AssertionRequestControl.OID.equals(oid) || super.understands(oid);
    }

    @Override
    protected Result execute() {
        Assertion assertion;
        try {
            assertion = Assertion.of(control(AssertionRequestControl.DECODER), server.schema());
        } catch (DecodeException e) {
            return malformedControl(e);
        }
        DN dn = request.getName();
        AttributeDescription ad = request.getAttributeDescription();
        Requester who = accessRequester();
        Backend backend = server.backends().backendFor(dn);
        Entry virtual = dn.isRootDN() ? server.virtualEntries().rootDse()
                : dn.equals(VirtualEntries.SCHEMA_DN) ? server.virtualEntries().schemaEntry() : null;
        if (backend == null && virtual == null) {
            return errorResult(ResultCode.NO_SUCH_OBJECT, "The entry " + dn + " does not exist");
        }
        Result pre = preOperation();
        if (pre != null) {
            return pre;
        }
        try {
            // The root DSE and the schema entry, which a search reads too (RFC 4512 5.1, 4.2), are nobody's backend's.
            Entry entry = virtual != null ? virtual : backend.getEntry(dn);
            // An entry the requester may not see answers as if it did not exist, so its existence does not show.
            if (entry == null || !server.accessPolicy().maySee(who, entry).allowed()) {
                return errorResult(ResultCode.NO_SUCH_OBJECT, "The entry " + dn + " does not exist")
                        .setMatchedDN(matchedDN(dn));
            }
            AccessDecision access = server.accessPolicy().mayCompare(who, entry, ad);
            if (!access.allowed()) {
                return errorResult(ResultCode.INSUFFICIENT_ACCESS_RIGHTS, access.message());
            }
            if (assertion != null && !assertion.holds(entry, server.accessPolicy(), who)) {
                return errorResult(ResultCode.ASSERTION_FAILED, assertion.failure());
            }
            if (server.groups().isMemberOf().types().contains(ad.getAttributeType())) {
                entry = server.groups().isMemberOf().withValues(entry); // virtual: computed, as a search sees it
            }
            if (virtual == null) {
                entry = withComputed(entry, ad, backend);
            }
            Attribute attribute = entry.getAttribute(ad);
            if (attribute == null) {
                return errorResult(ResultCode.NO_SUCH_ATTRIBUTE,
                        "The entry " + dn + " has no attribute " + ad);
            }
            return Responses.newCompareResult(attribute.contains(request.getAssertionValue())
                    ? ResultCode.COMPARE_TRUE : ResultCode.COMPARE_FALSE);
        } catch (BackendException e) {
            return errorResult(e.resultCode(), e.getMessage());
        }
    }

    /**
     * {@code entry} with the operational attribute {@code ad} names when it is one a search returns computed
     * ({@link AttributeSelection#COMPUTED}), else {@code entry} itself. A copy: the stored entry is not changed.
     */
    private Entry withComputed(Entry entry, AttributeDescription ad, Backend backend) {
        for (String name : AttributeSelection.COMPUTED) {
            if (ad.getAttributeType().hasName(name)) {
                return AttributeSelection.withComputed(entry, List.of(name), e -> hasSubordinates(backend, e),
                        server.schema());
            }
        }
        return entry;
    }

    private static boolean hasSubordinates(Backend backend, Entry entry) {
        try {
            return backend.hasSubordinates(entry.getName());
        } catch (BackendException e) {
            return false; // as a search answers it
        }
    }

    @Override
    protected Result errorResult(ResultCode code, String message) {
        return Responses.newCompareResult(code).setDiagnosticMessage(message);
    }

    @Override
    protected String kind() {
        return "COMPARE";
    }

    @Override
    public OperationType operationType() {
        return OperationType.COMPARE;
    }

    @Override
    public DN targetDN() {
        return request.getName();
    }

    @Override
    protected String logDetails(Result result) {
        return AccessRecord.quoted("attr", request.getAttributeDescription());
    }
}
