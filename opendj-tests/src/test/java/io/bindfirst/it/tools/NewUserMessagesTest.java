package io.bindfirst.it.tools;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertFalse;
import static org.testng.Assert.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.testng.annotations.Test;

import io.bindfirst.it.support.ChildProcess;
import io.bindfirst.it.support.ScriptCheckout;
import io.bindfirst.server.testsupport.ConfigText;

/**
 * What a new user met when trying the server from a checkout, each fixed: {@code bin/status} showing port 0 for a
 * port the system chose, a wrong option to {@code bin/start-ds} reported without its name and with exit 1, no line
 * in the server log when the server starts listening or stops, {@code logs/server.out} emptied at each start,
 * {@code bin/restore} of a missing directory said to hold no manifest, and file errors that repeated the path
 * instead of the reason.
 */
public class NewUserMessagesTest {
    private static final Duration LIMIT = Duration.ofMinutes(3);

    @Test(timeOut = 600_000)
    public void theScriptsSayWhatHappened() throws Exception {
        try (ScriptCheckout checkout = new ScriptCheckout()) {
            Path root = checkout.root();
            Path ldif = root.resolve("config/config.ldif");
            ConfigText.read(ldif).set("ds-cfg-backend-id=userRoot,cn=Backends,cn=config", "ds-cfg-sample-entries",
                    "10").write(ldif);
            String startDs = checkout.script("start-ds").toString();

            ChildProcess.Result wrong = ChildProcess.run(LIMIT, List.of(startDs, "--port", "abc"));
            assertEquals(wrong.exitCode(), 2, wrong.said());
            assertTrue(wrong.output().contains("--port: 'abc' is not a port number"), wrong.said());

            ChildProcess.Result started = ChildProcess.run(LIMIT, List.of(startDs, "--port", "0", "--ldaps-port",
                    "0", "--metrics-port", "0"));
            assertEquals(started.exitCode(), 0, started.said());
            Matcher metrics = Pattern.compile("Metrics on http://127\\.0\\.0\\.1:(\\d+)/").matcher(started.output());
            assertTrue(metrics.find(), started.said());
            String httpPort = metrics.group(1);

            ChildProcess.Result status = ChildProcess.run(LIMIT, List.of(checkout.script("status").toString()));
            assertEquals(status.exitCode(), 0, status.said());
            assertTrue(status.output().contains("http://127.0.0.1:" + httpPort + " (answers)"), status.said());
            assertFalse(status.output().contains(":0 "), "no port shown as 0: " + status.said());
            String errors = Files.readString(root.resolve("logs/errors"));
            assertTrue(errors.contains("The server is listening on ldap://127.0.0.1:"), errors);

            ChildProcess.Result stopped = ChildProcess.run(LIMIT, List.of(checkout.script("stop-ds").toString()));
            assertEquals(stopped.exitCode(), 0, stopped.said());
            errors = Files.readString(root.resolve("logs/errors"));
            assertTrue(errors.contains("The server is stopping") && errors.contains("The server has stopped"),
                    errors);
            assertFalse(Files.exists(root.resolve("logs/server.ports")), "removed with the pid file");

            started = ChildProcess.run(LIMIT, List.of(startDs, "--port", "0", "--ldaps-port", "0",
                    "--metrics-port", "0"));
            assertEquals(started.exitCode(), 0, started.said());
            assertTrue(Files.readString(root.resolve("logs/server.out.1")).contains("The server is listening"),
                    "the previous start's output is kept");
            ChildProcess.run(LIMIT, List.of(checkout.script("stop-ds").toString()));

            ChildProcess.Result restore = ChildProcess.run(LIMIT, List.of(checkout.script("restore").toString(),
                    "-d", "/no/such/dir"));
            assertEquals(restore.exitCode(), 1, restore.said());
            assertTrue(restore.output().contains("/no/such/dir does not exist"), restore.said());
            assertFalse(restore.output().contains("manifest"), restore.said());

            ChildProcess.Result export = ChildProcess.run(LIMIT, List.of(checkout.script("export-ldif").toString(),
                    "-l", "/nonexistentdir/x.ldif"));
            assertEquals(export.exitCode(), 1, export.said());
            assertTrue(export.output().contains("Cannot write /nonexistentdir/x.ldif: no such file or directory"),
                    export.said());

            ChildProcess.Result setup = ChildProcess.run(LIMIT, List.of(checkout.script("setup").toString(),
                    "--no-such-option"));
            assertEquals(setup.exitCode(), 2, setup.said());
            assertTrue(setup.output().contains("setup: Unknown option: '--no-such-option'"), setup.said());
            assertTrue(setup.output().contains("See 'setup --help'"), setup.said());
            assertFalse(setup.output().contains("Usage:"), "the error, not the usage under it: " + setup.said());
        }
    }
}
