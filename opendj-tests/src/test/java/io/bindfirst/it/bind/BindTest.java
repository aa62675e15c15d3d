package io.bindfirst.it.bind;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertNotNull;
import static org.testng.Assert.assertNull;
import static org.testng.Assert.assertTrue;
import static org.testng.Assert.expectThrows;

import java.time.Duration;

import org.testng.annotations.AfterClass;
import org.testng.annotations.BeforeClass;
import org.testng.annotations.Test;

import com.unboundid.ldap.sdk.BindResult;
import com.unboundid.ldap.sdk.GenericSASLBindRequest;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.SimpleBindRequest;
import com.unboundid.ldap.sdk.controls.AuthorizationIdentityRequestControl;
import com.unboundid.ldap.sdk.controls.AuthorizationIdentityResponseControl;
import com.unboundid.ldap.sdk.extensions.WhoAmIExtendedRequest;
import com.unboundid.ldap.sdk.extensions.WhoAmIExtendedResult;

import io.bindfirst.it.support.TestServer;
import io.bindfirst.server.auth.BindDns;
import io.bindfirst.server.testsupport.Poll;

/** Simple bind as RFC 4511 4.2 and RFC 4513 5.1 describe it, against the real server. */
public class BindTest {
    private TestServer server;

    @BeforeClass
    public void start() throws Exception {
        server = TestServer.start(100);
    }

    @AfterClass(alwaysRun = true)
    public void stop() {
        server.close();
    }

    private static String whoAmI(LDAPConnection c) throws LDAPException {
        WhoAmIExtendedResult r = (WhoAmIExtendedResult) c.processExtendedOperation(new WhoAmIExtendedRequest());
        assertEquals(r.getResultCode(), ResultCode.SUCCESS);
        return r.getAuthorizationID();
    }

    @Test
    public void userBindsWithThePassword() throws Exception {
        try (LDAPConnection c = server.bindAs(TestServer.user(1), "password")) {
            assertEquals(whoAmI(c), "dn:" + TestServer.user(1));
        }
    }

    /**
     * The server keeps the parsed DNs of binds that succeeded (BindDns), not of those that failed, so a client
     * cannot fill it with names; a re-bind with a kept name authenticates as before, and a wrong password with
     * it still fails.
     */
    @Test
    public void onlySuccessfulBindsKeepTheirParsedDn() throws Exception {
        BindDns dns = server.server().context().bindDns();
        String nobody = "uid=nobody.here,ou=People,dc=example,dc=com";
        String user = "uid=user.7, ou=People, dc=example, dc=com"; // a spelling no other test binds with
        try (LDAPConnection c = server.connect()) {
            for (int i = 0; i < 3; i++) {
                expectThrows(LDAPException.class, () -> c.bind(nobody, "password"));
                expectThrows(LDAPException.class, () -> c.bind(user, "wrong"));
            }
            assertNull(dns.kept(nobody));
            assertNull(dns.kept(user), "a failed bind keeps nothing");
            c.bind(user, "password");
            assertNotNull(dns.kept(user), "a successful bind keeps its DN");
            assertEquals(whoAmI(c), "dn:" + TestServer.user(7));
            c.bind(user, "password");
            assertEquals(whoAmI(c), "dn:" + TestServer.user(7));
            LDAPException wrong = expectThrows(LDAPException.class, () -> c.bind(user, "wrong"));
            assertEquals(wrong.getResultCode(), ResultCode.INVALID_CREDENTIALS);
        }
    }

    @Test
    public void bindDnIsMatchedByItsNormalizedForm() throws Exception {
        try (LDAPConnection c = server.bindAs("UID=User.1, OU=people,DC=Example,DC=COM", "password")) {
            assertEquals(whoAmI(c), "dn:" + TestServer.user(1));
        }
    }

    @Test
    public void wrongPasswordAndUnknownUserAreIndistinguishable() throws Exception {
        try (LDAPConnection c = server.connect()) {
            LDAPException wrong = expectThrows(LDAPException.class, () -> c.bind(TestServer.user(1), "wrong"));
            LDAPException unknown = expectThrows(LDAPException.class,
                    () -> c.bind("uid=nobody,ou=People,dc=example,dc=com", "password"));
            LDAPException outside = expectThrows(LDAPException.class, () -> c.bind("o=elsewhere", "password"));
            for (LDAPException e : new LDAPException[] {wrong, unknown, outside}) {
                assertEquals(e.getResultCode(), ResultCode.INVALID_CREDENTIALS);
                assertEquals(e.getDiagnosticMessage(), wrong.getDiagnosticMessage());
                assertEquals(e.getMatchedDN(), null);
            }
        }
    }

