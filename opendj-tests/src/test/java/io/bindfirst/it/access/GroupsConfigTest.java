package io.bindfirst.it.access;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertNull;
import static org.testng.Assert.assertTrue;
import static org.testng.Assert.expectThrows;

import java.nio.file.Path;
import java.util.Set;

import org.testng.annotations.Test;

import com.unboundid.ldap.sdk.Attribute;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.SearchResult;
import com.unboundid.ldap.sdk.SearchResultEntry;
import com.unboundid.ldap.sdk.SearchScope;

import io.bindfirst.it.support.TestServer;
import io.bindfirst.server.ServerStartException;
import io.bindfirst.server.config.ConfigException;
import io.bindfirst.server.testsupport.ConfigText;

/**
 * The group settings of config.ldif: memberOf as an alias of isMemberOf, referential integrity turned off, and
 * the values refused at start. Each test edits its own instance's config.ldif and restarts it.
 */
public class GroupsConfigTest {
    private static final String VIRTUAL = "cn=isMemberOf,cn=Virtual Attributes,cn=config";
    private static final String INTEGRITY = "cn=Referential Integrity,cn=Plugins,cn=config";
    private static final String GROUP = "cn=Config Group,dc=example,dc=com";

    private static void edit(TestServer server, String dn, String attribute, String value) throws Exception {
        Path ldif = server.instance().resolve("config/config.ldif");
        ConfigText.read(ldif).set(dn, attribute, value).write(ldif);
    }

    private static void addGroup(LDAPConnection c, String... members) throws Exception {
        c.add(new com.unboundid.ldap.sdk.Entry(GROUP, new Attribute("objectClass", "top", "groupOfNames"),
                new Attribute("cn", "Config Group"), new Attribute("member", members)));
    }

    @Test
    public void memberOfIsAnAliasWhenConfigured() throws Exception {
        try (TestServer server = TestServer.start(5)) {
            edit(server, VIRTUAL, "ds-cfg-member-of-alias", "true");
            server.restart();
            try (LDAPConnection c = server.bindAs(TestServer.ROOT_DN, TestServer.ROOT_PASSWORD)) {
                String user = "uid=alias.user," + TestServer.PEOPLE; // in no sample group
                c.add("dn: " + user, "objectClass: top", "objectClass: person", "objectClass: organizationalPerson",
                        "objectClass: inetOrgPerson", "uid: alias.user", "cn: alias", "sn: alias");
                addGroup(c, user, TestServer.user(2));
                SearchResultEntry byName = c.getEntry(user, "memberOf");
                assertEquals(byName.getAttributeValues("memberOf"), new String[] {GROUP});
                assertNull(byName.getAttribute("isMemberOf"), "only what was asked for");
                SearchResultEntry all = c.getEntry(user, "+");
                assertEquals(all.getAttributeValues("memberOf"), new String[] {GROUP});
                assertEquals(all.getAttributeValues("isMemberOf"), new String[] {GROUP});
                SearchResult r = c.search("dc=example,dc=com", SearchScope.SUB, "(memberOf=" + GROUP + ")", "1.1");
                assertEquals(r.getEntryCount(), 2);
            }
        }
    }

    @Test
    public void referentialIntegrityCanBeTurnedOff() throws Exception {
        try (TestServer server = TestServer.start(5)) {
            edit(server, INTEGRITY, "ds-cfg-enabled", "false");
            server.restart();
            try (LDAPConnection c = server.bindAs(TestServer.ROOT_DN, TestServer.ROOT_PASSWORD)) {
                addGroup(c, TestServer.user(1), TestServer.user(2));
                c.delete(TestServer.user(2));
                assertEquals(Set.of(c.getEntry(GROUP).getAttributeValues("member")),
                        Set.of(TestServer.user(1), TestServer.user(2)), "the value stays");
                assertNull(c.getEntry(TestServer.user(3), "memberOf").getAttribute("memberOf"),
                        "and memberOf is off by default");
            }
        }
    }

    @Test
    public void unsupportedValuesStopTheStartNamingTheSetting() throws Exception {
        try (TestServer server = TestServer.start(0)) {
            Path ldif = server.instance().resolve("config/config.ldif");
            String shipped = ConfigText.read(ldif).toString();
            ConfigText.of(shipped).replace("ds-cfg-attribute-type: uniqueMember\n", "ds-cfg-attribute-type: seeAlso\n")
                    .write(ldif);
            ServerStartException e = expectThrows(ServerStartException.class, server::restart);
            assertTrue(e.getMessage().contains(INTEGRITY + ": ds-cfg-attribute-type: 'seeAlso'"), e.getMessage());

            ConfigText.of(shipped).set(VIRTUAL, "ds-cfg-member-of-alias", "maybe").write(ldif);
            // Read by the loader with the rest of the configuration, so refused there, before any start.
            ConfigException c = expectThrows(ConfigException.class, server::restart);
            assertTrue(c.getMessage().contains(VIRTUAL + ": ds-cfg-member-of-alias: 'maybe'"), c.getMessage());
        }
    }
}
