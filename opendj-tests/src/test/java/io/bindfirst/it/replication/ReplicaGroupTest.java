package io.bindfirst.it.replication;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertFalse;
import static org.testng.Assert.assertNotNull;
import static org.testng.Assert.assertTrue;
import static org.testng.Assert.expectThrows;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.testng.annotations.AfterClass;
import org.testng.annotations.BeforeClass;
import org.testng.annotations.Test;

import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.Modification;
import com.unboundid.ldap.sdk.ModificationType;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.SearchResultEntry;
import com.unboundid.ldap.sdk.extensions.WhoAmIExtendedRequest;
import com.unboundid.ldap.sdk.extensions.WhoAmIExtendedResult;

import io.bindfirst.it.support.ChildProcess;
import io.bindfirst.it.support.ReplicaGroup;
import io.bindfirst.it.support.TestServer;

/**
 * Three servers, each its own process, in one replication group on loopback: the first is the master, the others
 * replicate it; writes on the master reach them; a replica refuses writes and names the master; a user deleted on the
 * master loses the connections bound on a replica; the master killed (SIGKILL), another is elected and takes
 * writes, nothing acknowledged is lost, and the old master comes back as a replica and catches up.
 */
public class ReplicaGroupTest {
    private static final List<String> JVM = List.of("-Xmx192m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1");
    private static final int USERS = 100;
    /** Elections, catch-up and replay on a loaded two-core machine: far above what they take. */
    private static final long WAIT_MILLIS = 60_000;

    private ReplicaGroup group;

    @BeforeClass
    public void startGroup() throws Exception {
        // Replicas that refuse writes (the other answers are ReplicaWritesTest's): the refusal names the master.
        group = ReplicaGroup.start("it-group", 3, USERS, JVM, Map.of(0, "refuse", 1, "refuse", 2, "refuse"));
    }

    @AfterClass(alwaysRun = true)
    public void stopGroup() {
        if (group != null) {
            group.close();
        }
    }

    @Test
    public void eachNodeSaysWhereItStandsInTheMonitor() throws Exception {
        for (int i = 0; i < 3; i++) {
            try (LDAPConnection c = root(i)) {
                SearchResultEntry e = c.getEntry("cn=Replication,cn=monitor");
                assertNotNull(e, "node n" + i + " has no cn=Replication,cn=monitor");
                assertEquals(e.getAttributeValue("ds-mon-replication-group"), "it-group");
                assertEquals(e.getAttributeValue("ds-mon-replication-node"), "n" + i);
                assertEquals(e.getAttributeValue("ds-mon-replication-role"), i == 0 ? "master" : "replica");
                assertEquals(e.getAttributeValue("ds-mon-replication-master"), "n0");
                assertEquals(e.getAttributeValue("ds-mon-replication-master-address"), group.address(0));
                long lag = e.getAttributeValueAsLong("ds-mon-replication-lag-ms");
                assertTrue(i == 0 ? lag == 0 : lag >= 0, "node n" + i + " lag " + lag);
            }
            String metrics = http(i, "/metrics").body();
            String role = i == 0 ? "master" : "replica";
            assertTrue(metrics.contains("ldap_replication_role{group=\"it-group\",node=\"n" + i + "\",role=\""
                    + role + "\"} 1.0"), metrics);
            assertTrue(metrics.contains("ldap_replication_lag_seconds{group=\"it-group\",node=\"n" + i + "\"}"),
                    metrics);
        }
    }

    @Test
    public void aLoadBalancerAsksForTheMasterOrAReplicaWithinALag() throws Exception {
        assertEquals(http(0, "/healthy?role=master").statusCode(), 200);
        assertEquals(http(1, "/healthy?role=master").statusCode(), 503);
        assertTrue(http(1, "/healthy?role=master").body().contains("not the master of replication group it-group"));
        assertEquals(http(0, "/healthy?role=replica").statusCode(), 503);
        assertEquals(http(1, "/healthy?role=replica").statusCode(), 200);
        assertEquals(http(2, "/healthy?role=replica&max-lag-ms=600000").statusCode(), 200);
        assertEquals(http(2, "/healthy").statusCode(), 200, "any node that answers");
        java.net.http.HttpResponse<String> wrong = http(0, "/healthy?role=leader");
        assertEquals(wrong.statusCode(), 400);
        assertTrue(wrong.body().contains("role 'leader' is not master or replica"), wrong.body());
        assertEquals(http(0, "/healthy?role=master&max-lag-ms=5").statusCode(), 400);
    }

