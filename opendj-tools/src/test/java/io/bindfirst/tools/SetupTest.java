package io.bindfirst.tools;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertFalse;
import static org.testng.Assert.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.testng.annotations.Test;

/** What bin/setup refuses, and bin/status on an instance whose server is stopped. */
public class SetupTest {

    @Test
    public void theDemoPasswordNeedsDemo() throws Exception {
        try (Instance instance = Instance.create()) {
            String shipped = Files.readString(instance.file("config/config.ldif"));
            ToolRun refused = ToolRun.run(new Setup(), instance.args("-w", "password"));
            assertEquals(refused.exitCode(), Tools.USAGE, refused.said());
            assertTrue(refused.err().contains("demo value"), refused.said());
            assertEquals(Files.readString(instance.file("config/config.ldif")), shipped);
            assertFalse(Files.exists(instance.file("db")), "setup created a database");

            ToolRun demo = ToolRun.run(new Setup(), instance.args("-w", "password", "--demo"));
            assertEquals(demo.exitCode(), Tools.OK, demo.said());
        }
    }

    @Test
    public void anInstanceWithADatabaseIsRefused() throws Exception {
        try (Instance instance = Instance.create()) {
            // what a first bin/start-ds (or an import) leaves: a database under the shipped configuration
            instance.write("users.ldif", "dn: dc=example,dc=com", "objectClass: top", "objectClass: domain",
                    "dc: example");
            ToolRun imported = ToolRun.importLdif(instance.args("-l", instance.file("users.ldif").toString()));
            assertEquals(imported.exitCode(), Tools.OK, imported.said());
            String shipped = Files.readString(instance.file("config/config.ldif"));

            ToolRun refused = ToolRun.run(new Setup(), instance.args("-w", "Good-password-1"));
            assertEquals(refused.exitCode(), Tools.FAILED, refused.said());
            assertTrue(refused.err().contains("has a database already") && refused.err().contains("remove db/"),
                    refused.said());
            assertEquals(Files.readString(instance.file("config/config.ldif")), shipped);
        }
    }

    @Test
    public void aReplicatedNodeFoundsAGroupWithItsDatabaseOrJoinsOneEmpty() throws Exception {
        try (Instance first = Instance.create(); Instance second = Instance.create()) {
            ToolRun founded = ToolRun.run(new Setup(), first.args("-w", "Good-password-1", "-d", "5",
                    "--replicationGroup", "logins", "--replicationNode", "ds1", "--replicationAddress",
                    "127.0.0.1:18989"));
            assertEquals(founded.exitCode(), Tools.OK, founded.said());
            assertTrue(founded.out().contains("node ds1 of group logins on 127.0.0.1:18989; it founds the group"),
                    founded.said());
            String config = Files.readString(first.file("config/config.ldif"));
            for (String line : List.of("ds-cfg-replication-group-name: logins", "ds-cfg-replication-node-name: ds1",
                    "ds-cfg-replication-address: 127.0.0.1:18989",
                    "ds-cfg-replication-helper-address: 127.0.0.1:18989",
                    "ds-cfg-replication-forward-bind-dn: cn=Directory Manager",
                    "ds-cfg-replication-forward-bind-password-file: config/replication-forward.pin")) {
                assertTrue(config.contains(line + "\n"), line);
            }
            Path pin = first.file("config/replication-forward.pin");
            assertEquals(Files.readAllLines(pin), List.of("Good-password-1"));
            assertEquals(java.nio.file.attribute.PosixFilePermissions.toString(Files.getPosixFilePermissions(pin)),
                    "rw-------");
            assertTrue(Files.exists(first.file("db/userRoot")), "the founding node's database holds the data");

            ToolRun joined = ToolRun.run(new Setup(), second.args("-w", "Good-password-1", "--replicationGroup",
                    "logins", "--replicationNode", "ds2", "--replicationAddress", "127.0.0.1:28989",
                    "--replicationHelper", "127.0.0.1:18989"));
            assertEquals(joined.exitCode(), Tools.OK, joined.said());
            assertTrue(joined.out().contains("it joins through 127.0.0.1:18989"), joined.said());
            assertTrue(Files.readString(second.file("config/config.ldif"))
                    .contains("ds-cfg-replication-helper-address: 127.0.0.1:18989\n"));
            assertFalse(Files.exists(second.file("db/userRoot/00000000.jdb")), "a joining node starts empty");
        }
    }

