package io.bindfirst.it.search;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertTrue;
import static org.testng.Assert.fail;

import java.util.ArrayList;
import java.util.List;

import org.testng.annotations.AfterClass;
import org.testng.annotations.BeforeClass;
import org.testng.annotations.Test;

import com.unboundid.asn1.ASN1OctetString;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPSearchException;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.SearchRequest;
import com.unboundid.ldap.sdk.SearchResult;
import com.unboundid.ldap.sdk.SearchResultEntry;
import com.unboundid.ldap.sdk.SearchScope;
import com.unboundid.ldap.sdk.controls.ServerSideSortRequestControl;
import com.unboundid.ldap.sdk.controls.ServerSideSortResponseControl;
import com.unboundid.ldap.sdk.controls.SimplePagedResultsControl;
import com.unboundid.ldap.sdk.controls.SortKey;

import io.bindfirst.it.support.LdapTools;
import io.bindfirst.it.support.TestServer;
import io.bindfirst.server.config.ServerConfig;

/**
 * The Server-Side Sort control (RFC 2891): several keys, reverse order, a named ordering rule, entries without
 * the attribute last, with paged results; the bound ({@code ds-cfg-sort-limit}, 20 here) and keys that cannot
 * be used, critical and not; and OpenLDAP's {@code ldapsearch -E sss=}.
 */
public class ServerSideSortTest {
    private static final String BASE = "ou=Sorted,dc=example,dc=com";
    private static final int USERS = 40;
    private TestServer server;
    private LDAPConnection c;

    @BeforeClass
    public void start() throws Exception {
        server = TestServer.start(USERS, cfg -> cfg.withLimits(new ServerConfig.Limits(1000, 60, 5000, 0, 20)));
        try (LDAPConnection root = server.bindAs(TestServer.ROOT_DN, TestServer.ROOT_PASSWORD)) {
            root.add("dn: " + BASE, "objectClass: organizationalUnit", "ou: Sorted");
            add(root, "zoe", "Smith", "Zoe");
            add(root, "bob", "Adams", "Bob");
            add(root, "al", "Brown", "Al");
            add(root, "adam", "Smith", "Adam");
            add(root, "none", "Brown", null);
            add(root, "ann", "brown", "Ann");
        }
        c = server.connect();
    }

    private static void add(LDAPConnection root, String cn, String sn, String givenName) throws Exception {
        List<String> lines = new ArrayList<>(List.of("dn: cn=" + cn + "," + BASE, "objectClass: top",
                "objectClass: person", "objectClass: organizationalPerson", "objectClass: inetOrgPerson",
                "cn: " + cn, "sn: " + sn));
        if (givenName != null) {
            lines.add("givenName: " + givenName);
        }
        root.add(lines.toArray(new String[0]));
    }

    @AfterClass(alwaysRun = true)
    public void stop() {
        if (c != null) {
            c.close();
        }
        if (server != null) {
            server.close();
        }
    }

    private List<String> sorted(SortKey... keys) throws Exception {
        SearchRequest req = new SearchRequest(BASE, SearchScope.ONE, "(objectClass=person)", "cn");
        req.addControl(new ServerSideSortRequestControl(true, keys));
        SearchResult result = c.search(req);
        assertEquals(ServerSideSortResponseControl.get(result).getResultCode(), ResultCode.SUCCESS);
        return names(result.getSearchEntries());
    }

    private static List<String> names(List<SearchResultEntry> entries) {
        List<String> out = new ArrayList<>();
        entries.forEach(e -> out.add(e.getAttributeValue("cn")));
        return out;
    }

    @Test
    public void severalKeysAndMissingValuesLast() throws Exception {
        List<String> bySnThenGiven = sorted(new SortKey("sn"), new SortKey("givenName"));
        // caseIgnoreOrderingMatch: Brown and brown tie on sn, and givenName decides (no givenName: last).
        assertEquals(bySnThenGiven, List.of("bob", "al", "ann", "none", "adam", "zoe"));
        assertEquals(sorted(new SortKey("givenName")), List.of("adam", "al", "ann", "bob", "zoe", "none"));
    }

    @Test
    public void reverseOrder() throws Exception {
        assertEquals(sorted(new SortKey("sn", true), new SortKey("givenName")),
                List.of("adam", "zoe", "al", "ann", "none", "bob"));
        // Reversed, an entry without the attribute (larger than every value, RFC 2891) comes first.
        assertEquals(sorted(new SortKey("givenName", true)), List.of("none", "zoe", "bob", "ann", "al", "adam"));
    }

