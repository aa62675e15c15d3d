package io.bindfirst.server.access;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertFalse;
import static org.testng.Assert.assertNull;
import static org.testng.Assert.assertSame;
import static org.testng.Assert.assertThrows;
import static org.testng.Assert.assertTrue;

import java.util.List;

import org.forgerock.opendj.ldap.AttributeDescription;
import org.forgerock.opendj.ldap.DN;
import org.forgerock.opendj.ldap.LinkedAttribute;
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

    private static final AuthenticationInfo ANONYMOUS = AuthenticationInfo.ANONYMOUS;
    private static final AuthenticationInfo USER = new AuthenticationInfo(SELF, false, -1, -1);
    private static final AuthenticationInfo ROOT = AuthenticationInfo.rootUser(DN.valueOf("cn=Directory Manager"));

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
        for (AuthenticationInfo who : List.of(ANONYMOUS, USER, ROOT)) {
            allowed(POLICY.maySee(who, SELF));
            allowed(POLICY.maySee(who, OTHER));
            allowed(POLICY.maySee(who, DN.rootDN()));
            allowed(POLICY.maySee(who, DN.valueOf("cn=schema")));
        }
        for (AuthenticationInfo who : List.of(ANONYMOUS, USER)) {
            refused(POLICY.maySee(who, DN.valueOf("cn=config")), "Only root users may read the configuration");
            refused(POLICY.maySee(who, CONFIG_ENTRY), "Only root users may read the configuration");
        }
        allowed(POLICY.maySee(ROOT, DN.valueOf("cn=config")));
        allowed(POLICY.maySee(ROOT, CONFIG_ENTRY));
    }

    @Test
    public void monitorEntriesAreForRootOnly() {
        DN tls = DN.valueOf("cn=TLS,cn=monitor");
        for (AuthenticationInfo who : List.of(ANONYMOUS, USER)) {
            refused(POLICY.maySee(who, DN.valueOf("cn=monitor")), "Only root users may read the monitor entries");
            refused(POLICY.maySee(who, tls), "Only root users may read the monitor entries");
        }
        allowed(POLICY.maySee(ROOT, DN.valueOf("cn=monitor")));
        allowed(POLICY.maySee(ROOT, tls));
        // Only that subtree: an entry merely named like it is visible.
        allowed(POLICY.maySee(USER, DN.valueOf("cn=monitor,dc=example,dc=com")));
    }

    @Test
    public void passwordsAreReadableAndComparableByRootOnly() {
        for (AuthenticationInfo who : List.of(ANONYMOUS, USER)) {
            for (DN dn : List.of(SELF, OTHER)) {
                allowed(POLICY.mayRead(who, dn, MAIL));
                refused(POLICY.mayRead(who, dn, PASSWORD), "Only root users may read userPassword");
                allowed(POLICY.mayCompare(who, dn, AttributeDescription.create(MAIL)));
                refused(POLICY.mayCompare(who, dn, AttributeDescription.valueOf("2.5.4.35;x-opt", SCHEMA)),
                        "Only root users may compare userPassword");
            }
        }
        allowed(POLICY.mayRead(ROOT, OTHER, PASSWORD));
        allowed(POLICY.mayCompare(ROOT, OTHER, AttributeDescription.create(PASSWORD)));
    }

    @Test
    public void onlyRootAddsDeletesAndRenames() {
        for (AuthenticationInfo who : List.of(ANONYMOUS, USER)) {
            for (DN dn : List.of(SELF, OTHER)) {
                refused(POLICY.mayAdd(who, dn), "Only root users may add entries");
                refused(POLICY.mayDelete(who, dn), "Only root users may delete entries");
                refused(POLICY.mayRename(who, dn), "Only root users may rename entries");
            }
        }
        allowed(POLICY.mayAdd(ROOT, OTHER));
        allowed(POLICY.mayDelete(ROOT, OTHER));
        allowed(POLICY.mayRename(ROOT, OTHER));
    }

    @Test
    public void aUserModifiesOnlyTheirOwnPassword() {
        List<Modification> password = List.of(replace("userPassword"));
        List<Modification> mail = List.of(replace("mail"));
        allowed(POLICY.mayModify(USER, SELF, password));
        allowed(POLICY.mayModify(USER, SELF, List.of(replace("2.5.4.35"))));
        refused(POLICY.mayModify(USER, SELF, List.of(replace("userPassword"), replace("mail"))),
                "Users may change only their own userPassword, not mail");
        refused(POLICY.mayModify(USER, SELF, mail), "Users may change only their own userPassword, not mail");
        refused(POLICY.mayModify(USER, OTHER, password), "Only root users may modify other users' entries");
        refused(POLICY.mayModify(ANONYMOUS, SELF, password), "Only root users may modify other users' entries");
        allowed(POLICY.mayModify(ROOT, OTHER, mail));
        allowed(POLICY.mayModify(ROOT, OTHER, password));
    }

    @Test
    public void aUserChangesOnlyTheirOwnPasswordByPasswordModify() {
        allowed(POLICY.mayChangePassword(USER, SELF));
        refused(POLICY.mayChangePassword(USER, OTHER), "Only root users may change other users' passwords");
        refused(POLICY.mayChangePassword(ANONYMOUS, SELF), "Only root users may change other users' passwords");
        allowed(POLICY.mayChangePassword(ROOT, OTHER));
        allowed(POLICY.mayChangePassword(ROOT, SELF));
    }
}
