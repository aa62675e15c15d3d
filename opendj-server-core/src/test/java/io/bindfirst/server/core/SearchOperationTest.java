package io.bindfirst.server.core;

import static io.bindfirst.server.testsupport.InMemoryServer.PEOPLE;
import static io.bindfirst.server.testsupport.InMemoryServer.ROOT_DN;
import static io.bindfirst.server.testsupport.InMemoryServer.ROOT_PASSWORD;
import static io.bindfirst.server.testsupport.InMemoryServer.SUFFIX;
import static io.bindfirst.server.testsupport.InMemoryServer.user;
import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertNull;
import static org.testng.Assert.assertTrue;

import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import org.forgerock.opendj.ldap.ResultCode;
import org.forgerock.opendj.ldap.SearchScope;
import org.forgerock.opendj.ldap.requests.Requests;
import org.forgerock.opendj.ldap.requests.SearchRequest;
import org.forgerock.opendj.ldap.responses.SearchResultEntry;
import org.testng.annotations.AfterClass;
import org.testng.annotations.BeforeClass;
import org.testng.annotations.Test;

import io.bindfirst.server.config.ServerConfig;
import io.bindfirst.server.testsupport.InMemoryServer;
import io.bindfirst.server.testsupport.RecordingSink;
import io.bindfirst.server.testsupport.TestSession;

/**
 * Searches (RFC 4511 4.5) through SearchOperation: scopes, filters, attribute selection, limits. The backend passes
 * every entry in scope, so which entries come back is the operation's filter evaluation alone.
 */
public class SearchOperationTest {
    private static final int USERS = 10;
    /** The server-wide size limit here: below the number of users, so it shows. */
    private static final int SIZE_LIMIT = 5;
    /** The suffix, ou=People, ou=Services and its account, ou=Groups and its three groups. */
    private static final int OTHER_ENTRIES = 8;

    private InMemoryServer server;
    private TestSession anonymous;
    private TestSession root;

    @BeforeClass
    public void start() throws Exception {
        server = InMemoryServer.start(USERS, c -> c.withLimits(new ServerConfig.Limits(SIZE_LIMIT,
                c.limits().timeLimitSeconds(), c.limits().lookthroughLimit(), c.limits().idleTimeLimitSeconds(),
                c.limits().sortLimit())));
        anonymous = server.newSession();
        root = server.boundAs(ROOT_DN, ROOT_PASSWORD);
    }

    @AfterClass(alwaysRun = true)
    public void stop() {
        server.close();
    }

    private RecordingSink search(TestSession s, String base, SearchScope scope, String filter, String... attributes) {
        return server.send(s, Requests.newSearchRequest(base, scope, filter, attributes));
    }

    /** The DNs a successful search returned. */
    private Set<String> found(TestSession s, String base, SearchScope scope, String filter) {
        RecordingSink r = search(s, base, scope, filter);
        assertEquals(r.code(), ResultCode.SUCCESS, filter + ": " + r.message());
        return r.dns();
    }

    private static Set<String> users(int... numbers) {
        Set<String> out = new TreeSet<>();
        for (int n : numbers) {
            out.add(user(n));
        }
        return out;
    }

    private SearchResultEntry only(RecordingSink r) {
        assertEquals(r.code(), ResultCode.SUCCESS, r.message());
        assertEquals(r.entries().size(), 1, r.dns().toString());
        return r.entries().get(0);
    }

    @Test
    public void eachScopeReturnsItsEntries() {
        assertEquals(found(anonymous, SUFFIX, SearchScope.BASE_OBJECT, "(objectClass=*)"), Set.of(SUFFIX));
        assertEquals(found(anonymous, SUFFIX, SearchScope.SINGLE_LEVEL, "(objectClass=*)"),
                Set.of(PEOPLE, "ou=Services," + SUFFIX, "ou=Groups," + SUFFIX));
        assertEquals(found(anonymous, user(7), SearchScope.SINGLE_LEVEL, "(objectClass=*)"), Set.of());
        assertEquals(found(root, SUFFIX, SearchScope.WHOLE_SUBTREE, "(objectClass=*)").size(), USERS + OTHER_ENTRIES);
        assertEquals(found(root, SUFFIX, SearchScope.SUBORDINATES, "(objectClass=*)").size(),
                USERS + OTHER_ENTRIES - 1);
    }

    @Test
    public void eachKindOfFilterSelectsItsEntries() {
        Map<String, Set<String>> expected = Map.ofEntries(
                Map.entry("(&(objectClass=inetOrgPerson)(uid=user.7))", users(7)),
                Map.entry("(|(uid=user.7)(uid=user.8)(uid=nobody))", users(7, 8)),
                Map.entry("(&(uid=user.9)(!(sn=9)))", users()),
                Map.entry("(uid=user.1*)", users(1)),
                Map.entry("(cn=*ser 3)", users(3)),
                Map.entry("(mail=USER.4@EXAMPLE.COM)", users(4)),
                Map.entry("(&(uid=user.3)(telephoneNumber=*))", users()),
                Map.entry("(&(uid=user.5)(cn~=User 5))", users(5)),
                Map.entry("(&(uid=user.6)(cn:caseExactMatch:=User 6))", users(6)),
                Map.entry("(&(uid=user.6)(cn:caseExactMatch:=user 6))", users()),
                Map.entry("(&(uid:dn:=user.6)(objectClass=person))", users(6)));
        expected.forEach((filter, dns) ->
                assertEquals(found(root, PEOPLE, SearchScope.SINGLE_LEVEL, filter), dns, filter));
    }

