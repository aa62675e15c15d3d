package io.bindfirst.it.bind;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertFalse;
import static org.testng.Assert.assertTrue;
import static org.testng.Assert.expectThrows;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;

import org.forgerock.opendj.ldap.DN;
import org.testng.SkipException;
import org.testng.annotations.AfterClass;
import org.testng.annotations.BeforeClass;
import org.testng.annotations.Test;

import com.unboundid.asn1.ASN1OctetString;
import com.unboundid.ldap.sdk.Attribute;
import com.unboundid.ldap.sdk.BindResult;
import com.unboundid.ldap.sdk.GenericSASLBindRequest;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.PLAINBindRequest;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.RootDSE;
import com.unboundid.ldap.sdk.extensions.WhoAmIExtendedRequest;
import com.unboundid.ldap.sdk.extensions.WhoAmIExtendedResult;

import io.bindfirst.it.support.LdapTools;
import io.bindfirst.it.support.TestServer;
import io.bindfirst.server.auth.AuthenticationInfo;
import io.bindfirst.server.config.ServerConfig;
import io.bindfirst.server.pwd.PasswordPolicies;
import io.bindfirst.server.pwd.PasswordPolicy;

/**
 * SASL PLAIN (RFC 4616) from loopback, where the shipped setting lets a password travel without TLS: the three
 * forms of the authentication identity, the identity mapper (uid and mail here), the failures that must look
 * alike, the authorization identity (root may act as a user, a user may not), lockout counted with simple binds,
 * and OpenLDAP's ldapwhoami through Cyrus SASL's PLAIN module. TLS and its refusal: {@link SaslPlainTlsTest}.
 */
public class SaslPlainTest {
    private static final String TWIN = "twin";

    private TestServer server;

    @BeforeClass
    public void start() throws Exception {
        // Three failures lock (for a minute): the lockout test counts on it; no other test fails thrice per user.
        PasswordPolicies policies = new PasswordPolicies(
                new PasswordPolicy(PasswordPolicies.DEFAULT_DN, 3, Duration.ofMinutes(1), Duration.ZERO), List.of());
        server = TestServer.start(30, c -> c.withPasswordPolicies(policies).withSasl(c.sasl().withIdentityMapper(
                new ServerConfig.IdentityMapper(true, List.of("uid", "mail"), List.of()))));
        try (LDAPConnection root = server.bindAs(TestServer.ROOT_DN, TestServer.ROOT_PASSWORD)) {
            // Two entries with one uid: the name is ambiguous, so it names nobody.
            for (String cn : new String[] {"Twin One", "Twin Two"}) {
                root.add("cn=" + cn + "," + TestServer.PEOPLE,
                        new Attribute("objectClass", "top", "person", "organizationalPerson", "inetOrgPerson"),
                        new Attribute("uid", TWIN), new Attribute("cn", cn), new Attribute("sn", "Twin"),
                        new Attribute("userPassword", "password"));
            }
        }
    }

    @AfterClass(alwaysRun = true)
    public void stop() {
        if (server != null) {
            server.close();
        }
    }

    private BindResult plain(LDAPConnection c, String authcId, String authzId, String password) throws LDAPException {
        return c.bind(new PLAINBindRequest(authcId, authzId, password));
    }

    private static String whoAmI(LDAPConnection c) throws LDAPException {
        return ((WhoAmIExtendedResult) c.processExtendedOperation(new WhoAmIExtendedRequest())).getAuthorizationID();
    }

    private static ResultCode code(ThrowingRunnable r) {
        return expectThrows(LDAPException.class, r::run).getResultCode();
    }

    private interface ThrowingRunnable {
        void run() throws Exception;
    }

    @Test
    public void theThreeFormsOfTheAuthenticationIdentity() throws Exception {
        String[][] cases = {
            {"dn:" + TestServer.user(1), TestServer.user(1)},
            {"u:user.2", TestServer.user(2)},
            {"user.3", TestServer.user(3)},
            {"u:user.4@example.com", TestServer.user(4)}, // the second match attribute
            {"dn:" + TestServer.ROOT_DN, "cn=Directory Manager,cn=Root DNs,cn=config"},
        };
        for (String[] c : cases) {
            try (LDAPConnection conn = server.connect()) {
                assertEquals(plain(conn, c[0], null, "password").getResultCode(), ResultCode.SUCCESS, c[0]);
                assertEquals(whoAmI(conn), "dn:" + c[1], c[0]);
            }
        }
    }

