package io.bindfirst.server.config;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertFalse;
import static org.testng.Assert.assertNull;
import static org.testng.Assert.assertTrue;
import static org.testng.Assert.expectThrows;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;

import org.forgerock.opendj.ldap.DN;
import org.testng.annotations.Test;

import io.bindfirst.server.backend.BackendConfig;

public class ConfigLoaderTest {
    private static final Path SHIPPED = locate();

    private static Path locate() {
        for (Path p = Path.of("").toAbsolutePath(); p != null; p = p.getParent()) {
            Path c = p.resolve("config/config.ldif");
            if (Files.exists(c)) {
                return c;
            }
        }
        throw new IllegalStateException("config/config.ldif not found above " + Path.of("").toAbsolutePath());
    }

    private static ServerConfig loadEdited(String from, String to) throws Exception {
        String text = Files.readString(SHIPPED);
        assertTrue(text.contains(from), "the shipped config no longer contains: " + from);
        Path dir = Files.createTempDirectory("config-test");
        Path file = dir.resolve("config.ldif");
        Files.writeString(file, text.replace(from, to));
        return ConfigLoader.load(file, dir);
    }

    @Test
    public void shippedDefaults() throws Exception {
        Path root = Files.createTempDirectory("instance");
        ServerConfig c = ConfigLoader.load(SHIPPED, root);
        assertEquals(c.listener().address(), "127.0.0.1");
        assertEquals(c.listener().port(), 1389);
        assertEquals(c.limits(), new ServerConfig.Limits(1000, 60, 5000));
        assertEquals(c.passwords(), new ServerConfig.Passwords("SSHA512", false));
        assertEquals(c.rootUsers().size(), 1);
        assertEquals(c.rootUsers().get(0).alternateBindDNs(), java.util.List.of(DN.valueOf("cn=Directory Manager")));
        assertTrue(c.rootUsers().get(0).passwords().get(0).toString().startsWith("{SSHA512}"));
        BackendConfig b = c.backends().get(0);
        assertEquals(b.id(), "userRoot");
        assertEquals(b.type(), "je");
        assertEquals(b.baseDNs(), java.util.List.of(DN.valueOf("dc=example,dc=com")));
        assertEquals(b.directory(), root.toAbsolutePath().resolve("db/userRoot"));
        assertEquals(b.equalityIndexes(), Set.of("objectclass", "uid", "mail", "cn", "sn", "givenname"));
        assertEquals(b.bindCacheEntries(), 10_000);
        assertEquals(c.sampleEntries().get("userRoot"), Integer.valueOf(10_000));
        assertEquals(c.accessLog(), root.toAbsolutePath().resolve("logs/access"));
        assertTrue(c.workQueue().workerThreads() >= 4);
        assertFalse(c.entries().isEmpty());
    }

    @Test
    public void badPortNamesEntryAndAttribute() {
        ConfigException e = expectThrows(ConfigException.class,
                () -> loadEdited("ds-cfg-listen-port: 1389", "ds-cfg-listen-port: 99999"));
        assertTrue(e.getMessage().contains("cn=LDAP Connection Handler,cn=Connection Handlers,cn=config"), e.getMessage());
        assertTrue(e.getMessage().contains("ds-cfg-listen-port"), e.getMessage());
        assertTrue(e.getMessage().contains("99999"), e.getMessage());
    }

    @Test
    public void bindCacheCanBeTurnedOffButNotMadeNegative() throws Exception {
        assertEquals(loadEdited("ds-cfg-bind-cache-entries: 10000", "ds-cfg-bind-cache-entries: 0")
                .backends().get(0).bindCacheEntries(), 0);
        ConfigException e = expectThrows(ConfigException.class,
                () -> loadEdited("ds-cfg-bind-cache-entries: 10000", "ds-cfg-bind-cache-entries: -1"));
        assertTrue(e.getMessage().contains("ds-cfg-backend-id=userRoot,cn=Backends,cn=config: ds-cfg-bind-cache-entries"),
                e.getMessage());
    }

    @Test
    public void notANumberNamesEntryAndAttribute() {
        ConfigException e = expectThrows(ConfigException.class,
                () -> loadEdited("ds-cfg-size-limit: 1000", "ds-cfg-size-limit: lots"));
        assertTrue(e.getMessage().startsWith("cn=config: ds-cfg-size-limit: 'lots'"), e.getMessage());
    }

