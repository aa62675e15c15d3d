package io.bindfirst.it.conformance;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertTrue;

import org.testng.annotations.AfterClass;
import org.testng.annotations.BeforeClass;
import org.testng.annotations.Test;

import com.unboundid.ldap.sdk.CompareResult;
import com.unboundid.ldap.sdk.ExtendedRequest;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.extensions.WhoAmIExtendedRequest;
import com.unboundid.ldap.sdk.extensions.WhoAmIExtendedResult;

import io.bindfirst.it.support.TestServer;

/** Extended operations and compare: proper results, never a dropped connection. */
public class ExtendedAndCompareTest {
    private TestServer server;

    @BeforeClass
    public void start() throws Exception {
        server = TestServer.start(20);
    }

    @AfterClass(alwaysRun = true)
    public void stop() {
        server.close();
    }

    @Test
    public void whoAmIAnonymousIsEmpty() throws Exception {
        try (LDAPConnection c = server.connect()) {
            WhoAmIExtendedResult r = (WhoAmIExtendedResult) c.processExtendedOperation(new WhoAmIExtendedRequest());
            assertEquals(r.getResultCode(), ResultCode.SUCCESS);
            assertEquals(r.getAuthorizationID(), "");
        }
    }

    @Test
    public void unknownExtendedOperationIsAProtocolErrorAndTheConnectionLives() throws Exception {
        try (LDAPConnection c = server.bindAs(TestServer.user(1), "password")) {
            LDAPException e = org.testng.Assert.expectThrows(LDAPException.class,
                    () -> c.processExtendedOperation(new ExtendedRequest("1.2.3.4.5.6.7.8")));
            assertEquals(e.getResultCode(), ResultCode.PROTOCOL_ERROR);
            assertTrue(e.getDiagnosticMessage().contains("1.2.3.4.5.6.7.8"));
            WhoAmIExtendedResult who = (WhoAmIExtendedResult) c.processExtendedOperation(new WhoAmIExtendedRequest());
            assertEquals(who.getAuthorizationID(), "dn:" + TestServer.user(1));
        }
    }

    @Test
    public void compareUsesTheMatchingRule() throws Exception {
        try (LDAPConnection c = server.connect()) {
            CompareResult yes = c.compare(TestServer.user(3), "mail", "USER.3@example.COM");
            assertEquals(yes.getResultCode(), ResultCode.COMPARE_TRUE);
            CompareResult no = c.compare(TestServer.user(3), "sn", "4");
            assertEquals(no.getResultCode(), ResultCode.COMPARE_FALSE);
        }
    }

    @Test
    public void compareErrorsAreCompareResults() throws Exception {
        try (LDAPConnection c = server.connect()) {
            assertEquals(compareCode(c, "uid=ghost,ou=People,dc=example,dc=com", "sn", "x"), ResultCode.NO_SUCH_OBJECT);
            assertEquals(compareCode(c, TestServer.user(3), "telephoneNumber", "1"), ResultCode.NO_SUCH_ATTRIBUTE);
            assertEquals(compareCode(c, TestServer.user(3), "userPassword", "password"),
                    ResultCode.INSUFFICIENT_ACCESS_RIGHTS);
            // Still connected and usable.
            assertEquals(c.compare(TestServer.user(3), "sn", "3").getResultCode(), ResultCode.COMPARE_TRUE);
        }
    }

    @Test
    public void nonRootUsersCannotCompareConfigurationEntriesNorPasswordsByOid() throws Exception {
        String handler = "cn=LDAP Connection Handler,cn=Connection Handlers,cn=config";
        try (LDAPConnection anonymous = server.connect();
             LDAPConnection user = server.bindAs(TestServer.user(4), "password");
             LDAPConnection root = server.bindAs(TestServer.ROOT_DN, TestServer.ROOT_PASSWORD)) {
            // As if the entry did not exist, so a user cannot tell which configuration entries there are.
            assertEquals(compareCode(anonymous, handler, "ds-cfg-listen-address", "127.0.0.1"),
                    ResultCode.NO_SUCH_OBJECT);
            assertEquals(compareCode(user, handler, "ds-cfg-listen-address", "127.0.0.1"), ResultCode.NO_SUCH_OBJECT);
            assertEquals(compareCode(root, handler, "ds-cfg-listen-address", "127.0.0.1"), ResultCode.COMPARE_TRUE);
            assertEquals(compareCode(user, TestServer.user(4), "2.5.4.35", "password"),
                    ResultCode.INSUFFICIENT_ACCESS_RIGHTS);
        }
    }

    private static ResultCode compareCode(LDAPConnection c, String dn, String attr, String value) {
        try {
            return c.compare(dn, attr, value).getResultCode();
        } catch (LDAPException e) {
            return e.getResultCode();
        }
    }
}