    /** entryDN, hasSubordinates and isMemberOf are not stored: the operation computes them for the filter. */
    @Test
    public void filtersTestTheAttributesTheServerComputes() {
        assertEquals(found(anonymous, SUFFIX, SearchScope.WHOLE_SUBTREE, "(entryDN=" + user(7) + ")"), users(7));
        assertEquals(found(anonymous, PEOPLE, SearchScope.BASE_OBJECT, "(hasSubordinates=TRUE)"), Set.of(PEOPLE));
        assertEquals(found(anonymous, user(7), SearchScope.BASE_OBJECT, "(hasSubordinates=TRUE)"), Set.of());
        assertEquals(found(root, SUFFIX, SearchScope.WHOLE_SUBTREE,
                "(isMemberOf=cn=Administrators,ou=Groups," + SUFFIX + ")"), users(0, 1));
    }

    /** Where the requester may not search an attribute, the filter sees it absent: userPassword, but for root. */
    @Test
    public void passwordsAreNeitherReturnedNorMatchedForOthersThanRoot() {
        assertNull(only(search(anonymous, user(2), SearchScope.BASE_OBJECT, "(objectClass=*)", "*", "userPassword"))
                .getAttribute("userPassword"));
        assertTrue(only(search(root, user(2), SearchScope.BASE_OBJECT, "(objectClass=*)"))
                .getAttribute("userPassword").firstValueAsString().startsWith("{SSHA}"));
        assertEquals(found(anonymous, PEOPLE, SearchScope.SINGLE_LEVEL, "(userPassword=*)"), Set.of());
        assertEquals(found(root, PEOPLE, SearchScope.SINGLE_LEVEL, "(userPassword=*)").size(), USERS);
    }

    @Test
    public void attributeSelectionNamesNoneOrTheOperationalOnes() {
        SearchResultEntry named = only(search(anonymous, user(9), SearchScope.BASE_OBJECT, "(objectClass=*)",
                "sn", "mail"));
        Set<String> names = new TreeSet<>();
        named.getAllAttributes().forEach(a -> names.add(a.getAttributeDescriptionAsString()));
        assertEquals(names, Set.of("sn", "mail"));
        assertEquals(only(search(anonymous, user(9), SearchScope.BASE_OBJECT, "(objectClass=*)", "1.1"))
                .getAttributeCount(), 0);
        SearchResultEntry operational = only(search(anonymous, user(9), SearchScope.BASE_OBJECT, "(objectClass=*)",
                "+"));
        assertNull(operational.getAttribute("sn"));
        assertEquals(operational.getAttribute("entryDN").firstValueAsString(), user(9));
        assertEquals(operational.getAttribute("hasSubordinates").firstValueAsString(), "FALSE");
    }

    @Test
    public void theRequestSizeLimitStopsTheSearchWithSizeLimitExceeded() {
        SearchRequest three = Requests.newSearchRequest(PEOPLE, SearchScope.SINGLE_LEVEL, "(objectClass=person)");
        three.setSizeLimit(3);
        RecordingSink r = server.send(root, three);
        assertEquals(r.code(), ResultCode.SIZE_LIMIT_EXCEEDED);
        assertEquals(r.entries().size(), 3);
        SearchRequest exact = Requests.newSearchRequest(PEOPLE, SearchScope.SINGLE_LEVEL, "(uid=user.1)");
        exact.setSizeLimit(1);
        assertEquals(server.send(anonymous, exact).code(), ResultCode.SUCCESS, "as many matches as the limit");
    }

    @Test
    public void theServerSizeLimitAppliesToEveryoneButRoot() {
        RecordingSink limited = search(anonymous, PEOPLE, SearchScope.SINGLE_LEVEL, "(objectClass=person)");
        assertEquals(limited.code(), ResultCode.SIZE_LIMIT_EXCEEDED);
        assertEquals(limited.entries().size(), SIZE_LIMIT);
        assertEquals(found(root, PEOPLE, SearchScope.SINGLE_LEVEL, "(objectClass=person)").size(), USERS);
    }

    @Test
    public void aMissingBaseIsNoSuchObjectWithTheDeepestExistingSuperior() {
        RecordingSink missing = search(anonymous, "uid=ghost," + PEOPLE, SearchScope.BASE_OBJECT, "(objectClass=*)");
        assertEquals(missing.code(), ResultCode.NO_SUCH_OBJECT);
        assertEquals(missing.result().getMatchedDN(), PEOPLE);
        assertEquals(missing.entries().size(), 0);
        assertEquals(search(anonymous, "o=nowhere", SearchScope.BASE_OBJECT, "(objectClass=*)").code(),
                ResultCode.NO_SUCH_OBJECT);
    }

    @Test
    public void theRootDseNamesTheMemoryBackendsSuffix() {
        SearchResultEntry dse = only(search(anonymous, "", SearchScope.BASE_OBJECT, "(objectClass=*)", "+"));
        assertEquals(dse.getAttribute("namingContexts").firstValueAsString(), SUFFIX);
    }
}