    @Test
    public void aNamedOrderingRule() throws Exception {
        // caseExactOrderingMatch (2.5.13.6) tells "Brown" from "brown".
        List<String> exact = sorted(new SortKey("sn", "2.5.13.6", false), new SortKey("givenName"));
        assertTrue(exact.indexOf("ann") != 1 && exact.indexOf("ann") != 2, exact.toString());
        assertEquals(exact.subList(0, 3), List.of("bob", "al", "none"));
    }

    @Test
    public void sortedPages() throws Exception {
        List<String> all = new ArrayList<>();
        ASN1OctetString cookie = null;
        for (int page = 0; page < 10; page++) {
            SearchRequest req = new SearchRequest(BASE, SearchScope.ONE, "(objectClass=person)", "cn");
            req.addControl(new ServerSideSortRequestControl(true, new SortKey("givenName", true)));
            req.addControl(new SimplePagedResultsControl(4, cookie, true));
            SearchResult result = c.search(req);
            assertTrue(result.getEntryCount() <= 4);
            all.addAll(names(result.getSearchEntries()));
            cookie = SimplePagedResultsControl.get(result).getCookie();
            if (cookie.getValueLength() == 0) {
                break;
            }
        }
        assertEquals(all, List.of("none", "zoe", "bob", "ann", "al", "adam"));
    }

    @Test
    public void beyondTheBoundACriticalSortFails() throws Exception {
        SearchRequest req = new SearchRequest(TestServer.PEOPLE, SearchScope.ONE, "(objectClass=person)", "uid");
        req.addControl(new ServerSideSortRequestControl(true, new SortKey("uid")));
        try {
            c.search(req);
            fail("sorted " + USERS + " entries beyond the bound of 20");
        } catch (LDAPSearchException e) {
            assertEquals(e.getResultCode(), ResultCode.UNAVAILABLE_CRITICAL_EXTENSION);
            assertEquals(e.getEntryCount(), 0);
            assertEquals(ServerSideSortResponseControl.get(e.getSearchResult()).getResultCode(),
                    ResultCode.ADMIN_LIMIT_EXCEEDED);
        }
    }

    @Test
    public void beyondTheBoundANonCriticalSortReturnsEverythingUnsorted() throws Exception {
        SearchRequest req = new SearchRequest(TestServer.PEOPLE, SearchScope.ONE, "(objectClass=person)", "uid");
        req.addControl(new ServerSideSortRequestControl(false, new SortKey("uid")));
        SearchResult result = c.search(req);
        assertEquals(result.getResultCode(), ResultCode.SUCCESS);
        assertEquals(result.getEntryCount(), USERS);
        assertEquals(ServerSideSortResponseControl.get(result).getResultCode(), ResultCode.ADMIN_LIMIT_EXCEEDED);
    }

    @Test
    public void unknownAttributeOrRule() throws Exception {
        SearchRequest req = new SearchRequest(BASE, SearchScope.ONE, "(objectClass=person)", "cn");
        req.addControl(new ServerSideSortRequestControl(true, new SortKey("noSuchAttribute")));
        try {
            c.search(req);
            fail("sorted by an unknown attribute");
        } catch (LDAPSearchException e) {
            assertEquals(e.getResultCode(), ResultCode.UNAVAILABLE_CRITICAL_EXTENSION);
            assertEquals(ServerSideSortResponseControl.get(e.getSearchResult()).getResultCode(),
                    ResultCode.NO_SUCH_ATTRIBUTE);
        }
        req.setControls(new ServerSideSortRequestControl(false, new SortKey("sn", "1.2.3.4.5.6", false)));
        SearchResult unsorted = c.search(req);
        assertEquals(unsorted.getEntryCount(), 6);
        assertEquals(ServerSideSortResponseControl.get(unsorted).getResultCode(), ResultCode.INAPPROPRIATE_MATCHING);
    }

    @Test
    public void ldapsearchSortsWithSss() throws Exception {
        LdapTools.require("ldapsearch");
        LdapTools.Run r = LdapTools.run("ldapsearch", "-x", "-LLL", "-H", "ldap://127.0.0.1:" + server.port(),
                "-E", "!sss=-sn/givenName", "-b", BASE, "-s", "one", "(objectClass=person)", "cn");
        assertEquals(r.exit(), 0, r.output());
        List<String> cns = new ArrayList<>();
        for (String line : r.output().split("\n")) {
            if (line.startsWith("cn: ")) {
                cns.add(line.substring(4).trim());
            }
        }
        assertEquals(cns, List.of("adam", "zoe", "al", "ann", "none", "bob"), r.output());
    }

    @Test
    public void rootDseListsSort() throws Exception {
        assertTrue(List.of(c.getRootDSE().getSupportedControlOIDs())
                .contains(ServerSideSortRequestControl.SERVER_SIDE_SORT_REQUEST_OID));
    }
}
