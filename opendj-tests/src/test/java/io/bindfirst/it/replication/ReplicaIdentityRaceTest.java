package io.bindfirst.it.replication;

import static org.testng.Assert.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import org.testng.annotations.AfterClass;
import org.testng.annotations.BeforeClass;
import org.testng.annotations.DataProvider;
import org.testng.annotations.Test;

import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.Modification;
import com.unboundid.ldap.sdk.ModificationType;
import com.unboundid.ldap.sdk.extensions.PasswordModifyExtendedRequest;
import com.unboundid.ldap.sdk.extensions.WhoAmIExtendedRequest;
import com.unboundid.ldap.sdk.extensions.WhoAmIExtendedResult;

import io.bindfirst.it.support.ReplicaGroup;
import io.bindfirst.it.support.TestServer;

/**
 * Binds on a replica race the master's changes to their account: threads re-bind with the old credentials on a
 * replica while the master deletes, renames, disables the account or changes its password. Once a bind has been
 * refused there (the replica applied the change), none may succeed again: no cache of the replica (bind entries,
 * verified credentials) may serve the old account after the change, not even one filled by a bind that read the
 * account just before it. A connection bound before the change is closed (delete, disable) or answers WhoAmI with
 * the new DN (rename).
 */
public class ReplicaIdentityRaceTest {
    private static final List<String> JVM = List.of("-Xmx192m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1");
    private static final int USERS = 200;
    private static final int ROUNDS = 3;
    private static final int BINDERS = 3;
    /** How long the binders go on after each of them has been refused: a resurrection would show in it. */
    private static final long AFTER_REFUSAL_MILLIS = 300;
    private static final long WAIT_MILLIS = 60_000;
    private static final int REPLICA = 2;

    private ReplicaGroup group;
    private final AtomicInteger nextUser = new AtomicInteger(10);

    @BeforeClass
    public void startGroup() throws Exception {
        group = ReplicaGroup.start("race", 3, USERS, JVM);
    }

    @AfterClass(alwaysRun = true)
    public void stopGroup() {
        if (group != null) {
            group.close();
        }
    }

    @DataProvider
    public Object[][] changes() {
        return new Object[][] {{"delete"}, {"rename"}, {"disable"}, {"password"}};
    }

    @Test(dataProvider = "changes", timeOut = 300_000)
    public void noBindOnAReplicaSucceedsWithTheOldAccountOnceItWasRefused(String change) throws Exception {
        for (int round = 0; round < ROUNDS; round++) {
            String uid = "user." + nextUser.getAndIncrement();
            String dn = "uid=" + uid + "," + TestServer.PEOPLE;
            ReplicaGroup.await(WAIT_MILLIS, () -> group.attribute(REPLICA, dn, "uid") != null);
            LDAPConnection bound = new LDAPConnection("127.0.0.1", group.node(REPLICA).port());
            bound.bind(dn, TestServer.USER_PASSWORD);

            AtomicBoolean running = new AtomicBoolean(true);
            AtomicInteger resurrected = new AtomicInteger();
            AtomicInteger refusedThreads = new AtomicInteger();
            List<Thread> binders = new ArrayList<>();
            for (int t = 0; t < BINDERS; t++) {
                Thread b = new Thread(() -> bindUntilStopped(dn, running, refusedThreads, resurrected),
                        "replica-binder-" + t);
                b.start();
                binders.add(b);
            }
            try (LDAPConnection master = group.root(0)) {
                Thread.sleep(50); // the binders are binding with the old account when the change comes
                apply(master, change, uid, dn);
            }
            ReplicaGroup.await(WAIT_MILLIS, () -> refusedThreads.get() == BINDERS);
            Thread.sleep(AFTER_REFUSAL_MILLIS);
            running.set(false);
            for (Thread b : binders) {
                b.join();
            }
            assertEquals(resurrected.get(), 0, change + " of " + dn + ": binds with the old account succeeded on the "
                    + "replica after one had been refused");
            switch (change) {
                case "delete", "disable" -> ReplicaGroup.await(WAIT_MILLIS, () -> !bound.isConnected()
                        || whoAmI(bound) == null || !whoAmI(bound).equals("dn:" + dn));
                case "rename" -> ReplicaGroup.await(WAIT_MILLIS, () -> ("dn:uid=" + uid + "-renamed,"
                        + TestServer.PEOPLE).equalsIgnoreCase(whoAmI(bound)));
                default -> {
                    // a password change leaves sessions bound, as LDAP servers do
                }
            }
            bound.close();
        }
    }

    /** Binds again and again as {@code dn} with its old password, each on a new connection. */
    private void bindUntilStopped(String dn, AtomicBoolean running, AtomicInteger refusedThreads,
                                  AtomicInteger resurrected) {
        boolean refused = false;
        while (running.get()) {
            try (LDAPConnection c = new LDAPConnection("127.0.0.1", group.node(REPLICA).port())) {
                c.bind(dn, TestServer.USER_PASSWORD);
                if (refused) {
                    resurrected.incrementAndGet();
                }
            } catch (LDAPException e) {
                if (!refused) {
                    refused = true;
                    refusedThreads.incrementAndGet();
                }
            }
        }
    }

    private static void apply(LDAPConnection master, String change, String uid, String dn) throws LDAPException {
        switch (change) {
            case "delete" -> master.delete(dn);
            case "rename" -> master.modifyDN(dn, "uid=" + uid + "-renamed", true);
            case "disable" -> master.modify(dn, new Modification(ModificationType.REPLACE,
                    "ds-pwp-account-disabled", "TRUE"));
            case "password" -> master.processExtendedOperation(new PasswordModifyExtendedRequest(dn, null,
                    "a-new-password-" + uid));
            default -> throw new IllegalArgumentException(change);
        }
    }

    private static String whoAmI(LDAPConnection c) {
        try {
            return ((WhoAmIExtendedResult) c.processExtendedOperation(new WhoAmIExtendedRequest()))
                    .getAuthorizationID();
        } catch (LDAPException e) {
            return null;
        }
    }
}
