package io.bindfirst.it.write;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.fail;

import org.testng.annotations.AfterClass;
import org.testng.annotations.BeforeClass;
import org.testng.annotations.Test;

import com.unboundid.ldap.sdk.Attribute;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.Modification;
import com.unboundid.ldap.sdk.ModificationType;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.extensions.PasswordModifyExtendedRequest;
import com.unboundid.ldap.sdk.extensions.PasswordModifyExtendedResult;

import io.bindfirst.it.support.TestServer;
import io.bindfirst.server.auth.WriteEpoch;

/**
 * Every write that commits advances the {@link WriteEpoch} once, before its response, and a write that is
 * refused or fails does not: the rule a bind racing a write relies on (docs/ARCHITECTURE.md, the registry).
 * Each write type is checked on the real server, so a write that bypassed the writes' template would show
 * here as well as in the race hunt.
 */
public class WriteEpochTest {
    private TestServer server;
    private LDAPConnection root;
    private LDAPConnection user;

    @BeforeClass
    public void start() throws Exception {
        server = TestServer.start(5);
        root = server.bindAs(TestServer.ROOT_DN, TestServer.ROOT_PASSWORD);
        user = server.bindAs(TestServer.user(1), TestServer.USER_PASSWORD);
    }

    @AfterClass(alwaysRun = true)
    public void stop() {
        user.close();
        root.close();
        server.close();
    }

    private long epoch() {
        return server.server().context().writeEpoch().current();
    }

    private static String dn(String uid) {
        return "uid=" + uid + "," + TestServer.PEOPLE;
    }

    private void add(String uid) throws LDAPException {
        root.add(dn(uid), new Attribute("objectClass", "top", "person", "organizationalPerson", "inetOrgPerson"),
                new Attribute("uid", uid), new Attribute("cn", uid), new Attribute("sn", uid),
                new Attribute("userPassword", "secret-" + uid));
    }

    /** Runs a write that must succeed; its response has arrived, so the epoch must have moved by one. */
    private void advancesByOne(String what, ThrowingRunnable write) throws Exception {
        long before = epoch();
        write.run();
        assertEquals(epoch() - before, 1, what + ": the epoch after a committed write");
    }

    /** Runs a write that must fail with {@code expected}; the epoch must not move. */
    private void staysPut(String what, ResultCode expected, ThrowingRunnable write) throws Exception {
        long before = epoch();
        try {
            write.run();
            fail(what + " succeeded; expected " + expected);
        } catch (LDAPException e) {
            assertEquals(e.getResultCode(), expected, what);
        }
        assertEquals(epoch(), before, what + ": the epoch after a write that did not commit");
    }

    @Test
    public void everyCommittedWriteAdvancesTheEpochOnce() throws Exception {
        advancesByOne("add", () -> add("epoch.a"));
        advancesByOne("modify", () -> root.modify(dn("epoch.a"),
                new Modification(ModificationType.REPLACE, "description", "changed")));
        advancesByOne("modify DN", () -> root.modifyDN(dn("epoch.a"), "uid=epoch.b", true));
        advancesByOne("password modify", () -> {
            PasswordModifyExtendedResult r = (PasswordModifyExtendedResult) root.processExtendedOperation(
                    new PasswordModifyExtendedRequest(dn("epoch.b"), null, "n3w-secret"));
            assertEquals(r.getResultCode(), ResultCode.SUCCESS);
        });
        advancesByOne("delete", () -> root.delete(dn("epoch.b")));
    }

    @Test
    public void refusedAndFailedWritesLeaveTheEpochAlone() throws Exception {
        staysPut("add by a user", ResultCode.INSUFFICIENT_ACCESS_RIGHTS, () -> user.add(dn("epoch.x"),
                new Attribute("objectClass", "top", "person"), new Attribute("cn", "x"), new Attribute("sn", "x")));
        staysPut("delete of a missing entry", ResultCode.NO_SUCH_OBJECT, () -> root.delete(dn("epoch.missing")));
        staysPut("modify of a missing entry", ResultCode.NO_SUCH_OBJECT, () -> root.modify(dn("epoch.missing"),
                new Modification(ModificationType.REPLACE, "description", "x")));
        staysPut("modify breaking the schema", ResultCode.OBJECT_CLASS_VIOLATION, () -> root.modify(
                TestServer.user(2), new Modification(ModificationType.DELETE, "sn")));
        staysPut("rename over an existing entry", ResultCode.ENTRY_ALREADY_EXISTS,
                () -> root.modifyDN(TestServer.user(2), "uid=user.3", true));
        staysPut("rename of the root DSE", ResultCode.UNWILLING_TO_PERFORM, () -> root.modifyDN("", "cn=x", true));
        staysPut("password modify with a wrong old password", ResultCode.INVALID_CREDENTIALS, () -> {
            PasswordModifyExtendedResult r = (PasswordModifyExtendedResult) user.processExtendedOperation(
                    new PasswordModifyExtendedRequest(null, "not-it", "other"));
            if (r.getResultCode() != ResultCode.SUCCESS) {
                throw new LDAPException(r);
            }
        });
    }

    @FunctionalInterface
    private interface ThrowingRunnable {
        void run() throws Exception;
    }
}
