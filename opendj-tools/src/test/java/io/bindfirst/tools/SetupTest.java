package io.bindfirst.tools;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertFalse;
import static org.testng.Assert.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;

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
