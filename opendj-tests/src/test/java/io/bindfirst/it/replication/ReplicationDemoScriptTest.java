package io.bindfirst.it.replication;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertFalse;
import static org.testng.Assert.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import org.testng.annotations.Test;

import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.Modification;
import com.unboundid.ldap.sdk.ModificationType;

import io.bindfirst.it.support.ChildProcess;
import io.bindfirst.it.support.ScriptCheckout;
import io.bindfirst.it.support.TestServer;
import io.bindfirst.server.testsupport.ConfigText;

/**
 * bin/replication-demo as a user runs it, in a checkout of its own: three nodes on the documented ports, their
 * roles in status, a write on n1 read on n3, stop and clean, and its answers to a wrong command and to --help.
 */
public class ReplicationDemoScriptTest {
    private static final Duration LIMIT = Duration.ofMinutes(4);

    @Test(timeOut = 600_000)
    public void threeNodesStartReplicateStopAndGo() throws Exception {
        try (ScriptCheckout checkout = new ScriptCheckout()) {
            Path root = checkout.root();
            Path ldif = root.resolve("config/config.ldif");
            ConfigText.read(ldif).set("ds-cfg-backend-id=userRoot,cn=Backends,cn=config", "ds-cfg-sample-entries",
                    "50").write(ldif);
            String demo = checkout.script("replication-demo").toString();
            try {
                ChildProcess.Result started = ChildProcess.run(LIMIT, List.of(demo, "start"));
                assertEquals(started.exitCode(), 0, started.said());
                for (String port : List.of("11389", "12389", "13389")) {
                    assertTrue(started.said().contains("ldap://127.0.0.1:" + port), started.said());
                }
                ChildProcess.Result status = ChildProcess.run(LIMIT, List.of(demo, "status"));
                assertEquals(status.exitCode(), 0, status.said());
                assertTrue(status.said().contains("n1: pid"), status.said());
                assertTrue(status.said().matches("(?s).*n1: pid \\d+, ldap://127.0.0.1:11389, master.*"),
                        status.said());
                assertTrue(status.said().matches("(?s).*n3: pid \\d+, ldap://127.0.0.1:13389, replica of n1.*"),
                        status.said());

                String user = "uid=user.3," + TestServer.PEOPLE;
                try (LDAPConnection n1 = new LDAPConnection("127.0.0.1", 11389, TestServer.ROOT_DN,
                        TestServer.ROOT_PASSWORD)) {
                    n1.modify(user, new Modification(ModificationType.REPLACE, "description", "through the demo"));
                }
                try (LDAPConnection n3 = new LDAPConnection("127.0.0.1", 13389, TestServer.ROOT_DN,
                        TestServer.ROOT_PASSWORD)) {
                    long deadline = System.currentTimeMillis() + 30_000;
                    while (!"through the demo".equals(n3.getEntry(user, "description")
                            .getAttributeValue("description"))) {
                        assertTrue(System.currentTimeMillis() < deadline, "the write never reached n3");
                        Thread.sleep(50);
                    }
                }

                ChildProcess.Result stopped = ChildProcess.run(LIMIT, List.of(demo, "stop"));
                assertEquals(stopped.exitCode(), 0, stopped.said());
                status = ChildProcess.run(LIMIT, List.of(demo, "status"));
                assertTrue(status.said().contains("n1: not running") && status.said().contains("n3: not running"),
                        status.said());
                assertTrue(Files.isDirectory(root.resolve("replication-demo/n2/db")), "stop keeps the data");
            } finally {
                ChildProcess.Result cleaned = ChildProcess.run(LIMIT, List.of(demo, "clean"));
                assertEquals(cleaned.exitCode(), 0, cleaned.said());
            }
            assertFalse(Files.exists(root.resolve("replication-demo")));

            ChildProcess.Result wrong = ChildProcess.run(LIMIT, List.of(demo, "begin"));
            assertEquals(wrong.exitCode(), 2, wrong.said());
            assertTrue(wrong.said().contains("unknown command 'begin'"), wrong.said());
            ChildProcess.Result help = ChildProcess.run(LIMIT, List.of(demo, "--help"));
            assertEquals(help.exitCode(), 0, help.said());
            assertTrue(help.said().contains("bin/replication-demo status"), help.said());
        }
    }
}
