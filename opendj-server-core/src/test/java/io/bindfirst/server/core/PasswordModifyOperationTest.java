package io.bindfirst.server.core;

import static io.bindfirst.server.testsupport.InMemoryServer.PASSWORD;
import static io.bindfirst.server.testsupport.InMemoryServer.ROOT_DN;
import static io.bindfirst.server.testsupport.InMemoryServer.ROOT_PASSWORD;
import static io.bindfirst.server.testsupport.InMemoryServer.simpleBind;
import static io.bindfirst.server.testsupport.InMemoryServer.user;
import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertTrue;

import java.nio.charset.StandardCharsets;

import org.forgerock.opendj.ldap.ResultCode;
import org.forgerock.opendj.ldap.requests.PasswordModifyExtendedRequest;
import org.forgerock.opendj.ldap.requests.Requests;
import org.forgerock.opendj.ldap.responses.PasswordModifyExtendedResult;
import org.testng.annotations.AfterClass;
import org.testng.annotations.BeforeClass;
import org.testng.annotations.Test;

import io.bindfirst.server.testsupport.InMemoryServer;
import io.bindfirst.server.testsupport.RecordingSink;
import io.bindfirst.server.testsupport.TestSession;

/** The Password Modify extended operation (RFC 3062) through PasswordModifyOperation. */
public class PasswordModifyOperationTest {
    private InMemoryServer server;

    @BeforeClass
    public void start() throws Exception {
        server = InMemoryServer.start(6);
    }

    @AfterClass(alwaysRun = true)
    public void stop() {
        server.close();
    }

    private static PasswordModifyExtendedRequest change(String oldPassword, String newPassword) {
        PasswordModifyExtendedRequest r = Requests.newPasswordModifyExtendedRequest();
        if (oldPassword != null) {
            r.setOldPassword(oldPassword.toCharArray());
        }
        return newPassword == null ? r : r.setNewPassword(newPassword.toCharArray());
    }

    private ResultCode bind(String dn, String password) {
        return server.send(server.newSession(), simpleBind(dn, password)).code();
    }

    @Test
    public void aBoundUserChangesTheirOwnPassword() {
        TestSession self = server.boundAs(user(1), PASSWORD);
        RecordingSink r = server.send(self, change(PASSWORD, "n3w-secret-1"));
        assertEquals(r.code(), ResultCode.SUCCESS, r.message());
        assertEquals(bind(user(1), PASSWORD), ResultCode.INVALID_CREDENTIALS);
        assertEquals(bind(user(1), "n3w-secret-1"), ResultCode.SUCCESS);
    }

    @Test
    public void aWrongOldPasswordIsInvalidCredentialsAndChangesNothing() {
        TestSession self = server.boundAs(user(2), PASSWORD);
        assertEquals(server.send(self, change("not-it", "n3w-secret-2")).code(), ResultCode.INVALID_CREDENTIALS);
        assertEquals(bind(user(2), PASSWORD), ResultCode.SUCCESS);
        assertEquals(bind(user(2), "n3w-secret-2"), ResultCode.INVALID_CREDENTIALS);
    }

    /** Root resets another's password; without a new one the server generates it and returns it. */
    @Test
    public void aRootResetWithoutANewPasswordReturnsAGeneratedOne() {
        TestSession root = server.boundAs(ROOT_DN, ROOT_PASSWORD);
        RecordingSink r = server.send(root, change(null, null).setUserIdentity("dn:" + user(3)));
        assertEquals(r.code(), ResultCode.SUCCESS, r.message());
        byte[] generated = ((PasswordModifyExtendedResult) r.result()).getGeneratedPassword();
        assertTrue(generated != null && generated.length >= 8, "a generated password is returned");
        assertEquals(bind(user(3), new String(generated, StandardCharsets.UTF_8)), ResultCode.SUCCESS);
        assertEquals(bind(user(3), PASSWORD), ResultCode.INVALID_CREDENTIALS);
    }

    @Test
    public void anAnonymousRequestWithoutIdentityAndAUserNamingAnotherAreRefused() {
        assertEquals(server.send(server.newSession(), change(null, "n3w-secret-4")).code(),
                ResultCode.UNWILLING_TO_PERFORM);
        TestSession other = server.boundAs(user(5), PASSWORD);
        assertEquals(server.send(other, change(null, "n3w-secret-4").setUserIdentity("dn:" + user(4))).code(),
                ResultCode.INSUFFICIENT_ACCESS_RIGHTS);
        assertEquals(bind(user(4), PASSWORD), ResultCode.SUCCESS);
    }
}
