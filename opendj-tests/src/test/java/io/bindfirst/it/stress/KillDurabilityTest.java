package io.bindfirst.it.stress;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.testng.annotations.Test;

import com.unboundid.ldap.sdk.Attribute;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPException;

import io.bindfirst.it.support.TestServer;
import io.bindfirst.server.testsupport.ConfigText;

/**
 * Every acknowledged write survives {@code kill -9}: the server runs in a child JVM, four clients add
 * entries as fast as they can, the server is killed with SIGKILL in the middle of the load, restarted on
 * the same database, and every entry whose add was answered SUCCESS must be there.
 */
public class KillDurabilityTest {
    private static final String USER_ROOT = "ds-cfg-backend-id=userRoot,cn=Backends,cn=config";
    private static final Pattern LISTENING = Pattern.compile("listening on ldap://127\\.0\\.0\\.1:(\\d+)");

    public record Child(Process process, int port) {
        /** SIGTERM, as bin/stop-ds sends; SIGKILL if it has not stopped within a minute. */
        public boolean stop() throws InterruptedException {
            process.destroy();
            if (process.waitFor(60, TimeUnit.SECONDS)) {
                return true;
            }
            process.destroyForcibly();
            return false;
        }
    }

    public static Child startChild(Path instance) throws Exception {
        ProcessBuilder pb = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m", "-cp", System.getProperty("java.class.path"), "io.bindfirst.server.Launcher",
                "--instanceRoot", instance.toString(), "--port", "0", "--ldaps-port", "0",
                "--metrics-port", "0")
                .redirectErrorStream(true);
        Process p = pb.start();
        CompletableFuture<Integer> port = new CompletableFuture<>();
        StringBuffer output = new StringBuffer();
        Thread reader = new Thread(() -> {
            try (BufferedReader r =
                         new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line = r.readLine(); line != null; line = r.readLine()) {
                    output.append(line).append('\n');
                    Matcher m = LISTENING.matcher(line);
                    if (m.find()) {
                        port.complete(Integer.parseInt(m.group(1)));
                    }
                }
            } catch (Exception e) {
                port.completeExceptionally(e);
            }
            port.completeExceptionally(new IllegalStateException("the server exited before listening:\n" + output));
        }, "child-output");
        reader.setDaemon(true);
        reader.start();
        return new Child(p, port.get(60, TimeUnit.SECONDS));
    }

    @Test(timeOut = 240_000)
    public void acknowledgedAddsSurviveSigkill() throws Exception {
        Path instance = Files.createTempDirectory("bindfirst-kill-");
        try {
            TestServer.copyConfig(instance);
            Path ldif = instance.resolve("config/config.ldif");
            // The server runs in a child JVM, so it is configured through the file.
            ConfigText.read(ldif).set(USER_ROOT, "ds-cfg-sample-entries", "10").write(ldif);
            Child first = startChild(instance);
            Queue<String> acknowledged = new ConcurrentLinkedQueue<>();
            AtomicBoolean stop = new AtomicBoolean();
            List<Thread> writers = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                int id = t;
                Thread w = new Thread(() -> {
                    try (LDAPConnection c = new LDAPConnection("127.0.0.1", first.port())) {
                        c.bind(TestServer.ROOT_DN, TestServer.ROOT_PASSWORD);
                        for (int n = 0; !stop.get(); n++) {
                            String dn = "uid=dur." + id + "." + n + "," + TestServer.PEOPLE;
                            c.add(dn, new Attribute("objectClass", "top", "account"),
                                    new Attribute("uid", "dur." + id + "." + n));
                            acknowledged.add(dn);
                        }
                    } catch (LDAPException e) {
                        // The kill: the connection drops mid-request; that add was never acknowledged.
                    }
                });
                writers.add(w);
                w.start();
            }
            Thread.sleep(3_000);
            first.process().destroyForcibly(); // SIGKILL on Linux
            first.process().waitFor(30, TimeUnit.SECONDS);
            stop.set(true);
            for (Thread w : writers) {
                w.join(30_000);
            }
            assertTrue(acknowledged.size() > 20, "too few writes before the kill: " + acknowledged.size());

            Child second = startChild(instance);
            int missing = 0;
            try (LDAPConnection c = new LDAPConnection("127.0.0.1", second.port())) {
                c.bind(TestServer.ROOT_DN, TestServer.ROOT_PASSWORD);
                for (String dn : acknowledged) {
                    if (c.getEntry(dn, "1.1") == null) {
                        missing++;
                    }
                }
            } finally {
                second.process().destroy(); // SIGTERM: a clean stop
                second.process().waitFor(60, TimeUnit.SECONDS);
            }
            System.out.printf("kill -9: %d adds acknowledged before the kill, %d missing after restart%n",
                    acknowledged.size(), missing);
            assertEquals(missing, 0, "acknowledged adds lost by kill -9");
        } finally {
            TestServer.deleteTree(instance);
        }
    }
}
