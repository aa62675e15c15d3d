package io.bindfirst.server.core;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertNotNull;
import static org.testng.Assert.assertNull;

import org.forgerock.opendj.ldap.ByteString;
import org.forgerock.opendj.ldap.SearchScope;
import org.forgerock.opendj.ldap.controls.SimplePagedResultsControl;
import org.forgerock.opendj.ldap.requests.Requests;
import org.forgerock.opendj.ldap.requests.SearchRequest;
import org.forgerock.opendj.ldap.schema.Schema;
import org.testng.annotations.Test;

import io.bindfirst.server.cache.LookupCache;
import io.bindfirst.server.testsupport.ServerSchema;

public class SearchLookupTest {
    private static final String PEOPLE = "ou=People,dc=example,dc=com";
    private final Schema schema = ServerSchema.load();

    private SearchLookup of(SearchScope scope, String filter) {
        return SearchLookup.of(Requests.newSearchRequest(PEOPLE, scope, filter, "1.1"), schema);
    }

    @Test
    public void aLoginsSearchHasTheKeyOfItsEquality() {
        SearchLookup lone = of(SearchScope.WHOLE_SUBTREE, "(uid=Alice)");
        assertNotNull(lone);
        assertEquals(lone.key(), LookupCache.Key.of(schema.getAttributeType("uid"), ByteString.valueOfUtf8("alice")));
        assertEquals(lone.equality().toString(), "(uid=Alice)");
        SearchLookup and = of(SearchScope.SINGLE_LEVEL, "(&(objectClass=inetOrgPerson)(uid=alice))");
        assertNotNull(and);
        assertEquals(and.key(), lone.key(), "the AND's equality that is not on objectClass");
        assertEquals(and.equality().toString(), "(uid=alice)", "the backend is asked for it alone");
    }

    @Test
    public void otherSearchesHaveNone() {
        assertNull(of(SearchScope.BASE_OBJECT, "(uid=alice)"), "a base search reads one entry by its DN");
        assertNull(of(SearchScope.WHOLE_SUBTREE, "(objectClass=person)"), "half the directory, not a login");
        assertNull(of(SearchScope.WHOLE_SUBTREE, "(|(uid=alice)(uid=bob))"));
        assertNull(of(SearchScope.WHOLE_SUBTREE, "(!(uid=alice))"));
        assertNull(of(SearchScope.WHOLE_SUBTREE, "(uid=ali*)"));
        assertNull(of(SearchScope.WHOLE_SUBTREE, "(cn;lang-fr=alice)"), "an option matches some values only");
        assertNull(of(SearchScope.WHOLE_SUBTREE, "(noSuchAttribute=alice)"));
        SearchRequest paged = Requests.newSearchRequest(PEOPLE, SearchScope.WHOLE_SUBTREE, "(uid=alice)", "1.1")
                .addControl(SimplePagedResultsControl.newControl(true, 10, ByteString.empty()));
        assertNull(SearchLookup.of(paged, schema), "a request with controls: paging, sorting, assertions");
    }
}
