package io.bindfirst.server.core;

import static io.bindfirst.server.testsupport.InMemoryServer.PEOPLE;
import static io.bindfirst.server.testsupport.InMemoryServer.ROOT_DN;
import static io.bindfirst.server.testsupport.InMemoryServer.ROOT_PASSWORD;
import static io.bindfirst.server.testsupport.InMemoryServer.simpleBind;
import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertNull;

import org.forgerock.opendj.ldap.Entry;
import org.forgerock.opendj.ldap.ModificationType;
import org.forgerock.opendj.ldap.ResultCode;
import org.forgerock.opendj.ldap.requests.ModifyRequest;
import org.forgerock.opendj.ldap.requests.Requests;
import org.testng.annotations.AfterClass;
import org.testng.annotations.BeforeClass;
import org.testng.annotations.Test;

import io.bindfirst.server.testsupport.InMemoryServer;
import io.bindfirst.server.testsupport.RecordingSink;
import io.bindfirst.server.testsupport.TestSession;

/** Modifies (RFC 4511 4.6) through ModifyOperation: each kind of change, all or nothing, and who may make it. */
public class ModifyOperationTest {
    private InMemoryServer server;
    private TestSession root;

    @BeforeClass
    public void start() throws Exception {
        server = InMemoryServer.start(5);
        root = server.boundAs(ROOT_DN, ROOT_PASSWORD);
    }

    @AfterClass(alwaysRun = true)
    public void stop() {
        server.close();
    }

    /** A new person of its own for each test: uid, cn, sn and the password {@code pw-<uid>}. */
    private String person(String uid) {
        String dn = "uid=" + uid + "," + PEOPLE;
        RecordingSink add = server.send(root, Requests.newAddRequest(dn)
                .addAttribute("objectClass", "top", "person", "organizationalPerson", "inetOrgPerson")
                .addAttribute("uid", uid).addAttribute("cn", "Test " + uid).addAttribute("sn", uid)
                .addAttribute("userPassword", "pw-" + uid));
        assertEquals(add.code(), ResultCode.SUCCESS, add.message());
        return dn;
    }

    private Entry stored(String dn) throws Exception {
        return server.backend().getEntry(server.dn(dn));
    }

    private ResultCode modify(TestSession s, String dn, ModificationType type, String attribute, Object... values) {
        return server.send(s, Requests.newModifyRequest(dn).addModification(type, attribute, values)).code();
    }

    @Test
    public void addReplaceAndDeleteChangeTheStoredValues() throws Exception {
        String dn = person("mod.1");
        ModifyRequest three = Requests.newModifyRequest(dn)
                .addModification(ModificationType.ADD, "mail", "Mod.One@Example.com")
                .addModification(ModificationType.REPLACE, "sn", "Renamed")
                .addModification(ModificationType.ADD, "description", "a", "b");
        assertEquals(server.send(root, three).code(), ResultCode.SUCCESS);
        Entry e = stored(dn);
        assertEquals(e.getAttribute("sn").firstValueAsString(), "Renamed");
        assertEquals(e.getAttribute("sn").size(), 1);
        assertEquals(e.getAttribute("description").size(), 2);
        assertEquals(e.getAttribute("mail").firstValueAsString(), "Mod.One@Example.com");
        assertEquals(e.getAttribute("modifiersName").firstValueAsString(),
                "cn=Directory Manager,cn=Root DNs,cn=config");
        assertEquals(modify(root, dn, ModificationType.DELETE, "mail", "MOD.ONE@EXAMPLE.COM"), ResultCode.SUCCESS,
                "a value is named by its matching rule");
        assertNull(stored(dn).getAttribute("mail"));
    }

    /** A request whose last change fails leaves the entry as it was: its first changes are not applied either. */
    @Test
    public void aRequestWithAFailingChangeChangesNothing() throws Exception {
        String dn = person("mod.2");
        assertEquals(modify(root, dn, ModificationType.ADD, "description", "x"), ResultCode.SUCCESS);
        assertEquals(modify(root, dn, ModificationType.ADD, "description", "X"), ResultCode.ATTRIBUTE_OR_VALUE_EXISTS);
        ModifyRequest half = Requests.newModifyRequest(dn)
                .addModification(ModificationType.REPLACE, "sn", "Changed")
                .addModification(ModificationType.DELETE, "telephoneNumber");
        assertEquals(server.send(root, half).code(), ResultCode.NO_SUCH_ATTRIBUTE);
        assertEquals(stored(dn).getAttribute("sn").firstValueAsString(), "mod.2");
    }

    @Test
    public void theRdnValueAndRequiredAttributesCannotBeRemoved() throws Exception {
        String dn = person("mod.3");
        assertEquals(modify(root, dn, ModificationType.DELETE, "uid"), ResultCode.NOT_ALLOWED_ON_RDN);
        assertEquals(modify(root, dn, ModificationType.DELETE, "sn"), ResultCode.OBJECTCLASS_VIOLATION);
        assertEquals(stored(dn).getAttribute("sn").firstValueAsString(), "mod.3");
    }

    @Test
    public void aMissingEntryIsNoSuchObjectNamingTheDeepestExistingSuperior() {
        RecordingSink r = server.send(root, Requests.newModifyRequest("uid=nobody," + PEOPLE)
                .addModification(ModificationType.REPLACE, "sn", "x"));
        assertEquals(r.code(), ResultCode.NO_SUCH_OBJECT);
        assertEquals(r.result().getMatchedDN(), PEOPLE);
    }

    /** The shipped access rules: users change their own password, and nothing else of their entry. */
    @Test
    public void aUserChangesTheirOwnPasswordOnly() throws Exception {
        String dn = person("mod.4");
        TestSession self = server.boundAs(dn, "pw-mod.4");
        assertEquals(modify(self, dn, ModificationType.REPLACE, "sn", "x"), ResultCode.INSUFFICIENT_ACCESS_RIGHTS);
        assertEquals(modify(server.newSession(), dn, ModificationType.REPLACE, "userPassword", "pw-anon"),
                ResultCode.INSUFFICIENT_ACCESS_RIGHTS);
        assertEquals(modify(self, dn, ModificationType.REPLACE, "userPassword", "pw-mod.4b"), ResultCode.SUCCESS);
        assertEquals(server.send(server.newSession(), simpleBind(dn, "pw-mod.4")).code(),
                ResultCode.INVALID_CREDENTIALS);
        assertEquals(server.send(server.newSession(), simpleBind(dn, "pw-mod.4b")).code(), ResultCode.SUCCESS);
        assertEquals(stored(dn).getAttribute("sn").firstValueAsString(), "mod.4");
    }
}
