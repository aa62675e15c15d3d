package io.bindfirst.it.search;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertTrue;
import static org.testng.Assert.expectThrows;

import org.testng.annotations.AfterClass;
import org.testng.annotations.BeforeClass;
import org.testng.annotations.Test;

import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPSearchException;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.SearchScope;

import io.bindfirst.it.support.TestServer;
import io.bindfirst.server.config.ServerConfig;

/** The lookthrough limit: unindexed searches stop with adminLimitExceeded for users, never for root. */
public class SearchLimitsTest {
    private TestServer server;

    @BeforeClass
    public void start() throws Exception {
        server = TestServer.start(300, c -> c.withLimits(new ServerConfig.Limits(1000, 60, 100)));
    }

    @AfterClass(alwaysRun = true)
    public void stop() {
        server.close();
    }

    @Test
    public void unindexedSearchStopsAtTheLookthroughLimit() throws Exception {
        try (LDAPConnection c = server.connect()) {
            // employeeNumber is not indexed: all 300 users are candidates, over the limit of 100.
            LDAPSearchException e = expectThrows(LDAPSearchException.class,
                    () -> c.search(TestServer.PEOPLE, SearchScope.ONE, "(employeeNumber=250)"));
            assertEquals(e.getResultCode(), ResultCode.ADMIN_LIMIT_EXCEEDED);
            assertTrue(e.getDiagnosticMessage().contains("lookthrough"), e.getDiagnosticMessage());
            // An indexed attribute narrows the candidates to one.
            assertEquals(c.search(TestServer.PEOPLE, SearchScope.ONE, "(uid=user.250)").getEntryCount(), 1);
        }
        try (LDAPConnection root = server.bindAs(TestServer.ROOT_DN, TestServer.ROOT_PASSWORD)) {
            assertEquals(root.search(TestServer.PEOPLE, SearchScope.ONE, "(employeeNumber=250)").getEntryCount(), 1);
        }
    }
}