    @Test
    public void statusShowsTheNodesRole() throws Exception {
        String said = status(1);
        assertTrue(said.contains("replicated: node n1 of group it-group, replication address " + group.address(1)),
                said);
        assertTrue(said.matches("(?s).*Replication: replica of n0 \\(" + java.util.regex.Pattern.quote(group.address(0))
                + "\\), \\d+ ms behind.*"), said);
        assertTrue(status(0).contains("Replication: master"), status(0));
    }

    /** bin/status's tool, run as bin/status runs it, on a node's instance with the root password. */
    private String status(int node) throws Exception {
        Path secret = java.nio.file.Files.writeString(group.node(node).instance().resolve("root-password"),
                TestServer.ROOT_PASSWORD);
        ChildProcess.Result r = ChildProcess.run(java.time.Duration.ofMinutes(2), List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp",
                System.getProperty("java.class.path"), "io.bindfirst.tools.Status", "--instanceRoot",
                group.node(node).instance().toString(), "-j", secret.toString()));
        assertEquals(r.exitCode(), 0, r.said());
        return r.said();
    }

    /** A GET of {@code path} on the node's HTTP listener, on the port it chose. */
    private java.net.http.HttpResponse<String> http(int node, String path) throws Exception {
        String ports = java.nio.file.Files.readString(group.node(node).instance().resolve("logs/server.ports"));
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("http=(\\d+)").matcher(ports);
        assertTrue(m.find(), ports);
        java.net.http.HttpResponse<String> r = java.net.http.HttpClient.newHttpClient().send(
                java.net.http.HttpRequest.newBuilder(java.net.URI.create("http://127.0.0.1:" + m.group(1) + path))
                        .build(), java.net.http.HttpResponse.BodyHandlers.ofString());
        return r;
    }

    @Test
    public void aWriteOnTheMasterReachesTheReplicasAndTheyRefuseWrites() throws Exception {
        String user = "uid=user.1," + TestServer.PEOPLE;
        try (LDAPConnection master = root(0)) {
            master.modify(user, new Modification(ModificationType.REPLACE, "description", "from the master"));
        }
        for (int i = 1; i < 3; i++) {
            int node = i;
            await(() -> "from the master".equals(description(node, user)));
            try (LDAPConnection replica = root(node)) {
                LDAPException e = expectThrows(LDAPException.class, () -> replica.modify(user,
                        new Modification(ModificationType.REPLACE, "description", "from a replica")));
                assertEquals(e.getResultCode(), ResultCode.UNWILLING_TO_PERFORM);
                assertTrue(e.getDiagnosticMessage().contains("node n0"), e.getDiagnosticMessage());
            }
        }
    }

    @Test
    public void aUserDeletedOnTheMasterLosesItsConnectionsOnTheReplicas() throws Exception {
        String user = "uid=user.7," + TestServer.PEOPLE;
        await(() -> attribute(2, user, "uid") != null);
        LDAPConnection bound = new LDAPConnection("127.0.0.1", group.node(2).port());
        try {
            bound.bind(user, TestServer.USER_PASSWORD);
            assertEquals(whoAmI(bound), "dn:" + user);
            try (LDAPConnection master = root(0)) {
                master.delete(user);
            }
            await(() -> !bound.isConnected() || !("dn:" + user).equals(whoAmIQuietly(bound)));
            LDAPException e = expectThrows(LDAPException.class, () -> {
                try (LDAPConnection again = new LDAPConnection("127.0.0.1", group.node(2).port())) {
                    again.bind(user, TestServer.USER_PASSWORD);
                }
            });
            assertEquals(e.getResultCode(), ResultCode.INVALID_CREDENTIALS);
        } finally {
            bound.close();
        }
    }

    /** Runs last: it kills the master. */
    @Test(dependsOnMethods = {"eachNodeSaysWhereItStandsInTheMonitor", "statusShowsTheNodesRole",
        "aLoadBalancerAsksForTheMasterOrAReplicaWithinALag",
        "aWriteOnTheMasterReachesTheReplicasAndTheyRefuseWrites",
        "aUserDeletedOnTheMasterLosesItsConnectionsOnTheReplicas"})
    public void aKilledMasterIsReplacedAndRejoinsAsAReplica() throws Exception {
        String user = "uid=user.2," + TestServer.PEOPLE;
        try (LDAPConnection master = root(0)) {
            master.modify(user, new Modification(ModificationType.REPLACE, "description", "acknowledged"));
        }
        // Writers adding entries on the master as fast as they go, killed in the middle: every add that was
        // answered success must be on every node afterwards.
        List<String> acknowledged = java.util.Collections.synchronizedList(new java.util.ArrayList<>());
        List<Thread> writers = new java.util.ArrayList<>();
        for (int w = 0; w < 4; w++) {
            int writer = w;
            Thread t = new Thread(() -> addUntilRefused(writer, acknowledged), "kill-load-" + w);
            t.start();
            writers.add(t);
        }
        await(() -> acknowledged.size() >= 20);
        group.kill(0);
        long killed = System.nanoTime();
        for (Thread t : writers) {
            t.join(WAIT_MILLIS);
        }
        int[] newMaster = {-1};
        String[] lastRefusal = {null, null, null};
        try {
            await(() -> {
                for (int i = 1; i < 3; i++) {
                    try (LDAPConnection c = root(i)) {
                        c.modify(user, new Modification(ModificationType.REPLACE, "title", "after the failover"));
                        newMaster[0] = i;
                        return true;
                    } catch (LDAPException e) {
                        lastRefusal[i] = e.getResultCode() + " " + e.getDiagnosticMessage();
                    }
                }
                return false;
            });
        } catch (AssertionError e) {
            throw new AssertionError("no node took a write after the master was killed; the last refusals: n1 "
                    + lastRefusal[1] + "; n2 " + lastRefusal[2] + "\nn1's log:\n" + group.tail(1, "logs/errors")
                    + "\nn1's JE log:\n" + group.tail(1, "db/userRoot/je.info.0"), e);
        }
        long tookMillis = (System.nanoTime() - killed) / 1_000_000;
        System.out.println("REPLICATION failover: node n" + newMaster[0] + " took a write " + tookMillis
                + " ms after the master was killed");
        for (int i = 1; i < 3; i++) {
            int node = i;
            assertEquals(description(i, user), "acknowledged", "node n" + i + " lost an acknowledged write");
            await(() -> "after the failover".equals(attribute(node, user, "title")));
        }
        group.restart(0);
        await(() -> "after the failover".equals(attribute(0, user, "title")));
        assertEquals(description(0, user), "acknowledged");
        List<String> acked = List.copyOf(acknowledged);
        for (int i = 0; i < 3; i++) {
            for (String dn : acked) {
                assertEquals(attribute(i, dn, "cn"), dn.substring(3, dn.indexOf(',')),
                        "node n" + i + " lost " + dn + ", acknowledged before the master was killed");
            }
        }
        System.out.println("REPLICATION kill under load: " + acked.size() + " adds acknowledged by the killed "
                + "master, all on every node");
        try (LDAPConnection rejoined = root(0)) {
            LDAPException e = expectThrows(LDAPException.class, () -> rejoined.modify(user,
                    new Modification(ModificationType.REPLACE, "description", "on the old master")));
            assertEquals(e.getResultCode(), ResultCode.UNWILLING_TO_PERFORM, "the old master is a replica now");
        }
        assertFalse(newMaster[0] < 0);
    }

    /** Adds entries on node 0 until it stops answering success, noting each acknowledged one. */
    private void addUntilRefused(int writer, List<String> acknowledged) {
        try (LDAPConnection c = root(0)) {
            for (int n = 0; ; n++) {
                String dn = "cn=load-" + writer + "-" + n + "," + TestServer.PEOPLE;
                c.add(dn, new com.unboundid.ldap.sdk.Attribute("objectClass", "person"),
                        new com.unboundid.ldap.sdk.Attribute("cn", "load-" + writer + "-" + n),
                        new com.unboundid.ldap.sdk.Attribute("sn", "load"));
                acknowledged.add(dn);
            }
        } catch (LDAPException e) {
            // killed (or not confirmed): what was acknowledged before is what counts
        }
    }


    private LDAPConnection root(int node) throws LDAPException {
        return group.root(node);
    }

    private String description(int node, String dn) {
        return attribute(node, dn, "description");
    }

    private String attribute(int node, String dn, String attribute) {
        return group.attribute(node, dn, attribute);
    }

    private static String whoAmI(LDAPConnection c) throws LDAPException {
        return ((WhoAmIExtendedResult) c.processExtendedOperation(new WhoAmIExtendedRequest())).getAuthorizationID();
    }

    private static String whoAmIQuietly(LDAPConnection c) {
        try {
            return whoAmI(c);
        } catch (LDAPException e) {
            return null;
        }
    }

    private static void await(ReplicaGroup.Condition condition) throws Exception {
        ReplicaGroup.await(WAIT_MILLIS, condition);
    }
}
