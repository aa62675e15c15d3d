package io.bindfirst.it.search;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertFalse;
import static org.testng.Assert.assertNotNull;
import static org.testng.Assert.assertNull;
import static org.testng.Assert.assertTrue;
import static org.testng.Assert.expectThrows;

import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import org.testng.annotations.AfterClass;
import org.testng.annotations.BeforeClass;
import org.testng.annotations.DataProvider;
import org.testng.annotations.Test;

import com.unboundid.ldap.sdk.Attribute;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPSearchException;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.SearchRequest;
import com.unboundid.ldap.sdk.SearchResult;
import com.unboundid.ldap.sdk.SearchResultEntry;
import com.unboundid.ldap.sdk.SearchScope;

import io.bindfirst.it.support.TestServer;


/** Search as RFC 4511 4.5 describes it: scopes, filters, attribute selection and limits. */
public class SearchTest {
    private static final String BASE = "dc=example,dc=com";
    /** More than the 1,000-entry default size limit, so the limit shows. */
    private static final int USERS = 1_500;
    private TestServer server;
    private LDAPConnection anonymous;
    private LDAPConnection root;

    @BeforeClass
    public void start() throws Exception {
        server = TestServer.start(USERS);
        anonymous = server.connect();
        root = server.bindAs(TestServer.ROOT_DN, TestServer.ROOT_PASSWORD);
    }

    @AfterClass(alwaysRun = true)
    public void stop() {
        anonymous.close();
        root.close();
        server.close();
    }

    private static Set<String> dns(SearchResult r) {
        Set<String> out = new TreeSet<>();
        for (SearchResultEntry e : r.getSearchEntries()) {
            out.add(e.getDN());
        }
        return out;
    }

    @Test
    public void equalityOnUidReturnsThatEntryWithoutItsPassword() throws Exception {
        SearchResult r = anonymous.search(BASE, SearchScope.SUB, "(uid=user.42)");
        assertEquals(r.getEntryCount(), 1);
        SearchResultEntry e = r.getSearchEntries().get(0);
        assertEquals(e.getDN(), TestServer.user(42));
        assertEquals(e.getAttributeValue("mail"), "user.42@example.com");
        assertEquals(e.getAttributeValue("cn"), "User 42");
        assertTrue(e.hasObjectClass("inetOrgPerson"));
        assertNull(e.getAttribute("userPassword"));
    }

    @Test
    public void rootSeesPasswordsOthersNever() throws Exception {
        SearchResultEntry e = root.getEntry(TestServer.user(42));
        assertTrue(e.getAttributeValue("userPassword").startsWith("{SSHA}"));
        assertNull(anonymous.getEntry(TestServer.user(42), "userPassword").getAttribute("userPassword"));
        try (LDAPConnection user = server.bindAs(TestServer.user(42), "password")) {
            assertNull(user.getEntry(TestServer.user(42), "*", "userPassword").getAttribute("userPassword"));
        }
    }

    @Test
    public void mailMatchesCaseInsensitively() throws Exception {
        SearchResult r = anonymous.search(BASE, SearchScope.SUB, "(mail=USER.42@EXAMPLE.COM)");
        assertEquals(dns(r), Set.of(TestServer.user(42)));
    }

    @Test
    public void scopes() throws Exception {
        assertEquals(dns(anonymous.search(BASE, SearchScope.BASE, "(objectClass=*)")), Set.of(BASE));
        assertEquals(dns(anonymous.search(BASE, SearchScope.ONE, "(objectClass=*)")),
                Set.of(TestServer.PEOPLE, "ou=Services," + BASE, "ou=Groups," + BASE));
        assertEquals(dns(anonymous.search(TestServer.user(7), SearchScope.BASE, "(objectClass=*)")),
                Set.of(TestServer.user(7)));
        assertEquals(anonymous.search(TestServer.user(7), SearchScope.ONE, "(objectClass=*)").getEntryCount(), 0);
        SearchResult sub = root.search(BASE, SearchScope.SUB, "(objectClass=*)");
        assertEquals(sub.getEntryCount(), USERS + TestServer.NON_USER_ENTRIES);
        SearchResult subordinates = root.search(BASE, SearchScope.SUBORDINATE_SUBTREE, "(objectClass=*)");
        assertEquals(subordinates.getEntryCount(), USERS + TestServer.NON_USER_ENTRIES - 1);
    }

