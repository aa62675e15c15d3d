package io.bindfirst.it.search;

import static org.testng.Assert.assertEquals;

import java.util.Set;
import java.util.TreeSet;

import org.testng.annotations.AfterClass;
import org.testng.annotations.BeforeClass;
import org.testng.annotations.Test;

import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPSearchException;
import com.unboundid.ldap.sdk.Modification;
import com.unboundid.ldap.sdk.ModificationType;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.SearchResult;
import com.unboundid.ldap.sdk.SearchResultEntry;
import com.unboundid.ldap.sdk.SearchScope;

import io.bindfirst.it.support.TestServer;
import io.bindfirst.server.backend.IndexType;

/**
 * Presence, substring and ordering indexes configured per attribute, seen from a client that is not root: a
 * filter they narrow stays under the lookthrough limit (5,000 candidates) on 6,000 users, where the same
 * filter on an attribute without such an index walks the whole scope and is refused.
 */
public class IndexedSearchTest {
    private static final int USERS = 6_000;
    private TestServer server;
    private LDAPConnection anonymous;

    @BeforeClass
    public void start() throws Exception {
        server = TestServer.start(USERS, c -> c.withIndex(IndexType.SUBSTRING, "cn")
                .withIndex(IndexType.PRESENCE, "description").withIndex(IndexType.ORDERING, "uidNumber"));
        anonymous = server.connect();
        try (LDAPConnection root = server.bindAs(TestServer.ROOT_DN, TestServer.ROOT_PASSWORD)) {
            for (int n : new int[] {7, 4_321, 5_999}) {
                root.modify(TestServer.user(n), new Modification(ModificationType.ADD, "description", "marked"),
                        new Modification(ModificationType.ADD, "objectClass", "posixAccount"),
                        new Modification(ModificationType.ADD, "uidNumber", String.valueOf(100_000 + n)),
                        new Modification(ModificationType.ADD, "gidNumber", "100"),
                        new Modification(ModificationType.ADD, "homeDirectory", "/home/" + n));
            }
        }
    }

    @AfterClass(alwaysRun = true)
    public void stop() {
        anonymous.close();
        server.close();
    }

    private Set<String> uids(String filter) throws Exception {
        SearchResult r = anonymous.search(TestServer.PEOPLE, SearchScope.SUB, filter, "uid");
        Set<String> out = new TreeSet<>();
        for (SearchResultEntry e : r.getSearchEntries()) {
            out.add(e.getAttributeValue("uid"));
        }
        return out;
    }

    @Test
    public void substringIndexNarrowsUnderTheLookthroughLimit() throws Exception {
        assertEquals(uids("(cn=*ser 4321*)"), Set.of("user.4321"));
        assertEquals(uids("(cn=user 432*)").size(), 11);
        assertEquals(uids("(cn=*r 59*9)").size(), 11);
        LDAPSearchException walked = org.testng.Assert.expectThrows(LDAPSearchException.class,
                () -> anonymous.search(TestServer.PEOPLE, SearchScope.SUB, "(mail=user.4321@*)"));
        assertEquals(walked.getResultCode(), ResultCode.ADMIN_LIMIT_EXCEEDED, "mail has no substring index here");
    }

    @Test
    public void presenceAndOrderingIndexesNarrowToo() throws Exception {
        assertEquals(uids("(description=*)"), Set.of("user.7", "user.4321", "user.5999"));
        assertEquals(uids("(uidNumber>=104000)"), Set.of("user.4321", "user.5999"));
        assertEquals(uids("(&(uidNumber<=104321)(description=*))"), Set.of("user.7", "user.4321"));
        LDAPSearchException walked = org.testng.Assert.expectThrows(LDAPSearchException.class,
                () -> anonymous.search(TestServer.PEOPLE, SearchScope.SUB, "(gidNumber<=100)"));
        assertEquals(walked.getResultCode(), ResultCode.ADMIN_LIMIT_EXCEEDED, "gidNumber has no ordering index here");
    }
}
