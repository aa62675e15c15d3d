package io.bindfirst.it.ops;

import static org.testng.Assert.assertEquals;

import org.testng.annotations.Test;

import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.SearchScope;

import io.bindfirst.it.support.TestServer;
import io.bindfirst.server.backend.Backend;

/** Data survives a stop and start; the sample data is created on the first start only. */
public class RestartTest {

    @Test
    public void dataSurvivesRestartAndSampleDataIsNotRecreated() throws Exception {
        try (TestServer server = TestServer.start(250)) {
            Backend backend = server.server().context().backends().userBackends().get(0);
            assertEquals(backend.maintenance().entryCount(), 250 + TestServer.NON_USER_ENTRIES);
            server.restart();
            backend = server.server().context().backends().userBackends().get(0);
            assertEquals(backend.maintenance().entryCount(), 250 + TestServer.NON_USER_ENTRIES);
            try (LDAPConnection c = server.bindAs(TestServer.user(249), "password")) {
                assertEquals(c.search(TestServer.PEOPLE, SearchScope.ONE, "(uid=user.249)").getEntryCount(), 1);
            }
        }
    }
}
