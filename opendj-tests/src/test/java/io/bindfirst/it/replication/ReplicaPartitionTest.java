package io.bindfirst.it.replication;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertNull;
import static org.testng.Assert.assertTrue;
import static org.testng.Assert.expectThrows;

import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

import org.testng.annotations.AfterClass;
import org.testng.annotations.BeforeClass;
import org.testng.annotations.Test;

import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.Modification;
import com.unboundid.ldap.sdk.ModificationType;
import com.unboundid.ldap.sdk.ResultCode;

import io.bindfirst.it.support.ReplicaGroup;
import io.bindfirst.it.support.TestServer;

/**
 * A network partition, with three server processes on loopback whose links go through proxies the test controls
 * ({@link ReplicaGroup#cut}): the master is cut off from the other two. Its write made just after the cut is
 * committed there alone and answered {@code unavailable}; the majority side elects a new master, which takes an
 * acknowledged write, while the cut-off master acknowledges nothing. When the cut heals, the old master must give
 * up the write the group never had (JE's rollback: the storage reopened, every cache and connection rebuilt from
 * what is now true), and every node holds each acknowledged write and not the other.
 */
public class ReplicaPartitionTest {
    private static final List<String> JVM = List.of("-Xmx192m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1");
    private static final int USERS = 20;
    private static final long WAIT_MILLIS = 90_000;

    private ReplicaGroup group;
    private long cutAt;

    @BeforeClass
    public void startGroup() throws Exception {
        group = ReplicaGroup.start("partition-group", 3, USERS, JVM, Map.of(0, "refuse", 1, "refuse", 2, "refuse"),
                UnaryOperator.identity(), true);
        ReplicaGroup.await(WAIT_MILLIS, () -> "replica".equals(group.role(1)) && "replica".equals(group.role(2)));
    }

    @AfterClass(alwaysRun = true)
    public void stopGroup() {
        if (group != null) {
            group.close();
        }
    }

    @Test
    public void aMasterCutOffGivesUpWhatTheGroupNeverHadAndKeepsWhatItAcknowledged() throws Exception {
        String user = "uid=user.3," + TestServer.PEOPLE;
        try (LDAPConnection master = group.root(0)) {
            master.modify(user, replace("description", "acknowledged by the first master"));
            group.cut(0);
            cutAt = System.nanoTime();
            // Its links still look open to it: the write commits there and waits in vain for a majority.
            LDAPException alone = expectThrows(LDAPException.class,
                    () -> master.modify(user, replace("title", "never confirmed")));
            assertEquals(alone.getResultCode(), ResultCode.UNAVAILABLE, alone.getDiagnosticMessage());
        }
        int[] newMaster = {-1};
        ReplicaGroup.await(WAIT_MILLIS, () -> {
            for (int i = 1; i < 3; i++) {
                if ("master".equals(group.role(i))) {
                    newMaster[0] = i;
                    return true;
                }
            }
            return false;
        });
        long electedMillis = (System.nanoTime() - cutAt) / 1_000_000;
        try (LDAPConnection c = group.root(newMaster[0])) {
            c.modify(user, replace("description", "acknowledged by the second master"));
        }
        try (LDAPConnection cutOff = group.root(0)) {
            LDAPException e = expectThrows(LDAPException.class,
                    () -> cutOff.modify(user, replace("description", "on the cut-off side")));
            assertEquals(e.getResultCode(), ResultCode.UNAVAILABLE, "the cut-off master acknowledges nothing");
        }
        group.heal(0);
        long healed = System.nanoTime();
        try {
            ReplicaGroup.await(WAIT_MILLIS, () -> "replica".equals(group.role(0))
                    && "acknowledged by the second master".equals(group.attribute(0, user, "description")));
        } catch (AssertionError e) {
            throw new AssertionError("the old master did not come back as a replica with the new master's write: "
                    + "role " + group.role(0) + "\nits log:\n" + group.tail(0, "logs/errors") + "\nits JE log:\n"
                    + group.tail(0, "db/userRoot/je.info.0"), e);
        }
        System.out.println("REPLICATION partition: the majority side had a new master " + electedMillis + " ms after "
                + "the cut; the old master served as a replica " + (System.nanoTime() - healed) / 1_000_000
                + " ms after the heal");
        for (int i = 0; i < 3; i++) {
            assertEquals(group.attribute(i, user, "description"), "acknowledged by the second master", "node n" + i);
            assertNull(group.attribute(i, user, "title"), "node n" + i + " holds a write the group never had");
        }
        try (LDAPConnection bound = new LDAPConnection("127.0.0.1", group.node(0).port())) {
            bound.bind(user, TestServer.USER_PASSWORD);
        }
        String log = java.nio.file.Files.readString(group.node(0).instance().resolve("logs/errors"));
        assertTrue(log.contains("rolled back"), "the old master's log says what it rolled back");
    }


    private static Modification replace(String attribute, String value) {
        return new Modification(ModificationType.REPLACE, attribute, value);
    }
}
