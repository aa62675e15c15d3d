package io.bindfirst.it.conformance;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertNotEquals;
import static org.testng.Assert.assertTrue;

import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

import org.testng.annotations.AfterClass;
import org.testng.annotations.BeforeClass;
import org.testng.annotations.Test;

import com.unboundid.ldap.sdk.Control;
import com.unboundid.ldap.sdk.DeleteRequest;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.LDAPResult;
import com.unboundid.ldap.sdk.Modification;
import com.unboundid.ldap.sdk.ModificationType;
import com.unboundid.ldap.sdk.ModifyRequest;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.RootDSE;
import com.unboundid.ldap.sdk.SearchRequest;
import com.unboundid.ldap.sdk.SearchScope;
import com.unboundid.ldap.sdk.SimpleBindRequest;
import com.unboundid.ldap.sdk.controls.AssertionRequestControl;
import com.unboundid.ldap.sdk.controls.AuthorizationIdentityRequestControl;
import com.unboundid.ldap.sdk.controls.ManageDsaITRequestControl;
import com.unboundid.ldap.sdk.controls.PermissiveModifyRequestControl;
import com.unboundid.ldap.sdk.controls.PostReadRequestControl;
import com.unboundid.ldap.sdk.controls.PreReadRequestControl;
import com.unboundid.ldap.sdk.controls.ProxiedAuthorizationV2RequestControl;
import com.unboundid.ldap.sdk.controls.ServerSideSortRequestControl;
import com.unboundid.ldap.sdk.controls.SimplePagedResultsControl;
import com.unboundid.ldap.sdk.controls.SortKey;
import com.unboundid.ldap.sdk.controls.SubtreeDeleteRequestControl;
import com.unboundid.ldap.sdk.controls.VirtualListViewRequestControl;
import com.unboundid.ldap.sdk.experimental.DraftBeheraLDAPPasswordPolicy10RequestControl;

import io.bindfirst.it.support.TestServer;

/**
 * The root DSE lists each control and extended operation the server implements, and no other: every listed
 * control is accepted, critical, on an operation it applies to; one not listed is refused when critical.
 */
public class RootDseControlsTest {
    private static final String LEAF = "cn=leaf,dc=example,dc=com";
    private TestServer server;
    private LDAPConnection root;

    @BeforeClass
    public void start() throws Exception {
        server = TestServer.start(3);
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
    public void theListedControlsAreExactlyTheImplementedOnes() throws Exception {
        Set<String> listed = new TreeSet<>(List.of(root.getRootDSE().getSupportedControlOIDs()));
        assertEquals(listed, new TreeSet<>(usedCritically().keySet()));
    }

    @Test
    public void theListedExtendedOperationsAreExactlyTheImplementedOnes() throws Exception {
        RootDSE dse = root.getRootDSE();
        Set<String> listed = new HashSet<>(List.of(dse.getSupportedExtendedOperationOIDs()));
        assertEquals(listed, Set.of("1.3.6.1.4.1.4203.1.11.3", "1.3.6.1.4.1.4203.1.11.1", "1.3.6.1.1.8",
                "1.3.6.1.4.1.1466.20037", "2.25.305628560300754793145753553485247618117.7.1"));
    }

    /** Each listed control, sent critical on an operation it applies to: by OID, that operation's result. */
    private Map<String, ResultCode> usedCritically() throws Exception {
        Map<String, ResultCode> out = new TreeMap<>();
        out.put(AuthorizationIdentityRequestControl.AUTHORIZATION_IDENTITY_REQUEST_OID,
                bind(new AuthorizationIdentityRequestControl(true)));
        out.put(DraftBeheraLDAPPasswordPolicy10RequestControl.PASSWORD_POLICY_REQUEST_OID,
                bind(new DraftBeheraLDAPPasswordPolicy10RequestControl(true)));
        out.put(ManageDsaITRequestControl.MANAGE_DSA_IT_REQUEST_OID, search(new ManageDsaITRequestControl(true)));
        out.put(SimplePagedResultsControl.PAGED_RESULTS_OID, search(new SimplePagedResultsControl(5, true)));
        out.put(ServerSideSortRequestControl.SERVER_SIDE_SORT_REQUEST_OID,
                search(new ServerSideSortRequestControl(true, new SortKey("uid"))));
        out.put(AssertionRequestControl.ASSERTION_REQUEST_OID,
                search(new AssertionRequestControl("(objectClass=*)", true)));
        out.put(PreReadRequestControl.PRE_READ_REQUEST_OID, modify(new PreReadRequestControl(true, "cn")));
        out.put(PostReadRequestControl.POST_READ_REQUEST_OID, modify(new PostReadRequestControl(true, "cn")));
        out.put(PermissiveModifyRequestControl.PERMISSIVE_MODIFY_REQUEST_OID,
                modify(new PermissiveModifyRequestControl(true)));
        out.put("1.3.6.1.4.1.4203.666.5.12", modify(new Control("1.3.6.1.4.1.4203.666.5.12", true))); // Relax Rules
        out.put(ProxiedAuthorizationV2RequestControl.PROXIED_AUTHORIZATION_V2_REQUEST_OID,
                search(new ProxiedAuthorizationV2RequestControl("dn:" + TestServer.user(1))));
        root.add("dn: " + LEAF, "objectClass: person", "cn: leaf", "sn: leaf");
        DeleteRequest delete = new DeleteRequest(LEAF);
        delete.addControl(new SubtreeDeleteRequestControl(true));
        out.put(SubtreeDeleteRequestControl.SUBTREE_DELETE_REQUEST_OID, root.delete(delete).getResultCode());
        for (Map.Entry<String, ResultCode> e : out.entrySet()) {
            assertEquals(e.getValue(), ResultCode.SUCCESS, e.getKey());
        }
        return out;
    }

    @Test
    public void aControlNotListedIsRefusedWhenCritical() throws Exception {
        ResultCode code = search(new VirtualListViewRequestControl(0, 0, 5, 1, null, true));
        assertEquals(code, ResultCode.UNAVAILABLE_CRITICAL_EXTENSION);
        assertTrue(!List.of(root.getRootDSE().getSupportedControlOIDs())
                .contains(VirtualListViewRequestControl.VIRTUAL_LIST_VIEW_REQUEST_OID));
        // Not critical: ignored.
        assertNotEquals(search(new VirtualListViewRequestControl(0, 0, 5, 1, null, false)),
                ResultCode.UNAVAILABLE_CRITICAL_EXTENSION);
    }

    private ResultCode bind(Control control) {
        try (LDAPConnection c = server.connect()) {
            return c.bind(new SimpleBindRequest(TestServer.user(1), TestServer.USER_PASSWORD, control))
                    .getResultCode();
        } catch (LDAPException e) {
            return e.getResultCode();
        }
    }

    private ResultCode search(Control control) {
        try {
            SearchRequest req = new SearchRequest(TestServer.PEOPLE, SearchScope.ONE, "(objectClass=person)", "1.1");
            req.addControl(control);
            return root.search(req).getResultCode();
        } catch (LDAPException e) {
            return e.getResultCode();
        }
    }

    private ResultCode modify(Control control) {
        ModifyRequest mod = new ModifyRequest(TestServer.user(2),
                new Modification(ModificationType.REPLACE, "description", "x"));
        mod.addControl(control);
        try {
            LDAPResult r = root.modify(mod);
            return r.getResultCode();
        } catch (LDAPException e) {
            return e.getResultCode();
        }
    }
}
