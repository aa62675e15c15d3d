package io.bindfirst.it.write;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertTrue;
import static org.testng.Assert.expectThrows;

import java.util.List;

import org.testng.annotations.AfterClass;
import org.testng.annotations.BeforeClass;
import org.testng.annotations.Test;

import com.unboundid.ldap.sdk.Control;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.Modification;
import com.unboundid.ldap.sdk.ModificationType;
import com.unboundid.ldap.sdk.ModifyRequest;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.SearchResultEntry;

import io.bindfirst.it.support.LdapTools;
import io.bindfirst.it.support.TestServer;

/**
 * The Relax Rules control (draft-zeilenga-ldap-relax, 1.3.6.1.4.1.4203.666.5.12; OpenLDAP's {@code ldapmodify -e
 * relax}): a root user writes attributes the server maintains (account state carried over from another server, or a
 * replica's record of a lockout on its master), and the entry becomes what the modifications make it, with no
 * {@code modifiersName}, {@code modifyTimestamp} or password-change record of the server's own. For root users only.
 */
public class RelaxRulesTest {
    private static final String RELAX = "1.3.6.1.4.1.4203.666.5.12";
    private TestServer server;
    private LDAPConnection root;

    @BeforeClass
    public void start() throws Exception {
        server = TestServer.start(5);
        root = server.bindAs(TestServer.ROOT_DN, TestServer.ROOT_PASSWORD);
    }

    @AfterClass(alwaysRun = true)
    public void stop() {
        if (root != null) {
            root.close();
        }
        if (server != null) {
            server.close();
        }
    }

    @Test
    public void aRootUserWritesAnAttributeTheServerMaintainsAndTheServerAddsNothing() throws Exception {
        String user = TestServer.user(1);
        root.modify(user, new Modification(ModificationType.REPLACE, "description", "before"));
        SearchResultEntry before = root.getEntry(user, "modifyTimestamp", "modifiersName");
        Modification grace = new Modification(ModificationType.REPLACE, "pwdGraceUseTime", "20261201000000Z");
        LDAPException plain = expectThrows(LDAPException.class, () -> root.modify(new ModifyRequest(user, grace)));
        assertEquals(plain.getResultCode(), ResultCode.CONSTRAINT_VIOLATION, "without the control: the server's own");
        Thread.sleep(1_100); // a modifyTimestamp the server would set now differs from the one before, to the second
        ModifyRequest relaxed = new ModifyRequest(user, grace);
        relaxed.addControl(new Control(RELAX, true));
        assertEquals(root.modify(relaxed).getResultCode(), ResultCode.SUCCESS);
        SearchResultEntry after = root.getEntry(user, "pwdGraceUseTime", "modifyTimestamp", "modifiersName");
        assertEquals(after.getAttributeValue("pwdGraceUseTime"), "20261201000000Z");
        assertEquals(after.getAttributeValue("modifyTimestamp"), before.getAttributeValue("modifyTimestamp"));
        assertEquals(after.getAttributeValue("modifiersName"), before.getAttributeValue("modifiersName"));
    }

    @Test
    public void aPasswordWrittenRelaxedIsStoredAsGivenWithoutAChangeRecord() throws Exception {
        String user = TestServer.user(2);
        String changedBefore = root.getEntry(user, "pwdChangedTime").getAttributeValue("pwdChangedTime");
        // "secret-2" in SSHA, made elsewhere: the hash is stored as it is and the account binds with it.
        byte[] salt = {1, 2, 3, 4};
        String hash = "{SSHA}" + java.util.Base64.getEncoder().encodeToString(ssha("secret-2", salt));
        ModifyRequest relaxed = new ModifyRequest(user, new Modification(ModificationType.REPLACE, "userPassword",
                hash));
        relaxed.addControl(new Control(RELAX, true));
        root.modify(relaxed);
        SearchResultEntry after = root.getEntry(user, "userPassword", "pwdChangedTime", "pwdReset");
        assertEquals(after.getAttributeValue("userPassword"), hash);
        assertEquals(after.getAttributeValue("pwdChangedTime"), changedBefore, "no password change recorded");
        assertEquals(after.getAttributeValue("pwdReset"), null, "not a reset by an administrator");
        server.bindAs(user, "secret-2").close();
    }

    @Test
    public void aUserMayNotRelaxTheRules() throws Exception {
        String user = TestServer.user(3);
        try (LDAPConnection self = server.bindAs(user, TestServer.USER_PASSWORD)) {
            ModifyRequest relaxed = new ModifyRequest(user, new Modification(ModificationType.REPLACE,
                    "userPassword", "new-secret-3"));
            relaxed.addControl(new Control(RELAX, true));
            LDAPException e = expectThrows(LDAPException.class, () -> self.modify(relaxed));
            assertEquals(e.getResultCode(), ResultCode.INSUFFICIENT_ACCESS_RIGHTS);
            assertTrue(e.getDiagnosticMessage().contains("root users only"), e.getDiagnosticMessage());
        }
    }

    @Test
    public void ldapmodifySendsItAsRelax() throws Exception {
        LdapTools.require("ldapmodify");
        LdapTools.Run r = LdapTools.runWithInput("dn: " + TestServer.user(4) + "\nchangetype: modify\n"
                + "replace: pwdAccountLockedTime\npwdAccountLockedTime: 000001010000Z\n"
                + "-\nadd: pwdGraceUseTime\npwdGraceUseTime: 20261202000000Z\n",
                "ldapmodify", "-x", "-H", "ldap://127.0.0.1:" + server.port(), "-D", TestServer.ROOT_DN,
                "-w", TestServer.ROOT_PASSWORD, "-e", "relax");
        assertEquals(r.exit(), 0, r.output());
        assertEquals(root.getEntry(TestServer.user(4), "pwdGraceUseTime").getAttributeValue("pwdGraceUseTime"),
                "20261202000000Z");
        assertTrue(List.of(root.getRootDSE().getSupportedControlOIDs()).contains(RELAX));
    }

    private static byte[] ssha(String password, byte[] salt) throws Exception {
        java.security.MessageDigest sha = java.security.MessageDigest.getInstance("SHA-1");
        sha.update(password.getBytes(java.nio.charset.StandardCharsets.UTF_8));
        sha.update(salt);
        byte[] digest = sha.digest();
        byte[] out = new byte[digest.length + salt.length];
        System.arraycopy(digest, 0, out, 0, digest.length);
        System.arraycopy(salt, 0, out, digest.length, salt.length);
        return out;
    }
}
