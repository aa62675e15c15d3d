package io.bindfirst.it.search;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertFalse;
import static org.testng.Assert.assertTrue;
import static org.testng.Assert.fail;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import org.testng.annotations.AfterClass;
import org.testng.annotations.BeforeClass;
import org.testng.annotations.Test;

import com.unboundid.asn1.ASN1OctetString;
import com.unboundid.ldap.sdk.Control;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.LDAPSearchException;
import com.unboundid.ldap.sdk.ModifyRequest;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.SearchRequest;
import com.unboundid.ldap.sdk.SearchResult;
import com.unboundid.ldap.sdk.SearchResultEntry;
import com.unboundid.ldap.sdk.SearchScope;
import com.unboundid.ldap.sdk.controls.SimplePagedResultsControl;

import io.bindfirst.it.support.LdapTools;
import io.bindfirst.it.support.TestServer;

/**
 * The Simple Paged Results control (RFC 2696) over the 10,000 sample users, through OpenLDAP's ldapsearch and
 * the UnboundID SDK's paging loop: every entry once, through the index path and the scope walk; the cookie
 * refused when altered or handed back with another search.
 */
public class PagedResultsTest {
    private static final int USERS = 10_000;
    private static final String SMALL = "ou=Small,dc=example,dc=com";
    private TestServer server;
    private String url;

    @BeforeClass
    public void start() throws Exception {
        server = TestServer.start(USERS);
        url = "ldap://127.0.0.1:" + server.port();
        try (LDAPConnection c = server.bindAs(TestServer.ROOT_DN, TestServer.ROOT_PASSWORD)) {
            c.add("dn: " + SMALL, "objectClass: organizationalUnit", "ou: Small");
            for (String ou : List.of("a", "b", "c")) {
                c.add("dn: ou=" + ou + "," + SMALL, "objectClass: organizationalUnit", "ou: " + ou);
            }
            c.add("dn: ou=deep,ou=b," + SMALL, "objectClass: organizationalUnit", "ou: deep");
        }
    }

    @AfterClass(alwaysRun = true)
    public void stop() {
        if (server != null) {
            server.close();
        }
    }

    @Test
    public void ldapsearchPagesThroughEveryUserOnceByIndex() throws Exception {
        assertLdapsearchSeesEveryUserOnce("(objectClass=inetOrgPerson)", "");
    }

    /** The sample data's application account, as an application pages through the users its ACI lets it read. */
    @Test
    public void theServiceAccountPagesThroughEveryUserOnce() throws Exception {
        assertLdapsearchSeesEveryUserOnce("(objectClass=inetOrgPerson)",
                " -D " + TestServer.SERVICE_ACCOUNT + " -w " + TestServer.USER_PASSWORD);
    }

    @Test
    public void ldapsearchPagesThroughEveryUserOnceByScopeWalk() throws Exception {
        // Not indexed: the pages resume the walk of dn2id where the last one ended (and each page stays far
        // below the anonymous lookthrough limit of 5,000 that one unpaged walk of 10,000 entries would pass).
        assertLdapsearchSeesEveryUserOnce("(uid=*)", "");
    }

    /** @param bind ldapsearch's bind options ({@code ""}: anonymous) */
    private void assertLdapsearchSeesEveryUserOnce(String filter, String bind) throws Exception {
        LdapTools.require("ldapsearch");
        // Through a file: 10,000 DNs are more than the pipe LdapTools reads once the tool has ended.
        Path out = Files.createTempFile("paged-", ".ldif");
        try {
            LdapTools.Run r = LdapTools.run("sh", "-c", "exec ldapsearch -x -LLL -H " + url + bind
                    + " -E pr=500/noprompt -b " + TestServer.PEOPLE + " '" + filter + "' 1.1 > " + out);
            assertEquals(r.exit(), 0, r.output());
            assertSeesEveryUserOnce(Files.readString(out));
        } finally {
            Files.delete(out);
        }
    }

    private static void assertSeesEveryUserOnce(String output) {
        List<String> dns = new ArrayList<>();
        for (String line : output.split("\n")) {
            if (line.startsWith("dn: ")) {
                dns.add(line.substring(4).trim().toLowerCase());
            }
        }
        assertEquals(dns.size(), USERS, tail(output));
        assertEquals(new HashSet<>(dns).size(), USERS, "an entry came twice");
        for (int n = 0; n < USERS; n += 997) {
            assertTrue(dns.contains(TestServer.user(n).toLowerCase()), TestServer.user(n));
        }
    }

