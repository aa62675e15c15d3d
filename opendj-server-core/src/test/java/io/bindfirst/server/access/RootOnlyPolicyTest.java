package io.bindfirst.server.access;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertFalse;
import static org.testng.Assert.assertNull;
import static org.testng.Assert.assertSame;
import static org.testng.Assert.assertThrows;
import static org.testng.Assert.assertTrue;

import java.net.InetAddress;
import java.util.List;

import org.forgerock.opendj.ldap.AttributeDescription;
import org.forgerock.opendj.ldap.DN;
import org.forgerock.opendj.ldap.Entry;
import org.forgerock.opendj.ldap.LinkedAttribute;
import org.forgerock.opendj.ldap.LinkedHashMapEntry;
import org.forgerock.opendj.ldap.Modification;
import org.forgerock.opendj.ldap.ModificationType;
import org.forgerock.opendj.ldap.schema.AttributeType;
import org.forgerock.opendj.ldap.schema.Schema;
import org.testng.annotations.Test;

import io.bindfirst.server.auth.AuthenticationInfo;
import io.bindfirst.server.pwd.PasswordAttribute;
import io.bindfirst.server.pwd.PasswordSchemes;

public class RootOnlyPolicyTest {
    private static final Schema SCHEMA = Schema.getCoreSchema();
    private static final AccessPolicy POLICY = new RootOnlyPolicy(
            new PasswordAttribute(SCHEMA, new PasswordSchemes("SSHA", false)), DN.valueOf("cn=config"),
            DN.valueOf("cn=monitor"));

    private static final DN SELF = DN.valueOf("uid=self,ou=People,dc=example,dc=com");
    private static final DN OTHER = DN.valueOf("uid=other,ou=People,dc=example,dc=com");
    private static final DN CONFIG_ENTRY = DN.valueOf("cn=Directory Manager,cn=Root DNs,cn=config");

    private static final Requester ANONYMOUS = requester(AuthenticationInfo.ANONYMOUS);
    private static final Requester USER = requester(new AuthenticationInfo(SELF, false, -1, -1));
    private static final Requester ROOT = requester(AuthenticationInfo.rootUser(DN.valueOf("cn=Directory Manager")));

    private static Requester requester(AuthenticationInfo auth) {
        return new Requester(auth, InetAddress.getLoopbackAddress(), 0);
    }

    private static Entry entry(DN dn) {
        return new LinkedHashMapEntry(dn);
    }

    private static final AttributeType PASSWORD = SCHEMA.getAttributeType("userPassword");
    private static final AttributeType MAIL = SCHEMA.getAttributeType("mail");

    private static Modification replace(String attribute) {
        return new Modification(ModificationType.REPLACE,
                new LinkedAttribute(AttributeDescription.valueOf(attribute, SCHEMA), "x"));
    }

    private static void allowed(AccessDecision d) {
        assertSame(d, AccessDecision.ALLOW);
    }

    private static void refused(AccessDecision d, String message) {
        assertFalse(d.allowed());
        assertEquals(d.message(), message);
    }

    @Test
    public void allowIsTheOneAllowedDecisionAndARefusalSaysWhy() {
        assertTrue(AccessDecision.ALLOW.allowed());
        assertNull(AccessDecision.ALLOW.message());
        refused(AccessDecision.deny("because"), "because");
        assertThrows(IllegalArgumentException.class, () -> AccessDecision.deny(null));
        assertThrows(IllegalArgumentException.class, () -> new AccessDecision(true, "why"));
    }

    @Test
    public void entriesAreVisibleToAllButTheConfigurationToRootOnly() {
        for (Requester who : List.of(ANONYMOUS, USER, ROOT)) {
            allowed(POLICY.maySee(who, entry(SELF)));
            allowed(POLICY.maySearchUnder(who, SELF));
            allowed(POLICY.maySee(who, entry(OTHER)));
            allowed(POLICY.maySearchUnder(who, OTHER));
            allowed(POLICY.maySee(who, entry(DN.rootDN())));
            allowed(POLICY.maySearchUnder(who, DN.rootDN()));
            allowed(POLICY.maySee(who, entry(DN.valueOf("cn=schema"))));
            allowed(POLICY.maySearchUnder(who, DN.valueOf("cn=schema")));
        }
        for (Requester who : List.of(ANONYMOUS, USER)) {
            refused(POLICY.maySee(who, entry(DN.valueOf("cn=config"))), "Only root users may read the configuration");
            refused(POLICY.maySearchUnder(who, DN.valueOf("cn=config")), "Only root users may read the configuration");
            refused(POLICY.maySee(who, entry(CONFIG_ENTRY)), "Only root users may read the configuration");
            refused(POLICY.maySearchUnder(who, CONFIG_ENTRY), "Only root users may read the configuration");
        }
        allowed(POLICY.maySee(ROOT, entry(DN.valueOf("cn=config"))));
            allowed(POLICY.maySearchUnder(ROOT, DN.valueOf("cn=config")));
        allowed(POLICY.maySee(ROOT, entry(CONFIG_ENTRY)));
            allowed(POLICY.maySearchUnder(ROOT, CONFIG_ENTRY));
    }