    @Test
    public void badOptionsAreUsageErrors() throws Exception {
        try (Instance instance = Instance.create()) {
            String[][] bad = {
                {},                                                  // no password
                {"-w", "short1"},                                    // shorter than 8
                {"-w", "Good-password-1", "--baseDN", "not a DN"},
                {"-w", "Good-password-1", "--ldapPort", "70000"},
                {"-w", "Good-password-1", "--ldapPort", "2000", "--httpPort", "2000"},
                {"-w", "Good-password-1", "--sampleData", "-1"},
                {"-w", "Good-password-1", "--certFile", "x.pem"},   // without --keyFile
                {"-w", "password", "--demo", "--listenAddress", "0.0.0.0"},
                {"-w", "Good-password-1", "--noSuchOption"},
                {"-w", "Good-password-1", "--replicationNode", "ds1"},                  // without a group
                {"-w", "Good-password-1", "--replicationGroup", "g", "--replicationNode", "ds1"},  // no address
                {"-w", "Good-password-1", "--replicationGroup", "g g", "--replicationNode", "ds1",
                    "--replicationAddress", "h:1"},
                {"-w", "Good-password-1", "--replicationGroup", "g", "--replicationNode", "ds1",
                    "--replicationAddress", "8989"},
                {"-w", "Good-password-1", "-d", "5", "--replicationGroup", "g", "--replicationNode", "ds2",
                    "--replicationAddress", "h:2", "--replicationHelper", "h:1"},       // sample data on a joiner
            };
            for (String[] args : bad) {
                ToolRun run = ToolRun.run(new Setup(), instance.args(args));
                assertEquals(run.exitCode(), Tools.USAGE, String.join(" ", args) + ": " + run.said());
            }
            assertFalse(Files.exists(instance.file("db")), "a refused setup created a database");
            assertFalse(Files.readString(instance.file("config/config.ldif")).startsWith(Setup.MARKER));
        }
    }

    @Test
    public void anEmptySetupHasTheBaseEntryOnly() throws Exception {
        try (Instance instance = Instance.create()) {
            ToolRun setup = ToolRun.run(new Setup(), instance.args("-w", "Good-password-1", "-b", "dc=example,dc=org"));
            assertEquals(setup.exitCode(), Tools.OK, setup.said());
            Path out = instance.file("out.ldif");
            ToolRun export = ToolRun.exportLdif(instance.args("-l", out.toString()));
            assertEquals(export.exitCode(), Tools.OK, export.said());
            String ldif = Files.readString(out);
            assertTrue(ldif.contains("dn: dc=example,dc=org"), ldif);
            assertEquals(ldif.split("\ndn: |^dn: ").length - 1, 1, ldif);
        }
    }

    @Test
    public void statusOnAStoppedInstance() throws Exception {
        try (Instance instance = Instance.create()) {
            ToolRun status = ToolRun.run(new Status(), instance.args());
            assertEquals(status.exitCode(), Status.STOPPED, status.said());
            assertTrue(status.out().contains("Server:      stopped"), status.said());
            assertTrue(status.out().contains("userRoot (je): dc=example,dc=com"), status.said());
            assertTrue(status.out().contains("ldap://127.0.0.1:1389"), status.said());
            assertFalse(status.out().contains("(answers)"), status.said());
        }
    }

    @Test
    public void statusUsageErrors() throws Exception {
        try (Instance instance = Instance.create()) {
            ToolRun both = ToolRun.run(new Status(), instance.args("-w", "a", "-j", "f"));
            assertEquals(both.exitCode(), Tools.USAGE, both.said());
            ToolRun unknown = ToolRun.run(new Status(), instance.args("--nope"));
            assertEquals(unknown.exitCode(), Tools.USAGE, unknown.said());
        }
    }
}
