package io.bindfirst.it.write;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertTrue;

import java.util.List;
import java.util.Set;

import org.testng.annotations.AfterClass;
import org.testng.annotations.BeforeClass;
import org.testng.annotations.Test;

import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.Modification;
import com.unboundid.ldap.sdk.ModificationType;
import com.unboundid.ldap.sdk.ModifyRequest;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.controls.PermissiveModifyRequestControl;

import io.bindfirst.it.support.LdapTools;
import io.bindfirst.it.support.TestServer;

/**
 * The Permissive Modify control (1.2.840.113556.1.4.1413), which Active Directory clients and sync tools send: a
 * value added twice or deleted when absent is not an error; without the control it still is.
 */
public class PermissiveModifyTest {
    private static final String DN = "cn=permissive,dc=example,dc=com";
    private TestServer server;
    private LDAPConnection root;

    @BeforeClass
    public void start() throws Exception {
        server = TestServer.start(1);
        root = server.bindAs(TestServer.ROOT_DN, TestServer.ROOT_PASSWORD);
        root.add("dn: " + DN, "objectClass: person", "cn: permissive", "sn: p", "description: one");
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

    private ModifyRequest addOneDeleteAbsent() {
        return new ModifyRequest(DN, new Modification(ModificationType.ADD, "description", "one", "two"),
                new Modification(ModificationType.DELETE, "description", "absent"),
                new Modification(ModificationType.DELETE, "telephoneNumber"));
    }

    @Test
    public void withoutTheControlTheUsualErrors() throws Exception {
        try {
            root.modify(addOneDeleteAbsent());
            throw new AssertionError("adding a present value succeeded");
        } catch (LDAPException e) {
            assertEquals(e.getResultCode(), ResultCode.ATTRIBUTE_OR_VALUE_EXISTS);
        }
        assertEquals(Set.of(root.getEntry(DN).getAttributeValues("description")), Set.of("one"));
    }

    @Test(dependsOnMethods = "withoutTheControlTheUsualErrors")
    public void withTheControlPresentAndAbsentValuesAreFine() throws Exception {
        ModifyRequest mod = addOneDeleteAbsent();
        mod.addControl(new PermissiveModifyRequestControl(true));
        assertEquals(root.modify(mod).getResultCode(), ResultCode.SUCCESS);
        assertEquals(Set.of(root.getEntry(DN).getAttributeValues("description")), Set.of("one", "two"));
    }

    @Test
    public void ldapmodifySendsItByOid() throws Exception {
        LdapTools.require("ldapmodify");
        LdapTools.Run r = LdapTools.runWithInput("dn: " + DN + "\nchangetype: modify\nadd: sn\nsn: p\n-\n"
                + "delete: description\ndescription: never-there\n",
                "ldapmodify", "-x", "-H", "ldap://127.0.0.1:" + server.port(), "-D", TestServer.ROOT_DN,
                "-w", TestServer.ROOT_PASSWORD, "-e", "!1.2.840.113556.1.4.1413");
        assertEquals(r.exit(), 0, r.output());
    }

    @Test
    public void rootDseListsIt() throws Exception {
        assertTrue(List.of(root.getRootDSE().getSupportedControlOIDs())
                .contains(PermissiveModifyRequestControl.PERMISSIVE_MODIFY_REQUEST_OID));
    }
}