    private static final String MONITOR = "Only root users may read the monitor entries";

    @Test
    public void monitorEntriesAreForRootOnly() {
        DN tls = DN.valueOf("cn=TLS,cn=monitor");
        for (Requester who : List.of(ANONYMOUS, USER)) {
            refused(POLICY.maySee(who, entry(DN.valueOf("cn=monitor"))), MONITOR);
            refused(POLICY.maySearchUnder(who, DN.valueOf("cn=monitor")), MONITOR);
            refused(POLICY.maySee(who, entry(tls)), "Only root users may read the monitor entries");
            refused(POLICY.maySearchUnder(who, tls), "Only root users may read the monitor entries");
        }
        allowed(POLICY.maySee(ROOT, entry(DN.valueOf("cn=monitor"))));
            allowed(POLICY.maySearchUnder(ROOT, DN.valueOf("cn=monitor")));
        allowed(POLICY.maySee(ROOT, entry(tls)));
            allowed(POLICY.maySearchUnder(ROOT, tls));
        // Only that subtree: an entry merely named like it is visible.
        allowed(POLICY.maySee(USER, entry(DN.valueOf("cn=monitor,dc=example,dc=com"))));
            allowed(POLICY.maySearchUnder(USER, DN.valueOf("cn=monitor,dc=example,dc=com")));
    }

    @Test
    public void passwordsAreReadableAndComparableByRootOnly() {
        for (Requester who : List.of(ANONYMOUS, USER)) {
            for (DN dn : List.of(SELF, OTHER)) {
                allowed(POLICY.mayRead(who, entry(dn), MAIL));
                refused(POLICY.mayRead(who, entry(dn), PASSWORD), "Only root users may read userPassword");
                allowed(POLICY.mayCompare(who, entry(dn), AttributeDescription.create(MAIL)));
                refused(POLICY.mayCompare(who, entry(dn), AttributeDescription.valueOf("2.5.4.35;x-opt", SCHEMA)),
                        "Only root users may compare userPassword");
            }
        }
        allowed(POLICY.mayRead(ROOT, entry(OTHER), PASSWORD));
        allowed(POLICY.mayCompare(ROOT, entry(OTHER), AttributeDescription.create(PASSWORD)));
    }

    @Test
    public void onlyRootAddsDeletesAndRenames() {
        for (Requester who : List.of(ANONYMOUS, USER)) {
            for (DN dn : List.of(SELF, OTHER)) {
                refused(POLICY.mayAdd(who, entry(dn)), "Only root users may add entries");
                refused(POLICY.mayDelete(who, entry(dn)), "Only root users may delete entries");
                refused(POLICY.mayRename(who, entry(dn), OTHER), "Only root users may rename entries");
            }
        }
        allowed(POLICY.mayAdd(ROOT, entry(OTHER)));
        allowed(POLICY.mayDelete(ROOT, entry(OTHER)));
        allowed(POLICY.mayRename(ROOT, entry(OTHER), OTHER));
    }

    @Test
    public void aUserModifiesOnlyTheirOwnPassword() {
        List<Modification> password = List.of(replace("userPassword"));
        List<Modification> mail = List.of(replace("mail"));
        allowed(POLICY.mayModify(USER, entry(SELF), password));
        allowed(POLICY.mayModify(USER, entry(SELF), List.of(replace("2.5.4.35"))));
        refused(POLICY.mayModify(USER, entry(SELF), List.of(replace("userPassword"), replace("mail"))),
                "Users may change only their own userPassword, not mail");
        refused(POLICY.mayModify(USER, entry(SELF), mail), "Users may change only their own userPassword, not mail");
        refused(POLICY.mayModify(USER, entry(OTHER), password), "Only root users may modify other users' entries");
        refused(POLICY.mayModify(ANONYMOUS, entry(SELF), password), "Only root users may modify other users' entries");
        allowed(POLICY.mayModify(ROOT, entry(OTHER), mail));
        allowed(POLICY.mayModify(ROOT, entry(OTHER), password));
    }

    @Test
    public void aUserChangesOnlyTheirOwnPasswordByPasswordModify() {
        allowed(POLICY.mayChangePassword(USER, entry(SELF)));
        refused(POLICY.mayChangePassword(USER, entry(OTHER)), "Only root users may change other users' passwords");
        refused(POLICY.mayChangePassword(ANONYMOUS, entry(SELF)), "Only root users may change other users' passwords");
        allowed(POLICY.mayChangePassword(ROOT, entry(OTHER)));
        allowed(POLICY.mayChangePassword(ROOT, entry(SELF)));
    }

    @Test
    public void onlyRootActsAsAnotherUser() {
        refused(POLICY.mayProxyAs(USER, entry(OTHER)), "Only root users may act as another user");
        refused(POLICY.mayProxyAs(ANONYMOUS, entry(OTHER)), "Only root users may act as another user");
        allowed(POLICY.mayProxyAs(ROOT, entry(OTHER)));
    }
}