    @Test
    public void theConnectionSaysItAuthenticatedWithPlain() throws Exception {
        try (LDAPConnection conn = server.connect()) {
            plain(conn, "u:user.5", null, "password");
            List<String> methods = server.server().context().authenticatedUsers()
                    .connectionsOf(DN.valueOf(TestServer.user(5))).stream()
                    .map(b -> b.authentication().authMethod()).toList();
            assertEquals(methods, List.of("sasl PLAIN"));
            assertEquals(AuthenticationInfo.sasl("PLAIN"), "sasl PLAIN");
        }
    }

    @Test
    public void wrongPasswordUnknownNameAndAmbiguousNameAllAnswerAlike() throws Exception {
        try (LDAPConnection conn = server.connect()) {
            LDAPException wrong = expectThrows(LDAPException.class, () -> plain(conn, "u:user.6", null, "nope"));
            LDAPException unknown = expectThrows(LDAPException.class, () -> plain(conn, "nobody", null, "password"));
            LDAPException twin = expectThrows(LDAPException.class, () -> plain(conn, TWIN, null, "password"));
            LDAPException badDn = expectThrows(LDAPException.class,
                    () -> plain(conn, "dn:uid=nobody," + TestServer.PEOPLE, null, "password"));
            LDAPException simple = expectThrows(LDAPException.class, () -> conn.bind(TestServer.user(6), "nope"));
            for (LDAPException e : List.of(wrong, unknown, twin, badDn, simple)) {
                assertEquals(e.getResultCode(), ResultCode.INVALID_CREDENTIALS, e.toString());
                assertEquals(e.getDiagnosticMessage(), simple.getDiagnosticMessage(), e.toString());
            }
            assertEquals(whoAmI(conn), "", "a failed bind leaves the connection anonymous");
            // Each twin on its own DN is fine: only the name is ambiguous.
            assertEquals(plain(conn, "dn:cn=Twin One," + TestServer.PEOPLE, null, "password").getResultCode(),
                    ResultCode.SUCCESS);
        }
    }

    @Test
    public void aRootUserMayActAsAUserByDnOrName() throws Exception {
        for (String authzId : new String[] {"dn:" + TestServer.user(7), "u:user.7"}) {
            try (LDAPConnection conn = server.connect()) {
                assertEquals(plain(conn, "dn:" + TestServer.ROOT_DN, authzId, "password").getResultCode(),
                        ResultCode.SUCCESS);
                assertEquals(whoAmI(conn), "dn:" + TestServer.user(7), authzId);
                // Acting as the user, the connection has the user's rights: no root-only configuration.
                assertEquals(code(() -> conn.getEntry("cn=config")), ResultCode.INSUFFICIENT_ACCESS_RIGHTS);
            }
        }
    }

    @Test
    public void aUserMayNotActAsAnotherButMayNameItself() throws Exception {
        try (LDAPConnection conn = server.connect()) {
            LDAPException refused = expectThrows(LDAPException.class,
                    () -> plain(conn, "u:user.8", "dn:" + TestServer.user(9), "password"));
            assertEquals(refused.getResultCode(), ResultCode.INVALID_CREDENTIALS);
            assertTrue(refused.getDiagnosticMessage().contains("needs the proxied-auth privilege"),
                    refused.getDiagnosticMessage());
            assertEquals(whoAmI(conn), "");
            LDAPException nobody = expectThrows(LDAPException.class,
                    () -> plain(conn, "dn:" + TestServer.ROOT_DN, "u:nobody", "password"));
            assertEquals(nobody.getResultCode(), ResultCode.INVALID_CREDENTIALS);
            assertEquals(plain(conn, "u:user.8", "u:user.8", "password").getResultCode(), ResultCode.SUCCESS);
            assertEquals(whoAmI(conn), "dn:" + TestServer.user(8));
            assertEquals(plain(conn, "user.8", "dn:" + TestServer.user(8), "password").getResultCode(),
                    ResultCode.SUCCESS);
        }
    }