    @Test
    public void failedBindLeavesTheConnectionAnonymous() throws Exception {
        try (LDAPConnection c = server.bindAs(TestServer.user(2), "password")) {
            assertEquals(whoAmI(c), "dn:" + TestServer.user(2));
            expectThrows(LDAPException.class, () -> c.bind(TestServer.user(2), "nope"));
            assertEquals(whoAmI(c), "");
            assertTrue(server.server().context().authenticatedUsers().connectionsOf(
                    org.forgerock.opendj.ldap.DN.valueOf(TestServer.user(2))).isEmpty());
        }
    }

    @Test
    public void dnWithEmptyPasswordIsUnwillingToPerform() throws Exception {
        try (LDAPConnection c = server.connect()) {
            // UnboundID refuses to send this by default, as RFC 4513 advises clients.
            c.getConnectionOptions().setBindWithDNRequiresPassword(false);
            LDAPException e = expectThrows(LDAPException.class, () -> c.bind(TestServer.user(1), ""));
            assertEquals(e.getResultCode(), ResultCode.UNWILLING_TO_PERFORM);
            assertEquals(whoAmI(c), "");
        }
    }

    @Test
    public void anonymousBindSucceeds() throws Exception {
        try (LDAPConnection c = server.connect()) {
            BindResult r = c.bind("", "");
            assertEquals(r.getResultCode(), ResultCode.SUCCESS);
            assertEquals(whoAmI(c), "");
        }
    }

    @Test
    public void rootUserBindsWithItsAlternateDn() throws Exception {
        try (LDAPConnection c = server.bindAs(TestServer.ROOT_DN, TestServer.ROOT_PASSWORD)) {
            assertEquals(whoAmI(c), "dn:cn=Directory Manager,cn=Root DNs,cn=config");
        }
        try (LDAPConnection c = server.connect()) {
            LDAPException e = expectThrows(LDAPException.class, () -> c.bind(TestServer.ROOT_DN, "wrong"));
            assertEquals(e.getResultCode(), ResultCode.INVALID_CREDENTIALS);
        }
    }

    @Test
    public void rebindSwitchesIdentityAndRegistry() throws Exception {
        org.forgerock.opendj.ldap.DN u3 = org.forgerock.opendj.ldap.DN.valueOf(TestServer.user(3));
        org.forgerock.opendj.ldap.DN u4 = org.forgerock.opendj.ldap.DN.valueOf(TestServer.user(4));
        var users = server.server().context().authenticatedUsers();
        try (LDAPConnection c = server.bindAs(TestServer.user(3), "password")) {
            assertEquals(users.connectionsOf(u3).size(), 1);
            c.bind(TestServer.user(4), "password");
            assertEquals(whoAmI(c), "dn:" + TestServer.user(4));
            assertEquals(users.registrations(u3), 0, "a re-bind deregisters the old DN");
            assertEquals(users.connectionsOf(u4).size(), 1);
        }
        // Closing deregisters (not just leaves the snapshots, which show open connections only); the close
        // event arrives asynchronously.
        Poll.until("no registration left for " + u4, Duration.ofSeconds(5), () -> users.registrations(u4) == 0);
    }

    @Test
    public void invalidDnIsInvalidDnSyntax() throws Exception {
        try (LDAPConnection c = server.connect()) {
            LDAPException e = expectThrows(LDAPException.class, () -> c.bind("not a dn", "password"));
            assertEquals(e.getResultCode(), ResultCode.INVALID_DN_SYNTAX);
        }
    }

    @Test
    public void anUnsupportedSaslMechanismIsAuthMethodNotSupportedAndTheConnectionSurvives() throws Exception {
        try (LDAPConnection c = server.connect()) {
            LDAPException e = expectThrows(LDAPException.class,
                    () -> c.bind(new GenericSASLBindRequest(null, "CRAM-MD5", null)));
            assertEquals(e.getResultCode(), ResultCode.AUTH_METHOD_NOT_SUPPORTED);
            c.bind(TestServer.user(1), "password");
            assertEquals(whoAmI(c), "dn:" + TestServer.user(1));
        }
    }

    @Test
    public void authorizationIdentityControlIsAnswered() throws Exception {
        try (LDAPConnection c = server.connect()) {
            BindResult r = c.bind(new SimpleBindRequest(TestServer.user(5), "password",
                    new AuthorizationIdentityRequestControl()));
            AuthorizationIdentityResponseControl ctl = AuthorizationIdentityResponseControl.get(r);
            assertNotNull(ctl);
            assertEquals(ctl.getAuthorizationID(), "dn:" + TestServer.user(5));
        }
    }

    @Test
    public void unknownCriticalControlIsRefused() throws Exception {
        try (LDAPConnection c = server.connect()) {
            LDAPException e = expectThrows(LDAPException.class, () -> c.bind(new SimpleBindRequest(
                    TestServer.user(1), "password",
                    new com.unboundid.ldap.sdk.Control("1.2.3.4.5.6.7", true))));
            assertEquals(e.getResultCode(), ResultCode.UNAVAILABLE_CRITICAL_EXTENSION);
            assertEquals(whoAmI(c), "");
        }
    }
}
