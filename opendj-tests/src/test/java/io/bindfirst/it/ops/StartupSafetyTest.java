package io.bindfirst.it.ops;

import static org.testng.Assert.assertTrue;
import static org.testng.Assert.expectThrows;

import java.nio.file.Path;

import org.testng.annotations.AfterClass;
import org.testng.annotations.Test;

import io.bindfirst.it.support.TestServer;
import io.bindfirst.server.DirectoryServer;
import io.bindfirst.server.ServerStartException;
import io.bindfirst.server.config.ConfigLoader;
import io.bindfirst.server.config.ServerConfig;
import io.bindfirst.server.testsupport.ConfigText;
import io.bindfirst.server.testsupport.TempFolders;

/**
 * The server refuses unsafe or broken configurations before it listens, with a message to act on. The
 * configurations are edited as config.ldif text, so that the messages are checked as a user would meet them.
 */
public class StartupSafetyTest {

    private final TempFolders temp = new TempFolders();

    @AfterClass(alwaysRun = true)
    public void deleteTempFolders() {
        temp.close();
    }

    private ServerConfig config(String from, String to) throws Exception {
        Path instance = temp.create("bindfirst-startup-");
        TestServer.copyConfig(instance);
        Path ldif = instance.resolve("config/config.ldif");
        ConfigText.read(ldif).replace(from, to).write(ldif);
        return TestServer.withFreePorts(ConfigLoader.load(ldif, instance));
    }

    /** The LDAP handler's address line (the LDAPS handler's is followed by its own port). */
    private static final String LDAP_LOOPBACK = "ds-cfg-listen-address: 127.0.0.1\nds-cfg-listen-port: 1389";
    private static final String LDAP_WILDCARD = "ds-cfg-listen-address: 0.0.0.0\nds-cfg-listen-port: 1389";

    @Test
    public void demoRootPasswordIsRefusedOnANonLoopbackListener() throws Exception {
        // Refused before binding: nothing ever listens on the wildcard address here.
        ServerConfig c = config(LDAP_LOOPBACK, LDAP_WILDCARD);
        ServerStartException e = expectThrows(ServerStartException.class, () -> DirectoryServer.start(c));
        assertTrue(e.getMessage().contains("demo password"), e.getMessage());
        assertTrue(e.getMessage().contains("0.0.0.0"), e.getMessage());
    }

    @Test
    public void demoRootPasswordIsRefusedOnANonLoopbackLdapsListener() throws Exception {
        ServerConfig c = config("ds-cfg-listen-address: 127.0.0.1\nds-cfg-listen-port: 1636",
                "ds-cfg-listen-address: 0.0.0.0\nds-cfg-listen-port: 1636");
        ServerStartException e = expectThrows(ServerStartException.class, () -> DirectoryServer.start(c));
        assertTrue(e.getMessage().contains("demo password"), e.getMessage());
        assertTrue(e.getMessage().contains("0.0.0.0"), e.getMessage());
    }

    @Test
    public void anIdentityMapperMatchAttributeOutsideTheSchemaStopsTheStart() throws Exception {
        ServerConfig c = config("ds-cfg-match-attribute: uid", "ds-cfg-match-attribute: noSuchAttribute");
        ServerStartException e = expectThrows(ServerStartException.class, () -> DirectoryServer.start(c));
        assertTrue(e.getMessage().startsWith("cn=Exact Match,cn=Identity Mappers,cn=config: ds-cfg-match-attribute: "
                + "'noSuchAttribute' is not an attribute type"), e.getMessage());
    }

    @Test
    public void bindCeilingModeIsRefusedOnANonLoopbackListener() throws Exception {
        ServerConfig c = config(LDAP_LOOPBACK, LDAP_WILDCARD)
                .withBindCeiling(true);
        ServerStartException e = expectThrows(ServerStartException.class, () -> DirectoryServer.start(c));
        assertTrue(e.getMessage().contains("ds-cfg-benchmark-bind-ceiling"), e.getMessage());
    }

    @Test
    public void bindCeilingModeAnswersEveryBindWithoutChecking() throws Exception {
        try (TestServer server = TestServer.start(5, c -> c.withBindCeiling(true));
             com.unboundid.ldap.sdk.LDAPConnection c = server.connect()) {
            assertTrue(c.bind(TestServer.user(1), "not-the-password").getResultCode()
                    == com.unboundid.ldap.sdk.ResultCode.SUCCESS);
        }
        try (TestServer server = TestServer.start(5);
             com.unboundid.ldap.sdk.LDAPConnection c = server.connect()) {
            expectThrows(com.unboundid.ldap.sdk.LDAPException.class,
                    () -> c.bind(TestServer.user(1), "not-the-password"));
        }
    }

    @Test
    public void unknownBackendTypeIsNamed() throws Exception {
        ServerConfig c = config("ds-cfg-backend-type: je", "ds-cfg-backend-type: mdb");
        ServerStartException e = expectThrows(ServerStartException.class, () -> DirectoryServer.start(c));
        assertTrue(e.getMessage().contains("ds-cfg-backend-id=userRoot,cn=Backends,cn=config: ds-cfg-backend-type"),
                e.getMessage());
        assertTrue(e.getMessage().contains("mdb"), e.getMessage());
    }

    @Test
    public void unknownDefaultPasswordSchemeIsNamed() throws Exception {
        ServerConfig c = config("ds-cfg-default-password-storage-scheme: SSHA512",
                "ds-cfg-default-password-storage-scheme: MD4");
        ServerStartException e = expectThrows(ServerStartException.class, () -> DirectoryServer.start(c));
        assertTrue(e.getMessage().contains("ds-cfg-default-password-storage-scheme"), e.getMessage());
        assertTrue(e.getMessage().contains("MD4"), e.getMessage());
    }

    @Test
    public void weakDefaultPasswordSchemeIsRefusedWithTheStrongOnes() throws Exception {
        // {SMD5} is verified (values migrated from OpenLDAP) but may not store new passwords.
        ServerConfig c = config("ds-cfg-default-password-storage-scheme: SSHA512",
                "ds-cfg-default-password-storage-scheme: SMD5");
        ServerStartException e = expectThrows(ServerStartException.class, () -> DirectoryServer.start(c));
        assertTrue(e.getMessage().startsWith("cn=Password Storage Schemes,cn=config: "
                + "ds-cfg-default-password-storage-scheme: "), e.getMessage());
        assertTrue(e.getMessage().contains("'SMD5' is too weak"), e.getMessage());
        assertTrue(e.getMessage().contains("SSHA512") && e.getMessage().contains("BCRYPT"), e.getMessage());
    }
}