    @Test
    public void plainFailuresCountTowardsTheLockoutWithSimpleOnes() throws Exception {
        String dn = TestServer.user(10);
        try (LDAPConnection conn = server.connect()) {
            assertEquals(code(() -> plain(conn, "u:user.10", null, "nope")), ResultCode.INVALID_CREDENTIALS);
            assertEquals(code(() -> conn.bind(dn, "nope")), ResultCode.INVALID_CREDENTIALS);
            assertEquals(code(() -> plain(conn, "dn:" + dn, null, "nope")), ResultCode.INVALID_CREDENTIALS);
            // Locked: the right password is refused, by PLAIN and by a simple bind.
            assertEquals(code(() -> plain(conn, "u:user.10", null, "password")), ResultCode.INVALID_CREDENTIALS);
            assertEquals(code(() -> conn.bind(dn, "password")), ResultCode.INVALID_CREDENTIALS);
        }
    }

    @Test
    public void malformedCredentialsAreInvalidCredentials() throws Exception {
        try (LDAPConnection conn = server.connect()) {
            for (String creds : new String[] {"", "no-nul", "a\0b", "\0\0password", "\0user.1\0", "\0a\0b\0c"}) {
                LDAPException e = expectThrows(LDAPException.class,
                        () -> conn.bind(new GenericSASLBindRequest(null, "PLAIN", new ASN1OctetString(creds))));
                assertEquals(e.getResultCode(), ResultCode.INVALID_CREDENTIALS, creds);
            }
        }
    }

    @Test
    public void theRootDseListsPlain() throws Exception {
        try (LDAPConnection conn = server.connect()) {
            RootDSE dse = conn.getRootDSE();
            assertTrue(dse.supportsSASLMechanism("PLAIN"), dse.toString());
        }
    }

    @Test
    public void ldapwhoamiBindsWithPlain() throws Exception {
        LdapTools.require("ldapwhoami");
        requirePlainModule();
        String url = "ldap://127.0.0.1:" + server.port();
        // Cyrus SASL's clients offer no mechanism that sends a password in clear until told that is fine (-O none):
        // here it is, on loopback.
        LdapTools.Run r = LdapTools.run("ldapwhoami", "-O", "none", "-Y", "PLAIN", "-U", "user.11", "-w", "password",
                "-H", url);
        assertEquals(r.exit(), 0, r.output());
        assertTrue(r.output().trim().endsWith("dn:" + TestServer.user(11)), r.output());
        r = LdapTools.run("ldapwhoami", "-O", "none", "-Y", "PLAIN", "-U", "dn:" + TestServer.ROOT_DN, "-X",
                "u:user.12", "-w", "password", "-H", url);
        assertEquals(r.exit(), 0, r.output());
        assertTrue(r.output().trim().endsWith("dn:" + TestServer.user(12)), r.output());
        r = LdapTools.run("ldapwhoami", "-O", "none", "-Y", "PLAIN", "-U", "user.11", "-w", "wrong", "-H", url);
        assertEquals(r.exit(), 49, r.output());
    }

    /** Cyrus SASL's PLAIN module (Debian's libsasl2-modules): skipped without it, unless the tools are required. */
    private static void requirePlainModule() throws IOException {
        try (Stream<Path> dirs = Files.list(Path.of("/usr/lib"))) {
            if (dirs.anyMatch(d -> Files.exists(d.resolve("sasl2/libplain.so")))) {
                return;
            }
        }
        if (Boolean.getBoolean("ldap.tools.required")) {
            throw new AssertionError("Cyrus SASL's PLAIN module is required but not installed (.ci/run installs it)");
        }
        throw new SkipException("Cyrus SASL's PLAIN module (libsasl2-modules) is not installed");
    }

    @Test
    public void whenDisabledPlainIsNeitherListedNorAccepted() throws Exception {
        try (TestServer off = TestServer.start(2, c -> c.withSasl(c.sasl().withPlainEnabled(false)));
             LDAPConnection conn = off.connect()) {
            assertFalse(conn.getRootDSE().supportsSASLMechanism("PLAIN"));
            assertEquals(code(() -> plain(conn, "u:user.1", null, "password")), ResultCode.AUTH_METHOD_NOT_SUPPORTED);
        }
    }
}
