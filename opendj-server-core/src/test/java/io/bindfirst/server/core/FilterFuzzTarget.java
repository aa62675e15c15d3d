package io.bindfirst.server.core;

import java.nio.charset.StandardCharsets;

import org.forgerock.i18n.LocalizedIllegalArgumentException;
import org.forgerock.opendj.ldap.Entry;
import org.forgerock.opendj.ldap.Filter;
import org.forgerock.opendj.ldap.LinkedHashMapEntry;
import org.forgerock.opendj.ldap.schema.Schema;

import io.bindfirst.server.filter.FilterDepth;
import io.bindfirst.server.filter.FilterMatcher;
import io.bindfirst.server.fuzz.Fuzzing;

/**
 * Jazzer target: a filter in its string form (RFC 4515), as an ACI's {@code targetfilter} brings it, parsed by the
 * SDK and then handled as the server handles a search's filter: the depth check, the server's {@link FilterMatcher}
 * against an entry and {@link FilterAttributes} (an ACI's filter and the Assertion control's are matched by
 * {@link FilterMatcher} too). Only
 * {@link LocalizedIllegalArgumentException} from the parse is expected; anything else thrown is a finding.
 */
public final class FilterFuzzTarget {
    private static Schema schema;
    private static Entry entry;

    private FilterFuzzTarget() {
    }

    public static void fuzzerInitialize() {
        schema = Fuzzing.serverSchema();
        entry = sampleEntry();
    }

    public static void fuzzerTestOneInput(byte[] data) throws Exception {
        String text = new String(data, StandardCharsets.UTF_8);
        Fuzzing.withinAllowance(data.length, () -> {
            Filter filter;
            try {
                filter = Filter.valueOf(text);
            } catch (LocalizedIllegalArgumentException e) {
                return; // the documented answer to a malformed filter
            }
            exercise(filter, schema, entry);
        });
    }

    /** What a search does with its filter before and while it reads entries; shared with the request target. */
    public static void exercise(Filter filter, Schema schema, Entry entry) {
        if (FilterDepth.tooDeep(filter)) {
            return; // the search refuses it (adminLimitExceeded) before anything walks it
        }
        filter.toString();
        new FilterMatcher(filter, schema).matches(entry);
        FilterAttributes.of(filter, schema);
    }

    /** An entry with a value of each common syntax: strings, integers, times, DNs, telephone numbers, booleans. */
    public static Entry sampleEntry() {
        return new LinkedHashMapEntry(
                "dn: uid=user.1,ou=People,dc=example,dc=com",
                "objectClass: top",
                "objectClass: person",
                "objectClass: organizationalPerson",
                "objectClass: inetOrgPerson",
                "objectClass: posixAccount",
                "uid: user.1",
                "cn: Aaren Atp",
                "cn: Åke Ωmega",
                "sn: Atp",
                "mail: user.1@example.com",
                "telephoneNumber: +1 685 622 6202",
                "description: This is the description for Aaren Atp.",
                "uidNumber: 1001",
                "gidNumber: 1000",
                "homeDirectory: /home/user.1",
                "createTimestamp: 20261127013000Z",
                "manager: uid=user.0,ou=People,dc=example,dc=com",
                "userPassword: {SSHA}AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=");
    }
}