    @DataProvider
    public Object[][] filters() {
        return new Object[][] {
            {"(&(objectClass=inetOrgPerson)(uid=user.7))", Set.of(7)},
            {"(|(uid=user.7)(uid=user.8)(uid=nobody))", Set.of(7, 8)},
            {"(&(uid=user.1*)(uid=*.1))", Set.of(1)},
            {"(&(uid=user.9)(!(sn=9)))", Set.of()},
            {"(uid=user.14*)", Set.of(14, 140, 141, 142, 143, 144, 145, 146, 147, 148, 149,
                    1400, 1401, 1402, 1403, 1404, 1405, 1406, 1407, 1408, 1409, 1410, 1411, 1412, 1413, 1414,
                    1415, 1416, 1417, 1418, 1419, 1420, 1421, 1422, 1423, 1424, 1425, 1426, 1427, 1428, 1429,
                    1430, 1431, 1432, 1433, 1434, 1435, 1436, 1437, 1438, 1439, 1440, 1441, 1442, 1443, 1444,
                    1445, 1446, 1447, 1448, 1449, 1450, 1451, 1452, 1453, 1454, 1455, 1456, 1457, 1458, 1459,
                    1460, 1461, 1462, 1463, 1464, 1465, 1466, 1467, 1468, 1469, 1470, 1471, 1472, 1473, 1474,
                    1475, 1476, 1477, 1478, 1479, 1480, 1481, 1482, 1483, 1484, 1485, 1486, 1487, 1488, 1489,
                    1490, 1491, 1492, 1493, 1494, 1495, 1496, 1497, 1498, 1499)},
            {"(cn=*ser 123)", Set.of(123)},
            {"(&(uid=user.3)(mail=*))", Set.of(3)},
            {"(&(uid=user.3)(telephoneNumber=*))", Set.of()},
            {"(&(uid=user.5)(cn~=User 5))", Set.of(5)},
            {"(&(uid=user.6)(cn:caseExactMatch:=User 6))", Set.of(6)},
            {"(&(uid=user.6)(cn:caseExactMatch:=user 6))", Set.of()},
            {"(&(uid:dn:=user.6)(objectClass=person))", Set.of(6)},
        };
    }

    @Test(dataProvider = "filters")
    public void everyFilterType(String filter, Set<Integer> expected) throws Exception {
        Set<String> want = new TreeSet<>();
        for (int n : expected) {
            want.add(TestServer.user(n));
        }
        assertEquals(dns(root.search(TestServer.PEOPLE, SearchScope.ONE, filter)), want, filter);
    }

    /** Ordering filters need an attribute with an ORDERING rule: entryUUID (UUIDOrderingMatch). */
    @Test
    public void orderingFilters() throws Exception {
        List<String> uuids = new java.util.ArrayList<>();
        for (SearchResultEntry e : root.search(TestServer.PEOPLE, SearchScope.ONE, "(objectClass=person)",
                "entryUUID").getSearchEntries()) {
            uuids.add(e.getAttributeValue("entryUUID"));
        }
        java.util.Collections.sort(uuids);
        String pivot = uuids.get(uuids.size() / 3);
        long atLeast = uuids.stream().filter(u -> u.compareTo(pivot) >= 0).count();
        long atMost = uuids.stream().filter(u -> u.compareTo(pivot) <= 0).count();
        assertEquals(root.search(TestServer.PEOPLE, SearchScope.ONE, "(entryUUID>=" + pivot + ")").getEntryCount(),
                atLeast);
        assertEquals(root.search(TestServer.PEOPLE, SearchScope.ONE, "(entryUUID<=" + pivot + ")").getEntryCount(),
                atMost);
        assertEquals(atLeast + atMost, USERS + 1);
    }

    @Test
    public void attributeSelection() throws Exception {
        String dn = TestServer.user(9);
        SearchResultEntry all = anonymous.searchForEntry(dn, SearchScope.BASE, "(objectClass=*)");
        assertNotNull(all.getAttribute("sn"));
        assertNull(all.getAttribute("entryDN"));

        SearchResultEntry named = anonymous.searchForEntry(dn, SearchScope.BASE, "(objectClass=*)", "sn", "mail");
        assertEquals(attributeNames(named), Set.of("sn", "mail"));

        SearchResultEntry none = anonymous.searchForEntry(dn, SearchScope.BASE, "(objectClass=*)", "1.1");
        assertEquals(none.getAttributes().size(), 0);

        SearchResultEntry ops = anonymous.searchForEntry(dn, SearchScope.BASE, "(objectClass=*)", "+");
        assertNull(ops.getAttribute("sn"));
        assertEquals(ops.getAttributeValue("entryDN"), dn);
        assertEquals(ops.getAttributeValue("hasSubordinates"), "FALSE");
        assertEquals(ops.getAttributeValue("subschemaSubentry"), "cn=schema");

        SearchResultEntry both = anonymous.searchForEntry(dn, SearchScope.BASE, "(objectClass=*)", "*", "+");
        assertNotNull(both.getAttribute("sn"));
        assertNotNull(both.getAttribute("entryUUID"));

        SearchResultEntry people = anonymous.searchForEntry(TestServer.PEOPLE, SearchScope.BASE,
                "(objectClass=*)", "hasSubordinates");
        assertEquals(people.getAttributeValue("hasSubordinates"), "TRUE");
    }

