package io.bindfirst.server.core;

import static io.bindfirst.server.testsupport.InMemoryServer.PASSWORD;
import static io.bindfirst.server.testsupport.InMemoryServer.ROOT_DN;
import static io.bindfirst.server.testsupport.InMemoryServer.ROOT_PASSWORD;
import static io.bindfirst.server.testsupport.InMemoryServer.simpleBind;
import static io.bindfirst.server.testsupport.InMemoryServer.user;
import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertTrue;

import org.forgerock.opendj.ldap.DecodeOptions;
import org.forgerock.opendj.ldap.ResultCode;
import org.forgerock.opendj.ldap.controls.AuthorizationIdentityRequestControl;
import org.forgerock.opendj.ldap.controls.AuthorizationIdentityResponseControl;
import org.forgerock.opendj.ldap.controls.GenericControl;
import org.forgerock.opendj.ldap.requests.GenericBindRequest;
import org.testng.annotations.AfterClass;
import org.testng.annotations.BeforeClass;
import org.testng.annotations.Test;

import io.bindfirst.server.testsupport.InMemoryServer;
import io.bindfirst.server.testsupport.RecordingSink;
import io.bindfirst.server.testsupport.TestSession;

/** Simple binds (RFC 4511 4.2, RFC 4513 5.1) through BindOperation, on a session without a socket. */
public class BindOperationTest {
    private InMemoryServer server;

    @BeforeClass
    public void start() throws Exception {
        server = InMemoryServer.start(10);
    }

    @AfterClass(alwaysRun = true)
    public void stop() {
        server.close();
    }

    private int registrations(String dn) {
        return server.context().authenticatedUsers().registrations(server.dn(dn));
    }

    @Test
    public void aUserBindsWithThePasswordAndTheSessionIsRegisteredAsThem() {
        TestSession s = server.newSession();
        RecordingSink r = server.send(s, simpleBind(user(1), PASSWORD));
        assertEquals(r.code(), ResultCode.SUCCESS, r.message());
        assertEquals(s.authentication().authenticationDN(), server.dn(user(1)));
        assertEquals(registrations(user(1)), 1);
        assertEquals(server.send(s, simpleBind(user(2), PASSWORD)).code(), ResultCode.SUCCESS);
        assertEquals(registrations(user(1)), 0, "a new bind ends the previous authentication");
        assertEquals(registrations(user(2)), 1);
    }

    /** Nothing in the answer tells a wrong password from a user that does not exist (RFC 4513 6.1). */
    @Test
    public void wrongPasswordUnknownUserAndUnknownSuffixAreTheSameInvalidCredentials() {
        TestSession s = server.newSession();
        RecordingSink wrong = server.send(s, simpleBind(user(3), "wrong"));
        RecordingSink unknown = server.send(s, simpleBind("uid=nobody,ou=People,dc=example,dc=com", PASSWORD));
        RecordingSink outside = server.send(s, simpleBind("o=elsewhere", PASSWORD));
        for (RecordingSink r : new RecordingSink[] {wrong, unknown, outside}) {
            assertEquals(r.code(), ResultCode.INVALID_CREDENTIALS);
            assertEquals(r.message(), wrong.message());
            assertEquals(r.result().getMatchedDN(), "");
        }
        assertTrue(s.authentication().isAnonymous());
    }

    @Test
    public void aFailedBindLeavesTheSessionAnonymousAndUnregistered() {
        TestSession s = server.boundAs(user(4), PASSWORD);
        assertEquals(registrations(user(4)), 1);
        assertEquals(server.send(s, simpleBind(user(4), "nope")).code(), ResultCode.INVALID_CREDENTIALS);
        assertTrue(s.authentication().isAnonymous());
        assertEquals(registrations(user(4)), 0);
    }

    /** RFC 4513 5.1.1 and 5.1.2: no name and no password is anonymous; a name without a password is refused. */
    @Test
    public void anonymousBindSucceedsAndANameWithoutPasswordIsUnwillingToPerform() {
        TestSession s = server.newSession();
        assertEquals(server.send(s, simpleBind("", "")).code(), ResultCode.SUCCESS);
        assertTrue(s.authentication().isAnonymous());
        RecordingSink unauthenticated = server.send(s, simpleBind(user(1), ""));
        assertEquals(unauthenticated.code(), ResultCode.UNWILLING_TO_PERFORM);
        assertTrue(s.authentication().isAnonymous());
        assertEquals(server.send(s, simpleBind("", PASSWORD)).code(), ResultCode.INVALID_CREDENTIALS,
                "a password without a name");
    }

    @Test
    public void theRootUserBindsByItsAlternateDn() {
        TestSession s = server.newSession();
        assertEquals(server.send(s, simpleBind(ROOT_DN, ROOT_PASSWORD)).code(), ResultCode.SUCCESS);
        assertTrue(s.authentication().root());
        assertEquals(s.authentication().authenticationDN().toString(), "cn=Directory Manager,cn=Root DNs,cn=config");
        assertEquals(server.send(s, simpleBind(ROOT_DN, "wrong")).code(), ResultCode.INVALID_CREDENTIALS);
        assertTrue(s.authentication().isAnonymous());
    }

    @Test
    public void aNameThatIsNotADnIsInvalidDnSyntax() {
        assertEquals(server.send(server.newSession(), simpleBind("not a dn", PASSWORD)).code(),
                ResultCode.INVALID_DN_SYNTAX);
    }

    @Test
    public void theAuthorizationIdentityControlIsAnswered() throws Exception {
        GenericBindRequest bind = simpleBind(user(5), PASSWORD);
        bind.addControl(AuthorizationIdentityRequestControl.newControl(false));
        RecordingSink r = server.send(server.newSession(), bind);
        assertEquals(r.code(), ResultCode.SUCCESS);
        AuthorizationIdentityResponseControl c = r.result().getControl(AuthorizationIdentityResponseControl.DECODER,
                new DecodeOptions());
        assertEquals(c.getAuthorizationID(), "dn:" + user(5));
    }

    @Test
    public void anUnknownCriticalControlIsRefusedAndTheSessionStaysAnonymous() {
        GenericBindRequest bind = simpleBind(user(6), PASSWORD);
        bind.addControl(GenericControl.newControl("1.2.3.4.5.6.7", true));
        TestSession s = server.newSession();
        assertEquals(server.send(s, bind).code(), ResultCode.UNAVAILABLE_CRITICAL_EXTENSION);
        assertTrue(s.authentication().isAnonymous());
        assertEquals(registrations(user(6)), 0);
    }
}
