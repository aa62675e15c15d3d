package io.bindfirst.server.core;

import java.util.List;

import org.forgerock.i18n.LocalizedIllegalArgumentException;
import org.forgerock.opendj.ldap.AbstractFilterVisitor;
import org.forgerock.opendj.ldap.AttributeDescription;
import org.forgerock.opendj.ldap.ByteString;
import org.forgerock.opendj.ldap.Filter;
import org.forgerock.opendj.ldap.SearchScope;
import org.forgerock.opendj.ldap.requests.SearchRequest;
import org.forgerock.opendj.ldap.schema.AttributeType;
import org.forgerock.opendj.ldap.schema.CoreSchema;
import org.forgerock.opendj.ldap.schema.Schema;

import io.bindfirst.server.cache.LookupCache;

/**
 * A search the {@link LookupCache} may answer: the search a login makes, one-level or subtree, without controls,
 * whose filter is an equality, {@code (uid=alice)}, or an AND holding one,
 * {@code (&(objectClass=inetOrgPerson)(uid=alice))}. Its key is that equality (the first not on objectClass, which
 * half the directory holds); the backend is asked for that equality alone ({@link #equality}), and the whole
 * filter is applied to what it returns as to any candidate.
 *
 * @param key      the cache's key
 * @param equality the filter of the key's equality alone
 */
record SearchLookup(LookupCache.Key key, Filter equality) {

    /** The lookup {@code request} may use, or {@code null}. */
    static SearchLookup of(SearchRequest request, Schema schema) {
        SearchScope scope = request.getScope();
        if (!request.getControls().isEmpty() || request.getName().isRootDN()
                || (scope != SearchScope.WHOLE_SUBTREE && scope != SearchScope.SINGLE_LEVEL)) {
            return null;
        }
        SearchLookup found = request.getFilter().accept(new Finder(schema), null);
        return found == null || isObjectClass(found.key.type()) ? null : found;
    }

    private static boolean isObjectClass(AttributeType type) {
        return type.equals(CoreSchema.getObjectClassAttributeType());
    }

    /** Finds the equality a lone equality or an AND tests. */
    private static final class Finder extends AbstractFilterVisitor<SearchLookup, Void> {
        private final Schema schema;

        Finder(Schema schema) {
            this.schema = schema;
        }

        @Override
        public SearchLookup visitDefaultFilter(Void p) {
            return null;
        }

        @Override
        public SearchLookup visitEqualityMatchFilter(Void p, String attribute, ByteString value) {
            AttributeType type;
            try {
                // With options (cn;lang-en=x) an equality matches some of the values: not what a key holds.
                AttributeDescription d = AttributeDescription.valueOf(attribute, schema);
                if (d.hasOptions() || d.getAttributeType().isPlaceHolder()) {
                    return null;
                }
                type = d.getAttributeType();
            } catch (LocalizedIllegalArgumentException e) {
                return null;
            }
            LookupCache.Key key = LookupCache.Key.of(type, value);
            return key == null ? null : new SearchLookup(key, Filter.equality(attribute, value));
        }

        @Override
        public SearchLookup visitAndFilter(Void p, List<Filter> subFilters) {
            for (Filter f : subFilters) {
                SearchLookup found = f.accept(this, null);
                if (found != null && !isObjectClass(found.key.type())) {
                    return found;
                }
            }
            return null;
        }
    }
}
