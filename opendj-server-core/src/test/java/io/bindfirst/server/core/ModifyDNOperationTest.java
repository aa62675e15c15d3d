package io.bindfirst.server.core;

import static io.bindfirst.server.testsupport.InMemoryServer.PASSWORD;
import static io.bindfirst.server.testsupport.InMemoryServer.PEOPLE;
import static io.bindfirst.server.testsupport.InMemoryServer.ROOT_DN;
import static io.bindfirst.server.testsupport.InMemoryServer.ROOT_PASSWORD;
import static io.bindfirst.server.testsupport.InMemoryServer.SUFFIX;
import static io.bindfirst.server.testsupport.InMemoryServer.user;
import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertNull;

import java.util.Set;
import java.util.TreeSet;

import org.forgerock.opendj.ldap.Entry;
import org.forgerock.opendj.ldap.ResultCode;
import org.forgerock.opendj.ldap.requests.Requests;
import org.testng.annotations.AfterClass;
import org.testng.annotations.BeforeClass;
import org.testng.annotations.Test;

import io.bindfirst.server.testsupport.InMemoryServer;
import io.bindfirst.server.testsupport.TestSession;

/** Modify DN (RFC 4511 4.9) through ModifyDNOperation: rename, move with the subtree, and the refusals. */
public class ModifyDNOperationTest {
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

    private void add(String dn, String objectClass) {
        assertEquals(server.send(root, Requests.newAddRequest(dn).addAttribute("objectClass", "top", objectClass))
                .code(), ResultCode.SUCCESS, dn);
    }

    private Entry stored(String dn) throws Exception {
        return server.backend().getEntry(server.dn(dn));
    }

    private static Set<String> values(Entry e, String attribute) {
        Set<String> out = new TreeSet<>();
        e.getAttribute(attribute).forEach(v -> out.add(v.toString()));
        return out;
    }

    /** The RDN's value follows the new RDN; the old one goes only when deleteOldRDN says so. */
    @Test
    public void aRenameReplacesOrKeepsTheOldRdnValue() throws Exception {
        add("uid=mv.1," + PEOPLE, "account");
        assertEquals(server.send(root, Requests.newModifyDNRequest("uid=mv.1," + PEOPLE, "uid=mv.2")
                .setDeleteOldRDN(true)).code(), ResultCode.SUCCESS);
        assertNull(stored("uid=mv.1," + PEOPLE));
        assertEquals(values(stored("uid=mv.2," + PEOPLE), "uid"), Set.of("mv.2"));
        assertEquals(server.send(root, Requests.newModifyDNRequest("uid=mv.2," + PEOPLE, "uid=mv.3")
                .setDeleteOldRDN(false)).code(), ResultCode.SUCCESS);
        assertEquals(values(stored("uid=mv.3," + PEOPLE), "uid"), Set.of("mv.2", "mv.3"));
    }

    @Test
    public void aMoveUnderANewSuperiorCarriesTheSubtree() throws Exception {
        add("ou=Old," + SUFFIX, "organizationalUnit");
        add("ou=New," + SUFFIX, "organizationalUnit");
        add("uid=k,ou=Old," + SUFFIX, "account");
        assertEquals(server.send(root, Requests.newModifyDNRequest("ou=Old," + SUFFIX, "ou=Moved")
                .setDeleteOldRDN(true).setNewSuperior("ou=New," + SUFFIX)).code(), ResultCode.SUCCESS);
        assertEquals(stored("uid=k,ou=Moved,ou=New," + SUFFIX).getName().toString(),
                "uid=k,ou=Moved,ou=New," + SUFFIX);
        assertNull(stored("uid=k,ou=Old," + SUFFIX));
        assertNull(stored("ou=Old," + SUFFIX));
    }

    @Test
    public void aTakenNameAMissingSuperiorTheNamingContextAndOthersThanRootAreRefused() throws Exception {
        add("uid=mv.9," + PEOPLE, "account");
        String dn = "uid=mv.9," + PEOPLE;
        assertEquals(server.send(root, Requests.newModifyDNRequest(dn, "uid=user.1").setDeleteOldRDN(true)).code(),
                ResultCode.ENTRY_ALREADY_EXISTS);
        assertEquals(server.send(root, Requests.newModifyDNRequest(dn, "uid=z").setDeleteOldRDN(true)
                .setNewSuperior("ou=Missing," + SUFFIX)).code(), ResultCode.NO_SUCH_OBJECT);
        assertEquals(server.send(root, Requests.newModifyDNRequest(SUFFIX, "dc=other").setDeleteOldRDN(true)).code(),
                ResultCode.UNWILLING_TO_PERFORM);
        TestSession user = server.boundAs(user(1), PASSWORD);
        assertEquals(server.send(user, Requests.newModifyDNRequest(user(1), "uid=user.1x").setDeleteOldRDN(true))
                .code(), ResultCode.INSUFFICIENT_ACCESS_RIGHTS);
        assertEquals(stored(dn).getName().toString(), dn, "nothing moved");
        assertEquals(stored(user(1)).getName().toString(), user(1));
    }
}
