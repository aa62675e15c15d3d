package io.bindfirst.server.core;

import static io.bindfirst.server.testsupport.InMemoryServer.PASSWORD;
import static io.bindfirst.server.testsupport.InMemoryServer.PEOPLE;
import static io.bindfirst.server.testsupport.InMemoryServer.ROOT_DN;
import static io.bindfirst.server.testsupport.InMemoryServer.ROOT_PASSWORD;
import static io.bindfirst.server.testsupport.InMemoryServer.SUFFIX;
import static io.bindfirst.server.testsupport.InMemoryServer.user;
import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertFalse;
import static org.testng.Assert.assertTrue;

import org.forgerock.opendj.ldap.ResultCode;
import org.forgerock.opendj.ldap.controls.SubtreeDeleteRequestControl;
import org.forgerock.opendj.ldap.requests.Requests;
import org.testng.annotations.AfterClass;
import org.testng.annotations.BeforeClass;
import org.testng.annotations.Test;

import io.bindfirst.server.testsupport.InMemoryServer;
import io.bindfirst.server.testsupport.RecordingSink;
import io.bindfirst.server.testsupport.TestSession;

/** Deletes (RFC 4511 4.8) through DeleteOperation: a leaf, a non-leaf, a subtree with its control, and who may. */
public class DeleteOperationTest {
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

    private boolean exists(String dn) throws Exception {
        return server.backend().entryExists(server.dn(dn));
    }

    private ResultCode delete(TestSession s, String dn) {
        return server.send(s, Requests.newDeleteRequest(dn)).code();
    }

    @Test
    public void aLeafIsDeletedOnce() throws Exception {
        assertEquals(delete(root, user(4)), ResultCode.SUCCESS);
        assertFalse(exists(user(4)));
        RecordingSink again = server.send(root, Requests.newDeleteRequest(user(4)));
        assertEquals(again.code(), ResultCode.NO_SUCH_OBJECT);
        assertEquals(again.result().getMatchedDN(), PEOPLE);
    }

    @Test
    public void aNonLeafIsNotAllowedOnNonLeafUnlessTheSubtreeDeleteControlAsks() throws Exception {
        String branch = "ou=Branch," + SUFFIX;
        assertEquals(server.send(root, Requests.newAddRequest(branch)
                .addAttribute("objectClass", "top", "organizationalUnit")).code(), ResultCode.SUCCESS);
        for (int i = 0; i < 3; i++) {
            assertEquals(server.send(root, Requests.newAddRequest("uid=b" + i + "," + branch)
                    .addAttribute("objectClass", "top", "account")).code(), ResultCode.SUCCESS);
        }
        assertEquals(delete(root, branch), ResultCode.NOT_ALLOWED_ON_NONLEAF);
        assertTrue(exists(branch));
        assertTrue(exists("uid=b2," + branch));
        RecordingSink subtree = server.send(root, Requests.newDeleteRequest(branch)
                .addControl(SubtreeDeleteRequestControl.newControl(true)));
        assertEquals(subtree.code(), ResultCode.SUCCESS);
        assertFalse(exists(branch));
        assertFalse(exists("uid=b2," + branch));
    }

    @Test
    public void anonymousAndUsersMayNotDelete() throws Exception {
        TestSession user = server.boundAs(user(2), PASSWORD);
        for (TestSession s : new TestSession[] {server.newSession(), user}) {
            assertEquals(delete(s, user(1)), ResultCode.INSUFFICIENT_ACCESS_RIGHTS);
        }
        assertEquals(delete(user, user(2)), ResultCode.INSUFFICIENT_ACCESS_RIGHTS, "nor their own entry");
        assertTrue(exists(user(1)));
        assertTrue(exists(user(2)));
    }
}