    /** Filters test entryDN, hasSubordinates and subschemaSubentry as a search returns them (as slapd and OpenDJ). */
    @Test
    public void filtersTestTheComputedOperationalAttributes() throws Exception {
        String dn = TestServer.user(7);
        assertEquals(dns(anonymous.search(BASE, SearchScope.SUB, "(&(uid=user.7)(entryDN=" + dn + "))")),
                Set.of(dn));
        assertEquals(dns(anonymous.search(BASE, SearchScope.SUB, "(&(uid=user.7)(entryDN=" + TestServer.user(8)
                + "))")), Set.of(), "another entry's DN");
        assertEquals(dns(anonymous.search(dn, SearchScope.BASE, "(!(entryDN=" + dn + "))")), Set.of());
        assertEquals(dns(anonymous.search(dn, SearchScope.BASE, "(hasSubordinates=FALSE)")), Set.of(dn));
        assertEquals(dns(anonymous.search(dn, SearchScope.BASE, "(hasSubordinates=TRUE)")), Set.of());
        assertEquals(dns(anonymous.search(TestServer.PEOPLE, SearchScope.BASE, "(hasSubordinates=TRUE)")),
                Set.of(TestServer.PEOPLE));
        assertEquals(dns(anonymous.search(dn, SearchScope.BASE, "(subschemaSubentry=cn=schema)")), Set.of(dn));
        assertEquals(dns(anonymous.search(dn, SearchScope.BASE, "(&(hasSubordinates=*)(entryDN=*))")), Set.of(dn));
        assertTrue(dns(root.search(BASE, SearchScope.ONE, "(hasSubordinates=TRUE)")).contains(TestServer.PEOPLE));
        assertFalse(dns(root.search(BASE, SearchScope.ONE, "(hasSubordinates=FALSE)")).contains(TestServer.PEOPLE));
        SearchResultEntry returned = anonymous.searchForEntry(dn, SearchScope.BASE, "(hasSubordinates=FALSE)", "sn");
        assertNull(returned.getAttribute("hasSubordinates"), "tested, not returned unless asked for");
    }

    private static Set<String> attributeNames(SearchResultEntry e) {
        Set<String> out = new TreeSet<>();
        for (Attribute a : e.getAttributes()) {
            out.add(a.getName());
        }
        return out;
    }

    @Test
    public void typesOnly() throws Exception {
        SearchRequest req = new SearchRequest(TestServer.user(9), SearchScope.BASE, "(objectClass=*)", "sn", "cn");
        req.setTypesOnly(true);
        SearchResultEntry e = anonymous.search(req).getSearchEntries().get(0);
        assertEquals(attributeNames(e), Set.of("sn", "cn"));
        assertFalse(e.getAttribute("sn").hasValue());
    }

    @Test
    public void serverSizeLimitAppliesToUsersButNotRoot() throws Exception {
        LDAPSearchException e = expectThrows(LDAPSearchException.class,
                () -> anonymous.search(TestServer.PEOPLE, SearchScope.ONE, "(objectClass=person)"));
        assertEquals(e.getResultCode(), ResultCode.SIZE_LIMIT_EXCEEDED);
        assertEquals(e.getEntryCount(), 1000);
        assertEquals(root.search(TestServer.PEOPLE, SearchScope.ONE, "(objectClass=person)").getEntryCount(), USERS);
    }

    @Test
    public void lowerRequestSizeLimitWins() throws Exception {
        SearchRequest req = new SearchRequest(TestServer.PEOPLE, SearchScope.ONE, "(objectClass=person)");
        req.setSizeLimit(5);
        LDAPSearchException e = expectThrows(LDAPSearchException.class, () -> root.search(req));
        assertEquals(e.getResultCode(), ResultCode.SIZE_LIMIT_EXCEEDED);
        assertEquals(e.getEntryCount(), 5);
        // Exactly as many matches as the limit is not an error.
        SearchRequest exact = new SearchRequest(TestServer.PEOPLE, SearchScope.ONE, "(uid=user.1)");
        exact.setSizeLimit(1);
        assertEquals(anonymous.search(exact).getResultCode(), ResultCode.SUCCESS);
    }

