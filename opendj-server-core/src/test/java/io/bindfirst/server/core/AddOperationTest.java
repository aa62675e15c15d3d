package io.bindfirst.server.core;

import static io.bindfirst.server.testsupport.InMemoryServer.PASSWORD;
import static io.bindfirst.server.testsupport.InMemoryServer.PEOPLE;
import static io.bindfirst.server.testsupport.InMemoryServer.ROOT_DN;
import static io.bindfirst.server.testsupport.InMemoryServer.ROOT_PASSWORD;
import static io.bindfirst.server.testsupport.InMemoryServer.SUFFIX;
import static io.bindfirst.server.testsupport.InMemoryServer.simpleBind;
import static io.bindfirst.server.testsupport.InMemoryServer.user;
import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertNotNull;
import static org.testng.Assert.assertNull;
import static org.testng.Assert.assertTrue;

import org.forgerock.opendj.ldap.Entry;
import org.forgerock.opendj.ldap.ResultCode;
import org.forgerock.opendj.ldap.requests.AddRequest;
import org.forgerock.opendj.ldap.requests.Requests;
import org.testng.annotations.AfterClass;
import org.testng.annotations.BeforeClass;
import org.testng.annotations.Test;

import io.bindfirst.server.testsupport.InMemoryServer;
import io.bindfirst.server.testsupport.RecordingSink;
import io.bindfirst.server.testsupport.TestSession;

/** Adds (RFC 4511 4.7) through AddOperation: what is stored, and the refusals with their result codes. */
public class AddOperationTest {
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

    private static String dn(String uid) {
        return "uid=" + uid + "," + PEOPLE;
    }

    private static AddRequest person(String uid, String... more) {
        AddRequest add = Requests.newAddRequest(dn(uid))
                .addAttribute("objectClass", "top", "person", "organizationalPerson", "inetOrgPerson")
                .addAttribute("uid", uid).addAttribute("cn", "Test " + uid).addAttribute("sn", uid);
        for (int i = 0; i < more.length; i += 2) {
            add.addAttribute(more[i], more[i + 1]);
        }
        return add;
    }

    private Entry stored(String dn) throws Exception {
        return server.backend().getEntry(server.dn(dn));
    }

    @Test
    public void anAddedEntryIsStoredWithTheServersAttributesAndAHashedPassword() throws Exception {
        assertEquals(server.send(root, person("add.1", "userPassword", "s3cret-1")).code(), ResultCode.SUCCESS);
        Entry e = stored(dn("add.1"));
        assertTrue(e.getAttribute("userPassword").firstValueAsString().startsWith("{SSHA512}"),
                "stored with the default scheme, not in clear");
        assertEquals(e.getAttribute("creatorsName").firstValueAsString(), "cn=Directory Manager,cn=Root DNs,cn=config");
        assertNotNull(e.getAttribute("entryUUID"));
        assertNotNull(e.getAttribute("createTimestamp"));
        assertEquals(server.send(server.newSession(), simpleBind(dn("add.1"), "s3cret-1")).code(), ResultCode.SUCCESS);
    }

    @Test
    public void anEntryThatExistsIsEntryAlreadyExists() {
        RecordingSink r = server.send(root, Requests.newAddRequest(user(1))
                .addAttribute("objectClass", "top", "account").addAttribute("uid", "user.1"));
        assertEquals(r.code(), ResultCode.ENTRY_ALREADY_EXISTS);
        assertEquals(server.send(root, person("add.twice")).code(), ResultCode.SUCCESS);
        assertEquals(server.send(root, person("add.twice")).code(), ResultCode.ENTRY_ALREADY_EXISTS);
    }

    @Test
    public void anEntryWithoutItsParentIsNoSuchObjectNamingTheDeepestExistingSuperior() {
        RecordingSink orphan = server.send(root, Requests.newAddRequest("uid=x,ou=Nowhere," + SUFFIX)
                .addAttribute("objectClass", "top", "account").addAttribute("uid", "x"));
        assertEquals(orphan.code(), ResultCode.NO_SUCH_OBJECT);
        assertEquals(orphan.result().getMatchedDN(), SUFFIX);
        assertEquals(server.send(root, Requests.newAddRequest("o=elsewhere")
                .addAttribute("objectClass", "top", "organization").addAttribute("o", "elsewhere")).code(),
                ResultCode.NO_SUCH_OBJECT, "outside every naming context");
    }

    @Test
    public void anEntryTheSchemaRefusesIsNotStored() throws Exception {
        AddRequest noSn = Requests.newAddRequest(dn("add.nosn"))
                .addAttribute("objectClass", "top", "person", "organizationalPerson", "inetOrgPerson")
                .addAttribute("uid", "add.nosn").addAttribute("cn", "x");
        assertEquals(server.send(root, noSn).code(), ResultCode.OBJECTCLASS_VIOLATION, "inetOrgPerson needs sn");
        assertNull(stored(dn("add.nosn")));
        assertEquals(server.send(root, Requests.newAddRequest(dn("add.badoc"))
                .addAttribute("objectClass", "top", "noSuchClass").addAttribute("uid", "add.badoc")).code(),
                ResultCode.OBJECTCLASS_VIOLATION);
        assertEquals(server.send(root, person("add.undef", "noSuchAttribute", "x")).code(),
                ResultCode.UNDEFINED_ATTRIBUTE_TYPE);
        assertNull(stored(dn("add.undef")));
    }

    @Test
    public void onlyRootAdds() throws Exception {
        TestSession user = server.boundAs(user(2), PASSWORD);
        for (TestSession s : new TestSession[] {server.newSession(), user}) {
            assertEquals(server.send(s, person("add.denied")).code(), ResultCode.INSUFFICIENT_ACCESS_RIGHTS);
        }
        assertNull(stored(dn("add.denied")));
    }
}