    @Test
    public void unboundIdPagingLoopSeesEveryUserOnce() throws Exception {
        try (LDAPConnection c = server.bindAs(TestServer.user(1), TestServer.USER_PASSWORD)) {
            // A user's size limit (1,000) applies to each page, as in OpenDJ: pages of 700 pass it.
            Set<String> seen = new HashSet<>();
            int pages = 0;
            ASN1OctetString cookie = null;
            do {
                SearchRequest req = new SearchRequest(TestServer.PEOPLE, SearchScope.ONE, "(objectClass=person)",
                        "uid");
                req.addControl(new SimplePagedResultsControl(700, cookie, true));
                SearchResult result = c.search(req);
                pages++;
                assertTrue(result.getEntryCount() <= 700, "page " + pages + ": " + result.getEntryCount());
                for (SearchResultEntry e : result.getSearchEntries()) {
                    assertTrue(seen.add(e.getDN().toLowerCase()), "twice: " + e.getDN());
                }
                SimplePagedResultsControl response = SimplePagedResultsControl.get(result);
                cookie = response.getCookie();
            } while (cookie.getValueLength() > 0);
            assertEquals(seen.size(), USERS);
            assertEquals(pages, 15); // 14 full pages and 200 entries
        }
    }

    @Test
    public void pageSizeOneOverASmallSubtree() throws Exception {
        try (LDAPConnection c = server.connect()) {
            assertEquals(pageByOne(c, SearchScope.SUB), List.of(SMALL, "ou=a," + SMALL, "ou=b," + SMALL,
                    "ou=deep,ou=b," + SMALL, "ou=c," + SMALL));
            assertEquals(pageByOne(c, SearchScope.ONE), List.of("ou=a," + SMALL, "ou=b," + SMALL, "ou=c," + SMALL));
            assertEquals(pageByOne(c, SearchScope.BASE), List.of(SMALL));
        }
    }

    private static List<String> pageByOne(LDAPConnection c, SearchScope scope) throws LDAPException {
        List<String> dns = new ArrayList<>();
        ASN1OctetString cookie = null;
        for (int page = 0; page < 10; page++) {
            SearchRequest req = new SearchRequest(SMALL, scope, "(objectClass=*)", "1.1");
            req.addControl(new SimplePagedResultsControl(1, cookie, true));
            SearchResult result = c.search(req);
            assertTrue(result.getEntryCount() <= 1);
            result.getSearchEntries().forEach(e -> dns.add(e.getDN()));
            cookie = SimplePagedResultsControl.get(result).getCookie();
            if (cookie.getValueLength() == 0) {
                return dns;
            }
        }
        throw new AssertionError("the paged search did not end: " + dns);
    }

    @Test
    public void backendsWithoutPositionsOfTheirOwnPageByCount() throws Exception {
        // cn=monitor builds its entries when read: the SPI's default counts candidates to resume.
        try (LDAPConnection root = server.bindAs(TestServer.ROOT_DN, TestServer.ROOT_PASSWORD)) {
            List<String> whole = new ArrayList<>();
            root.search("cn=monitor", SearchScope.SUB, "(objectClass=*)", "1.1").getSearchEntries()
                    .forEach(e -> whole.add(e.getDN()));
            assertTrue(whole.size() > 3, whole.toString());
            List<String> paged = new ArrayList<>();
            ASN1OctetString cookie = null;
            do {
                SearchRequest req = new SearchRequest("cn=monitor", SearchScope.SUB, "(objectClass=*)", "1.1");
                req.addControl(new SimplePagedResultsControl(2, cookie, true));
                SearchResult result = root.search(req);
                result.getSearchEntries().forEach(e -> paged.add(e.getDN()));
                cookie = SimplePagedResultsControl.get(result).getCookie();
            } while (cookie.getValueLength() > 0 && paged.size() <= whole.size());
            assertEquals(paged, whole);
        }
    }