    @Test
    public void missingBaseIsNoSuchObjectWithMatchedDn() throws Exception {
        LDAPSearchException e = expectThrows(LDAPSearchException.class,
                () -> anonymous.search("uid=ghost,ou=People,dc=example,dc=com", SearchScope.BASE, "(objectClass=*)"));
        assertEquals(e.getResultCode(), ResultCode.NO_SUCH_OBJECT);
        assertEquals(e.getMatchedDN(), TestServer.PEOPLE);
        LDAPSearchException outside = expectThrows(LDAPSearchException.class,
                () -> anonymous.search("o=nowhere", SearchScope.BASE, "(objectClass=*)"));
        assertEquals(outside.getResultCode(), ResultCode.NO_SUCH_OBJECT);
    }

    @Test
    public void rootDse() throws Exception {
        SearchResultEntry dse = anonymous.searchForEntry("", SearchScope.BASE, "(objectClass=*)", "+");
        assertEquals(dse.getAttributeValue("namingContexts"), BASE);
        assertEquals(dse.getAttributeValue("supportedLDAPVersion"), "3");
        assertEquals(dse.getAttributeValue("subschemaSubentry"), "cn=schema");
        assertTrue(List.of(dse.getAttributeValues("supportedExtension")).contains("1.3.6.1.4.1.4203.1.11.3"));
        assertNotNull(dse.getAttribute("supportedControl"));
        assertNotNull(dse.getAttributeValue("vendorName"));
        assertNotNull(dse.getAttributeValue("vendorVersion"));
        // The UnboundID SDK's own root DSE reader works too.
        assertEquals(anonymous.getRootDSE().getNamingContextDNs()[0], BASE);
    }

    @Test
    public void searchFromTheRootCoversTheNamingContexts() throws Exception {
        assertEquals(dns(anonymous.search("", SearchScope.ONE, "(objectClass=*)")), Set.of(BASE));
        assertEquals(root.search("", SearchScope.SUB, "(objectClass=*)").getEntryCount(),
                USERS + TestServer.NON_USER_ENTRIES);
    }

    @Test
    public void schemaCanBeRead() throws Exception {
        SearchResultEntry schema = anonymous.searchForEntry("cn=schema", SearchScope.BASE, "(objectClass=*)",
                "objectClasses", "attributeTypes");
        assertTrue(schema.getAttribute("objectClasses").getValues().length > 20);
        boolean inetOrgPerson = false;
        for (String oc : schema.getAttributeValues("objectClasses")) {
            inetOrgPerson |= oc.contains("'inetOrgPerson'");
        }
        assertTrue(inetOrgPerson);
        // And the UnboundID SDK can parse it.
        assertNotNull(anonymous.getSchema().getObjectClass("inetOrgPerson"));
    }

    @Test
    public void configIsForRootOnly() throws Exception {
        LDAPSearchException e = expectThrows(LDAPSearchException.class,
                () -> anonymous.search("cn=config", SearchScope.SUB, "(objectClass=*)"));
        assertEquals(e.getResultCode(), ResultCode.INSUFFICIENT_ACCESS_RIGHTS);
        SearchResultEntry handler = root.getEntry("cn=LDAP Connection Handler,cn=Connection Handlers,cn=config");
        assertEquals(handler.getAttributeValue("ds-cfg-listen-address"), "127.0.0.1");
    }

    @Test
    public void usersCannotProbePasswordsWithFilters() throws Exception {
        assertEquals(anonymous.search(TestServer.user(1), SearchScope.BASE, "(userPassword=*)").getEntryCount(), 0);
        assertEquals(anonymous.search(TestServer.user(1), SearchScope.BASE, "(2.5.4.35=*)").getEntryCount(), 0);
        assertEquals(root.search(TestServer.user(1), SearchScope.BASE, "(userPassword=*)").getEntryCount(), 1);
    }

    @Test
    public void usersCannotProbePasswordsInsideNestedFilters() throws Exception {
        for (String filter : new String[] {
            "(&(objectClass=*)(!(!(userPassword=*))))", "(|(cn=nobody)(userPassword=*))"}) {
            assertEquals(anonymous.search(TestServer.user(1), SearchScope.BASE, filter).getEntryCount(), 0, filter);
        }
        assertEquals(root.search(TestServer.user(1), SearchScope.BASE, "(&(objectClass=*)(!(!(userPassword=*))))")
                .getEntryCount(), 1);
        assertEquals(root.search(TestServer.user(1), SearchScope.BASE, "(|(cn=nobody)(userPassword=*))")
                .getEntryCount(), 1);
    }
}
