package io.bindfirst.it.tools;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import org.testng.annotations.Test;

import io.bindfirst.it.support.ChildProcess;
import io.bindfirst.it.support.ScriptCheckout;
import io.bindfirst.server.testsupport.ConfigText;

/**
 * bin/start-ds leaves the server able to catch SIGHUP (bin/reload-tls), even when whatever runs it ignores that
 * signal: a server started under nohup, or from a nohup'd shell or a runner that ignores SIGHUP, inherited the
 * ignored signal, and the JVM keeps a signal ignored at its start ignored, so bin/reload-tls did nothing at all.
 */
public class StartDsHangUpTest {
    private static final Duration LIMIT = Duration.ofMinutes(3);

    @Test(timeOut = 300_000)
    public void reloadTlsReachesAServerStartedUnderNohup() throws Exception {
        try (ScriptCheckout checkout = new ScriptCheckout()) {
            Path root = checkout.root();
            Path ldif = root.resolve("config/config.ldif");
            ConfigText.read(ldif).set("ds-cfg-backend-id=userRoot,cn=Backends,cn=config", "ds-cfg-sample-entries",
                    "10").write(ldif);

            ChildProcess.Result started = ChildProcess.run(LIMIT, List.of("nohup",
                    checkout.script("start-ds").toString(), "--port", "0", "--ldaps-port", "0", "--metrics-port", "0"));
            assertEquals(started.exitCode(), 0, started.said());
            long pid = checkout.serverPid();

            ChildProcess.Result asked = ChildProcess.run(LIMIT, List.of(checkout.script("reload-tls").toString()));
            assertEquals(asked.exitCode(), 0, asked.said());
            Path errors = root.resolve("logs/errors");
            String log = "";
            long deadline = System.nanoTime() + 20_000_000_000L;
            while (!log.contains("Asked to reload the TLS key and certificate") && System.nanoTime() < deadline) {
                Thread.sleep(100);
                log = Files.exists(errors) ? Files.readString(errors) : "";
            }
            assertTrue(log.contains("Asked to reload the TLS key and certificate"),
                    "the server did not act on SIGHUP; logs/errors:\n" + log + "\nserver.out:\n"
                            + Files.readString(root.resolve("logs/server.out")));
            assertTrue(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false),
                    "the signal reloads, it does not stop the server");
        }
    }
}
