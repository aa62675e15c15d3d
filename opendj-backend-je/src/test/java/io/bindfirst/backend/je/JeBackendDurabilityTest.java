package io.bindfirst.backend.je;

import static io.bindfirst.backend.je.TestSupport.PEOPLE;
import static io.bindfirst.backend.je.TestSupport.SUFFIX;
import static io.bindfirst.backend.je.TestSupport.dn;
import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertTrue;

import java.io.BufferedReader;
import java.io.File;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.forgerock.opendj.ldap.SearchScope;
import org.testng.annotations.Test;

/** Every acknowledged add survives a kill -9 of the process that made it. */
public class JeBackendDurabilityTest {
    private static final int ACKS_BEFORE_KILL = 60;

    /** Run in a child JVM: adds entries forever, printing "ACK n" once addEntry(user.n) has returned. */
    public static void main(String[] args) throws Exception {
        JeBackend backend = TestSupport.open(Path.of(args[0]));
        TestSupport.addTree(backend);
        System.out.println("READY");
        for (int i = 0; ; i++) {
            backend.addEntry(TestSupport.person(i, PEOPLE));
            System.out.println("ACK " + i);
            System.out.flush();
        }
    }

    @Test
    public void acknowledgedAddsSurviveKill9() throws Exception {
        Path root = TestSupport.tempDir();
        Path dir = root.resolve("db");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process child = new ProcessBuilder(java, "-Xmx128m", "-cp", System.getProperty("java.class.path"),
                JeBackendDurabilityTest.class.getName(), dir.toString())
                .redirectError(new File(root.toFile(), "child.err"))
                .start();
        int lastAck = -1;
        try (BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(),
                StandardCharsets.UTF_8))) {
            String line;
            while (lastAck < ACKS_BEFORE_KILL && (line = out.readLine()) != null) {
                if (line.startsWith("ACK ")) {
                    lastAck = Integer.parseInt(line.substring(4));
                }
            }
            child.destroyForcibly(); // SIGKILL: no shutdown hooks, no close, possibly mid-transaction
            assertTrue(child.waitFor(30, TimeUnit.SECONDS));
        } finally {
            child.destroyForcibly();
        }
        assertEquals(lastAck, ACKS_BEFORE_KILL, "the child did not get going; see " + root.resolve("child.err"));

        try (JeBackend backend = TestSupport.open(dir)) {
            for (int i = 0; i <= lastAck; i++) {
                assertEquals(backend.getEntry(dn("uid=user." + i + "," + PEOPLE)), TestSupport.person(i, PEOPLE));
                assertEquals(TestSupport.search(backend, SUFFIX, SearchScope.WHOLE_SUBTREE, "(uid=user." + i + ")"),
                        List.of(TestSupport.norm(dn("uid=user." + i + "," + PEOPLE))), "index entry of user." + i);
            }
            long count = backend.entryCount();
            assertTrue(count >= 3 + lastAck + 1, "count " + count);
            // and the recovered store takes new writes with fresh ids
            backend.addEntry(TestSupport.person(1_000_000, PEOPLE));
            assertEquals(backend.entryCount(), count + 1);
            assertEquals(TestSupport.search(backend, PEOPLE, SearchScope.SINGLE_LEVEL, "(objectClass=*)").size(),
                    (int) count - 3 + 1, "every dn2id record has its entry");
        } finally {
            TestSupport.delete(root);
        }
    }
}
