package io.bindfirst.server.auth;

import java.util.ArrayList;
import java.util.List;

import org.forgerock.opendj.ldap.ConditionResult;
import org.forgerock.opendj.ldap.DN;
import org.forgerock.opendj.ldap.Entry;
import org.forgerock.opendj.ldap.Filter;
import org.forgerock.opendj.ldap.Matcher;
import org.forgerock.opendj.ldap.ResultCode;
import org.forgerock.opendj.ldap.SearchScope;
import org.forgerock.opendj.ldap.schema.AttributeType;
import org.forgerock.opendj.ldap.schema.Schema;
import org.forgerock.opendj.ldap.schema.UnknownSchemaElementException;

import io.bindfirst.server.backend.Backend;
import io.bindfirst.server.backend.BackendException;
import io.bindfirst.server.backend.Backends;
import io.bindfirst.server.config.ServerConfig;

/**
 * Turns a user name into the one entry it names (OpenDJ's "Exact Match" identity mapper): the entry holding the
 * name as a value of one of the match attributes, compared by their equality rules, below the match base DNs
 * (every user naming context by default). Used by SASL PLAIN for its authentication identity and by the
 * {@code u:} form of an authorization identity. Immutable; one lookup is a search of the user backends, which
 * may block, so it runs on a worker.
 */
public final class ExactMatchIdentityMapper {
    private final boolean enabled;
    private final List<AttributeType> types;
    private final List<DN> bases;
    private final Schema schema;

    /**
     * @throws IllegalArgumentException when a match attribute is not an attribute type of {@code schema}, with
     *         the entry and the attribute in the message
     */
    public ExactMatchIdentityMapper(ServerConfig.IdentityMapper config, Schema schema) {
        this.enabled = config.enabled();
        this.schema = schema;
        List<AttributeType> found = new ArrayList<>();
        for (String name : config.matchAttributes()) {
            try {
                found.add(schema.getAttributeType(name));
            } catch (UnknownSchemaElementException e) {
                throw new IllegalArgumentException(ServerConfig.IdentityMapper.ENTRY + ": ds-cfg-match-attribute: '"
                        + name + "' is not an attribute type of the server schema", e);
            }
        }
        this.types = List.copyOf(found);
        this.bases = config.matchBaseDNs();
    }

    /**
     * The one entry {@code name} maps to, or {@code null} when none does, more than one does (which one is
     * meant cannot be told), or the mapper is disabled.
     */
    public Entry map(String name, Backends backends) throws BackendException {
        if (!enabled || name.isEmpty()) {
            return null;
        }
        List<Filter> alternatives = new ArrayList<>(types.size());
        for (AttributeType t : types) {
            alternatives.add(Filter.equality(t.getNameOrOID(), name));
        }
        Filter filter = alternatives.size() == 1 ? alternatives.get(0) : Filter.or(alternatives);
        Matcher matcher = filter.matcher(schema);
        List<Entry> found = new ArrayList<>(2);
        for (Backend b : backends.userBackends()) {
            for (DN suffix : b.baseDNs()) {
                if (bases.isEmpty()) {
                    search(b, suffix, filter, matcher, found);
                    continue;
                }
                for (DN base : bases) {
                    if (suffix.isSubordinateOrEqualTo(base)) {
                        search(b, suffix, filter, matcher, found);
                    } else if (base.isSubordinateOrEqualTo(suffix)) {
                        search(b, base, filter, matcher, found);
                    }
                }
            }
        }
        return found.size() == 1 ? found.get(0) : null;
    }

    /** Adds the matching entries under {@code base} not found yet; stops the search at two (already ambiguous). */
    private static void search(Backend backend, DN base, Filter filter, Matcher matcher, List<Entry> found)
            throws BackendException {
        if (found.size() > 1) {
            return;
        }
        try {
            backend.search(base, SearchScope.WHOLE_SUBTREE, filter, candidate -> {
                // The backend passes candidates; the filter decides. Two base DNs may overlap: count an entry once.
                if (matcher.matches(candidate) == ConditionResult.TRUE
                        && found.stream().noneMatch(e -> e.getName().equals(candidate.getName()))) {
                    found.add(candidate);
                }
                return found.size() < 2;
            });
        } catch (BackendException e) {
            if (e.resultCode() != ResultCode.NO_SUCH_OBJECT) { // a base entry not created yet holds nobody
                throw e;
            }
        }
    }
}
