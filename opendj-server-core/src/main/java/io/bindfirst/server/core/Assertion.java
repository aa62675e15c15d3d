package io.bindfirst.server.core;

import org.forgerock.opendj.ldap.Attribute;
import org.forgerock.opendj.ldap.ConditionResult;
import org.forgerock.opendj.ldap.Entry;
import org.forgerock.opendj.ldap.LinkedHashMapEntry;
import org.forgerock.opendj.ldap.ResultCode;
import org.forgerock.opendj.ldap.controls.AssertionRequestControl;
import org.forgerock.opendj.ldap.schema.AttributeType;
import org.forgerock.opendj.ldap.schema.Schema;

import io.bindfirst.server.filter.FilterMatcher;
import io.bindfirst.server.access.AccessPolicy;
import io.bindfirst.server.access.Requester;
import io.bindfirst.server.backend.BackendException;

/**
 * The Assertion control (RFC 4528): the operation goes on only if its filter matches the target entry as stored
 * (for an add, the entry to be added, as OpenDJ and OpenLDAP evaluate it). The filter sees the entry as a
 * search filter would: attributes the requester may not search are absent, so an assertion cannot probe what a
 * filter could not ({@code userPassword}'s stored values, for one).
 */
final class Assertion {
    private final FilterMatcher matcher;
    private final FilterAttributes tested;
    private final String filter;

    private Assertion(AssertionRequestControl control, Schema schema) {
        this.matcher = new FilterMatcher(control.getFilter(), schema);
        this.tested = FilterAttributes.of(control.getFilter(), schema);
        this.filter = control.getFilter().toString();
    }

    /** The request's assertion, or {@code null} without the control. */
    static Assertion of(AssertionRequestControl control, Schema schema) {
        return control == null ? null : new Assertion(control, schema);
    }

    boolean holds(Entry entry, AccessPolicy policy, Requester who) {
        return matcher.matches(searchable(entry, policy, who)) == ConditionResult.TRUE;
    }

    /** Goes on if the assertion holds; else stops the operation with {@code assertionFailed}. */
    void require(Entry entry, AccessPolicy policy, Requester who) throws BackendException {
        if (!holds(entry, policy, who)) {
            throw new BackendException(ResultCode.ASSERTION_FAILED, failure());
        }
    }

    String failure() {
        return "The assertion " + filter + " does not match the entry";
    }

    private Entry searchable(Entry entry, AccessPolicy policy, Requester who) {
        Entry view = new LinkedHashMapEntry(entry.getName());
        for (Attribute a : entry.getAllAttributes()) {
            AttributeType type = a.getAttributeDescription().getAttributeType();
            if (!tested.tests(type) || policy.maySearch(who, entry, type).allowed()) {
                view.addAttribute(a);
            }
        }
        return view;
    }
}