    @Test
    public void alteredCookieIsRefused() throws Exception {
        try (LDAPConnection c = server.connect()) {
            ASN1OctetString cookie = firstPageCookie(c, "(objectClass=person)");
            byte[] altered = cookie.getValue().clone();
            altered[altered.length - 1] ^= 1;
            assertRefused(c, "(objectClass=person)", new ASN1OctetString(altered));
            assertRefused(c, "(objectClass=person)", new ASN1OctetString(new byte[] {1, 2, 3}));
            // The genuine cookie still works.
            SearchRequest req = new SearchRequest(TestServer.PEOPLE, SearchScope.ONE, "(objectClass=person)", "1.1");
            req.addControl(new SimplePagedResultsControl(10, cookie, true));
            assertEquals(c.search(req).getEntryCount(), 10);
        }
    }

    @Test
    public void cookieOfAnotherSearchIsRefused() throws Exception {
        try (LDAPConnection c = server.connect()) {
            ASN1OctetString cookie = firstPageCookie(c, "(objectClass=person)");
            assertRefused(c, "(objectClass=inetOrgPerson)", cookie);
        }
    }

    private ASN1OctetString firstPageCookie(LDAPConnection c, String filter) throws LDAPException {
        SearchRequest req = new SearchRequest(TestServer.PEOPLE, SearchScope.ONE, filter, "1.1");
        req.addControl(new SimplePagedResultsControl(10, null, true));
        SearchResult first = c.search(req);
        assertEquals(first.getEntryCount(), 10);
        ASN1OctetString cookie = SimplePagedResultsControl.get(first).getCookie();
        assertTrue(cookie.getValueLength() > 0);
        return cookie;
    }

    private static void assertRefused(LDAPConnection c, String filter, ASN1OctetString cookie) throws Exception {
        SearchRequest req = new SearchRequest(TestServer.PEOPLE, SearchScope.ONE, filter, "1.1");
        req.addControl(new SimplePagedResultsControl(10, cookie, true));
        try {
            c.search(req);
            fail("the cookie was accepted");
        } catch (LDAPSearchException e) {
            assertEquals(e.getResultCode(), ResultCode.UNWILLING_TO_PERFORM, e.getMessage());
            assertEquals(e.getEntryCount(), 0);
        }
    }

    @Test
    public void pageSizeZeroEndsThePagedSearch() throws Exception {
        try (LDAPConnection c = server.connect()) {
            ASN1OctetString cookie = firstPageCookie(c, "(objectClass=person)");
            SearchRequest req = new SearchRequest(TestServer.PEOPLE, SearchScope.ONE, "(objectClass=person)", "1.1");
            req.addControl(new SimplePagedResultsControl(0, cookie, true));
            SearchResult result = c.search(req);
            assertEquals(result.getResultCode(), ResultCode.SUCCESS);
            assertEquals(result.getEntryCount(), 0);
            assertEquals(SimplePagedResultsControl.get(result).getCookie().getValueLength(), 0);
        }
    }

    @Test
    public void criticalPagedResultsOnAModifyIsRefused() throws Exception {
        try (LDAPConnection c = server.bindAs(TestServer.ROOT_DN, TestServer.ROOT_PASSWORD)) {
            ModifyRequest mod = new ModifyRequest("dn: " + SMALL, "changetype: modify", "replace: description",
                    "description: x");
            mod.addControl(new Control(SimplePagedResultsControl.PAGED_RESULTS_OID, true,
                    new SimplePagedResultsControl(10, true).getValue()));
            try {
                c.modify(mod);
                fail("a critical paged results control was accepted on a modify");
            } catch (LDAPException e) {
                assertEquals(e.getResultCode(), ResultCode.UNAVAILABLE_CRITICAL_EXTENSION);
            }
        }
    }

    @Test
    public void rootDseListsPagedResults() throws Exception {
        try (LDAPConnection c = server.connect()) {
            String[] controls = c.getRootDSE().getSupportedControlOIDs();
            assertTrue(List.of(controls).contains(SimplePagedResultsControl.PAGED_RESULTS_OID), List.of(controls)
                    .toString());
            assertFalse(List.of(controls).isEmpty());
        }
    }

    private static String tail(String s) {
        return s.length() > 2000 ? s.substring(s.length() - 2000) : s;
    }
}