    @Test
    public void badBooleanNamesEntryAndAttribute() {
        ConfigException e = expectThrows(ConfigException.class,
                () -> loadEdited("ds-cfg-allow-clear-text-passwords: false", "ds-cfg-allow-clear-text-passwords: maybe"));
        assertTrue(e.getMessage().contains("cn=Password Storage Schemes,cn=config: ds-cfg-allow-clear-text-passwords"),
                e.getMessage());
    }

    @Test
    public void badDnNamesEntryAndAttribute() {
        ConfigException e = expectThrows(ConfigException.class,
                () -> loadEdited("ds-cfg-base-dn: dc=example,dc=com", "ds-cfg-base-dn: not a dn"));
        assertTrue(e.getMessage().contains("ds-cfg-backend-id=userRoot,cn=Backends,cn=config: ds-cfg-base-dn"),
                e.getMessage());
    }

    @Test
    public void rootUserWithoutPasswordIsRefused() {
        ConfigException e = expectThrows(ConfigException.class,
                () -> loadEdited("userPassword: {SSHA512}", "description: {SSHA512}"));
        assertTrue(e.getMessage().contains("cn=Directory Manager,cn=Root DNs,cn=config: userPassword"), e.getMessage());
    }

    @Test
    public void missingEntryIsNamed() {
        ConfigException e = expectThrows(ConfigException.class,
                () -> loadEdited("dn: cn=Work Queue,cn=config", "dn: cn=Work Queues,cn=config"));
        assertTrue(e.getMessage().contains("no entry cn=Work Queue,cn=config"), e.getMessage());
    }

    @Test
    public void missingFileAndBrokenLdifAreClear() throws Exception {
        ConfigException missing = expectThrows(ConfigException.class,
                () -> ConfigLoader.load(Path.of("/nonexistent/config.ldif"), Path.of("/tmp")));
        assertTrue(missing.getMessage().contains("does not exist"), missing.getMessage());
        ConfigException broken = expectThrows(ConfigException.class,
                () -> loadEdited("dn: cn=Loggers,cn=config", "dn cn=Loggers,cn=config"));
        assertTrue(broken.getMessage().contains("not valid LDIF"), broken.getMessage());
    }

    @Test
    public void theAuthenticatedUsersPluginIsConfiguredAndCannotBeDisabled() throws Exception {
        ServerConfig c = ConfigLoader.load(SHIPPED, Files.createTempDirectory("instance"));
        assertEquals(c.plugins().get(0).className(), "io.bindfirst.server.auth.AuthenticatedUsersPlugin");
        String text = Files.readString(SHIPPED);
        int at = text.indexOf("dn: cn=Authenticated Users,cn=Plugins,cn=config");
        Path dir = Files.createTempDirectory("config-test");
        Files.writeString(dir.resolve("config.ldif"),
                text.substring(0, at) + text.substring(at).replaceFirst("ds-cfg-enabled: true", "ds-cfg-enabled: false"));
        ConfigException disabled = expectThrows(ConfigException.class,
                () -> ConfigLoader.load(dir.resolve("config.ldif"), dir));
        assertTrue(disabled.getMessage().contains("cn=Authenticated Users,cn=Plugins,cn=config: ds-cfg-enabled"),
                disabled.getMessage());
        ConfigException missing = expectThrows(ConfigException.class, () -> loadEdited(
                "ds-cfg-java-class: io.bindfirst.server.auth.AuthenticatedUsersPlugin",
                "ds-cfg-java-class: com.example.Other"));
        assertTrue(missing.getMessage().contains("must be configured"), missing.getMessage());
    }

    @Test
    public void disabledAccessLog() throws Exception {
        String text = Files.readString(SHIPPED);
        int at = text.indexOf("dn: cn=File-Based Access Logger");
        String edited = text.substring(0, at) + text.substring(at).replaceFirst("ds-cfg-enabled: true", "ds-cfg-enabled: false");
        Path dir = Files.createTempDirectory("config-test");
        Files.writeString(dir.resolve("config.ldif"), edited);
        assertNull(ConfigLoader.load(dir.resolve("config.ldif"), dir).accessLog());
    }
}
