package io.bindfirst.it.ops;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertNotNull;
import static org.testng.Assert.assertNull;
import static org.testng.Assert.assertTrue;

import java.util.ArrayList;
import java.util.List;

import org.testng.annotations.Test;

import com.sleepycat.je.log.FileManager;
import com.unboundid.ldap.sdk.Attribute;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPResult;
import com.unboundid.ldap.sdk.Modification;
import com.unboundid.ldap.sdk.ModificationType;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.SearchScope;

import io.bindfirst.it.support.LdapOutcome;
import io.bindfirst.it.support.TestServer;

/**
 * A write to the database's log fails: the disk answers an I/O error. JE then invalidates its environment (nothing
 * more is written or read through it, and only a new one, a restart, recovers what was committed). The failure is
 * made with JE's own fault hook, {@link FileManager}'s write counter, which throws an {@code IOException} for every
 * log write from a chosen one on: a real failed write inside JE, at a moment the test picks, which a full disk
 * ({@link DiskFullTest}) reaches only by chance.
 *
 * <p>The client whose write met the failure and every client after it must get {@code unavailable} with a message
 * that says a restart is needed: never {@code other}, a stack trace, a hang or a dropped connection. The server
 * itself goes on answering (the root DSE). After a restart every acknowledged write is there and no refused one is.
 *
 * <p>The hook is a static of JE's, so it reaches every environment in this JVM: it is armed only between the
 * acknowledged writes and the refused ones, and disarmed before the restart whatever happens.
 */
public class LogWriteFailureTest {
    private static final int ACKNOWLEDGED = 20;
    private static final int REFUSED = 10;

    @Test(timeOut = 120_000)
    public void aFailedLogWriteRefusesEveryOperationClearlyAndARestartLosesNothingAcknowledged() throws Exception {
        try (TestServer server = TestServer.start(100)) {
            List<String> acknowledged = new ArrayList<>();
            try (LDAPConnection root = server.bindAs(TestServer.ROOT_DN, TestServer.ROOT_PASSWORD);
                    LDAPConnection user = server.connect()) {
                for (int i = 0; i < ACKNOWLEDGED; i++) {
                    String dn = "uid=before." + i + "," + TestServer.PEOPLE;
                    assertEquals(root.add(person(dn)).getResultCode(), ResultCode.SUCCESS);
                    acknowledged.add(dn);
                }
                assertEquals(user.bind(TestServer.user(1), "password").getResultCode(), ResultCode.SUCCESS);

                List<String> refused = new ArrayList<>();
                List<LDAPResult> refusals = new ArrayList<>();
                armLogWriteFailure();
                try {
                    for (int i = 0; i < REFUSED; i++) {
                        String dn = "uid=after." + i + "," + TestServer.PEOPLE;
                        refusals.add(LdapOutcome.of(() -> root.add(person(dn))));
                        refused.add(dn);
                    }
                    refusals.add(LdapOutcome.of(() -> root.modify(TestServer.user(2),
                            new Modification(ModificationType.REPLACE, "description", "after the failure"))));
                    refusals.add(LdapOutcome.of(() -> root.delete(TestServer.user(3))));
                    refusals.add(LdapOutcome.of(() -> root.search(TestServer.PEOPLE, SearchScope.SUB,
                            "(uid=user.4)")));

                    for (LDAPResult r : refusals) {
                        assertEquals(r.getResultCode(), ResultCode.UNAVAILABLE, "after a failed log write: " + r);
                        assertNotNull(r.getDiagnosticMessage(), "no message: " + r);
                        assertTrue(r.getDiagnosticMessage().contains("restarted"), "the message does not say "
                                + "what to do: " + r.getDiagnosticMessage());
                        assertTrue(!r.getDiagnosticMessage().contains("Exception"), "a stack trace or an "
                                + "exception's name in the message: " + r.getDiagnosticMessage());
                    }
                    // A bind either comes from the bind cache (the database cannot have changed since) or is
                    // refused like any read; either way it is answered and the connection stays usable.
                    ResultCode bind = LdapOutcome.of(() -> user.bind(TestServer.user(1), "password")).getResultCode();
                    assertTrue(bind == ResultCode.SUCCESS || bind == ResultCode.UNAVAILABLE, "bind: " + bind);
                    assertNotNull(user.getRootDSE(), "the server stopped answering after its database failed");
                    assertTrue(root.isConnected() && user.isConnected(), "a connection was dropped");
                } finally {
                    disarmLogWriteFailure();
                }

                server.restart();
                try (LDAPConnection after = server.bindAs(TestServer.ROOT_DN, TestServer.ROOT_PASSWORD)) {
                    for (String dn : acknowledged) {
                        assertNotNull(after.getEntry(dn), "acknowledged, lost: " + dn);
                    }
                    for (String dn : refused) {
                        assertNull(after.getEntry(dn), "refused, stored: " + dn);
                    }
                    assertNotNull(after.getEntry(TestServer.user(3)), "a refused delete removed its entry");
                    assertEquals(after.add(person("uid=restarted," + TestServer.PEOPLE)).getResultCode(),
                            ResultCode.SUCCESS, "writes after the restart");
                }
                System.out.printf("LOG-WRITE-FAILURE acknowledged %d (all present after the restart), refused %d "
                        + "(none present), first refusal: %s%n", acknowledged.size(), refused.size(),
                        refusals.get(0).getDiagnosticMessage());
            }
        }
    }

    /** Every log write from the next one on throws, as a disk answering EIO would. */
    private static void armLogWriteFailure() {
        FileManager.N_BAD_WRITES = 1_000_000; // not Long.MAX_VALUE: JE adds it to the start, which would overflow
        FileManager.THROW_ON_WRITE = true;
        FileManager.STOP_ON_WRITE_COUNT = FileManager.WRITE_COUNT + 1;
    }

    /** JE's defaults: never. */
    private static void disarmLogWriteFailure() {
        FileManager.STOP_ON_WRITE_COUNT = Long.MAX_VALUE;
        FileManager.N_BAD_WRITES = Long.MAX_VALUE;
        FileManager.THROW_ON_WRITE = false;
    }

    private static Entry person(String dn) {
        String uid = dn.substring(4, dn.indexOf(','));
        return new Entry(dn, new Attribute("objectClass", "top", "person",
                "organizationalPerson", "inetOrgPerson"), new Attribute("uid", uid),
                new Attribute("cn", uid), new Attribute("sn", uid));
    }
}
