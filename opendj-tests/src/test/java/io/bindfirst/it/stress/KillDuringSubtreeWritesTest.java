package io.bindfirst.it.stress;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;

import org.forgerock.opendj.ldap.DN;
import org.forgerock.opendj.ldap.Filter;
import org.forgerock.opendj.ldap.SearchScope;
import org.testng.annotations.Test;

import com.unboundid.ldap.sdk.Attribute;
import com.unboundid.ldap.sdk.DeleteRequest;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.ModifyDNRequest;
import com.unboundid.ldap.sdk.SearchResultEntry;
import com.unboundid.ldap.sdk.controls.SubtreeDeleteRequestControl;

import io.bindfirst.it.support.ChildProcess;
import io.bindfirst.it.support.TestServer;
import io.bindfirst.server.backend.Backend;
import io.bindfirst.server.backend.BackendConfig;
import io.bindfirst.server.backend.BackendProvider;
import io.bindfirst.server.config.ConfigLoader;
import io.bindfirst.server.config.ServerConfig;
import io.bindfirst.server.schema.SchemaLoader;
import io.bindfirst.server.testsupport.ConfigText;

/**
 * {@code kill -9} in the middle of subtree renames and subtree deletes ({@link KillDurabilityTest} has adds): a
 * child server, clients moving 31-entry subtrees back and forth (a new superior, a new RDN) and deleting others
 * with the Subtree Delete control and adding them again, SIGKILL while they run. Each rename or delete is one
 * transaction, so afterwards every moved subtree is whole in one place, {@code Backend.verify} (and
 * {@code bin/verify-index}, which runs it) finds dn2id, id2entry and the equality indexes in agreement, and the
 * restarted server reads every entry by its DN and finds it by its indexed uid.
 */
public class KillDuringSubtreeWritesTest {
    private static final String USER_ROOT = "ds-cfg-backend-id=userRoot,cn=Backends,cn=config";
    private static final String MOVES = "ou=Moves,dc=example,dc=com";
    private static final String AWAY = "ou=Away,dc=example,dc=com";
    private static final int MOVED = 6;
    private static final int DELETED = 4;
    private static final int SUBTREE = 1 + 10 + 10 * 2;

    @Test(timeOut = 300_000)
    public void subtreeRenamesAndDeletesKilledMidwayLeaveAWholeTree() throws Exception {
        Path instance = Files.createTempDirectory("bindfirst-kill-subtrees-");
        try {
            TestServer.copyConfig(instance);
            Path ldif = instance.resolve("config/config.ldif");
            ConfigText.read(ldif).set(USER_ROOT, "ds-cfg-sample-entries", "10").write(ldif);
            KillDurabilityTest.Child first = KillDurabilityTest.startChild(instance);
            try (LDAPConnection c = root(first.port())) {
                for (String top : List.of(MOVES, AWAY)) {
                    c.add(top, new Attribute("objectClass", "top", "organizationalUnit"),
                            new Attribute("ou", top.substring(3, top.indexOf(','))));
                }
                for (int s = 0; s < MOVED; s++) {
                    addSubtree(c, "s" + s, MOVES);
                }
                for (int d = 0; d < DELETED; d++) {
                    addSubtree(c, "d" + d, MOVES);
                }
            }
            AtomicBoolean stop = new AtomicBoolean();
            AtomicInteger renames = new AtomicInteger();
            // Where each moved subtree was after its last acknowledged rename (an index into place()).
            AtomicIntegerArray acknowledged = new AtomicIntegerArray(MOVED);
            AtomicInteger deletes = new AtomicInteger();
            List<Thread> writers = new ArrayList<>();
            for (int t = 0; t < 2; t++) {
                int half = t;
                writers.add(writer(first.port(), stop, c -> {
                    // Each thread moves its own subtrees: away under a new superior, back under a new RDN, home.
                    for (int s = half; s < MOVED; s += 2) {
                        String name = "s" + s;
                        c.modifyDN(new ModifyDNRequest(place(name, 0), "ou=" + name, true, AWAY));
                        acknowledged.set(s, 1);
                        c.modifyDN(new ModifyDNRequest(place(name, 1), "ou=" + name + "r", true, MOVES));
                        acknowledged.set(s, 2);
                        c.modifyDN(new ModifyDNRequest(place(name, 2), "ou=" + name, true));
                        acknowledged.set(s, 0);
                        renames.addAndGet(3);
                    }
                }));
            }
            writers.add(writer(first.port(), stop, c -> {
                for (int d = 0; d < DELETED; d++) {
                    DeleteRequest delete = new DeleteRequest("ou=d" + d + "," + MOVES);
                    delete.addControl(new SubtreeDeleteRequestControl());
                    c.delete(delete);
                    deletes.incrementAndGet();
                    addSubtree(c, "d" + d, MOVES);
                }
            }));
            writers.forEach(Thread::start);
            Thread.sleep(2_500);
            first.process().destroyForcibly(); // SIGKILL on Linux
            first.process().waitFor(30, TimeUnit.SECONDS);
            stop.set(true);
            for (Thread w : writers) {
                w.join(30_000);
            }
            System.out.printf("kill -9 during subtree writes: %d renames, %d subtree deletes acknowledged%n",
                    renames.get(), deletes.get());
            assertTrue(renames.get() > 10 && deletes.get() > 2, "too few writes before the kill: " + renames
                    + " renames, " + deletes + " deletes");

            checkOffline(instance, acknowledged);
            String verifyIndex = TestServer.repoRoot().resolve("bin/verify-index").toString();
            ChildProcess.Result verified = ChildProcess.run(Duration.ofMinutes(5),
                    List.of(verifyIndex, "--instanceRoot", instance.toString()));
            assertEquals(verified.exitCode(), 0, verified.said());
            assertTrue(verified.output().contains("Backend userRoot: ") && verified.output().contains(
                    "entries, no problems found"), verified.said());
            KillDurabilityTest.Child second = KillDurabilityTest.startChild(instance);
            try (LDAPConnection c = root(second.port())) {
                checkOnline(c);
            } finally {
                second.process().destroy();
                second.process().waitFor(60, TimeUnit.SECONDS);
            }
        } finally {
            TestServer.deleteTree(instance);
        }
    }

    /** The stopped server's backend: {@code verify} finds nothing, and each moved subtree is whole in one place. */
    private static void checkOffline(Path instance, AtomicIntegerArray acknowledged) throws Exception {
        ServerConfig config = ConfigLoader.load(instance.resolve("config/config.ldif"), instance);
        BackendConfig bc = config.backends().stream().filter(b -> b.id().equals("userRoot")).findFirst()
                .orElseThrow();
        BackendProvider provider = ServiceLoader.load(BackendProvider.class).stream().map(ServiceLoader.Provider::get)
                .filter(p -> p.type().equals(bc.type())).findFirst().orElseThrow();
        try (Backend backend = provider.open(bc, SchemaLoader.load(config.schemaDirectory()))) {
            assertEquals(backend.maintenance().verify(), List.of(), "what verify finds after kill -9");
            Map<String, Integer> placesBySubtree = new TreeMap<>();
            Map<String, String> topOf = new TreeMap<>();
            Map<String, Integer> entriesBySubtree = new TreeMap<>();
            backend.search(DN.valueOf("dc=example,dc=com"), SearchScope.WHOLE_SUBTREE,
                    Filter.valueOf("(objectClass=organizationalUnit)"), e -> {
                        String label = e.parseAttribute("description").asString();
                        if (label != null && label.startsWith("s")) {
                            placesBySubtree.merge(label, 1, Integer::sum);
                            topOf.put(label, e.getName().toString());
                        }
                        return true;
                    });
            backend.search(DN.valueOf("dc=example,dc=com"), SearchScope.WHOLE_SUBTREE,
                    Filter.valueOf("(description=*)"), e -> {
                        // The backend may pass candidates the filter does not match: the caller evaluates it.
                        String label = e.parseAttribute("description").asString();
                        if (label != null) {
                            entriesBySubtree.merge(label, 1, Integer::sum);
                        }
                        return true;
                    });
            System.out.println("kill -9 during subtree writes: acknowledged " + acknowledged + ", found " + topOf);
            for (int s = 0; s < MOVED; s++) {
                assertEquals(placesBySubtree.get("s" + s), Integer.valueOf(1), "tops of subtree s" + s);
                assertEquals(entriesBySubtree.get("s" + s), Integer.valueOf(SUBTREE), "entries of subtree s" + s);
                // The last acknowledged rename holds; the one in flight at the kill may have committed too.
                int last = acknowledged.get(s);
                String at = topOf.get("s" + s);
                boolean expected = at.equalsIgnoreCase(place("s" + s, last))
                        || at.equalsIgnoreCase(place("s" + s, (last + 1) % 3));
                assertTrue(expected, "subtree s" + s + " at " + at + ", acknowledged at " + place("s" + s, last));
            }
        }
    }

    /** The restarted server reads every entry by its DN, and finds each uid through its index. */
    private static void checkOnline(LDAPConnection c) throws LDAPException {
        List<SearchResultEntry> all = c.search("dc=example,dc=com", com.unboundid.ldap.sdk.SearchScope.SUB,
                "(objectClass=*)", "uid").getSearchEntries();
        int uids = 0;
        for (SearchResultEntry e : all) {
            assertTrue(c.getEntry(e.getDN(), "1.1") != null, "not readable by its DN: " + e.getDN());
            String uid = e.getAttributeValue("uid");
            if (uid != null) {
                uids++;
                assertEquals(c.search("dc=example,dc=com", com.unboundid.ldap.sdk.SearchScope.SUB,
                        "(uid=" + uid + ")", "1.1").getEntryCount(), 1, "uid " + uid + " through its index");
            }
        }
        assertTrue(uids >= MOVED * (SUBTREE - 1), "entries with a uid: " + uids);
    }

    /** The three places a moved subtree goes through, in order: home, away under a new superior, a new RDN. */
    private static String place(String name, int step) {
        return switch (step) {
            case 0 -> "ou=" + name + "," + MOVES;
            case 1 -> "ou=" + name + "," + AWAY;
            default -> "ou=" + name + "r," + MOVES;
        };
    }

    /** ou=NAME under {@code parent}, 10 children and 2 grandchildren each, all labelled with NAME. */
    private static void addSubtree(LDAPConnection c, String name, String parent) throws LDAPException {
        String top = "ou=" + name + "," + parent;
        c.add(top, new Attribute("objectClass", "top", "organizationalUnit"), new Attribute("ou", name),
                new Attribute("description", name));
        for (int i = 0; i < 10; i++) {
            String child = "uid=" + name + "c" + i + "," + top;
            c.add(child, new Attribute("objectClass", "top", "account"), new Attribute("uid", name + "c" + i),
                    new Attribute("description", name));
            for (int j = 0; j < 2; j++) {
                c.add("uid=" + name + "c" + i + "g" + j + "," + child, new Attribute("objectClass", "top", "account"),
                        new Attribute("uid", name + "c" + i + "g" + j), new Attribute("description", name));
            }
        }
    }

    private interface Round {
        void run(LDAPConnection c) throws LDAPException;
    }

    /** A thread repeating {@code round} on its own connection until stopped or the server dies. */
    private static Thread writer(int port, AtomicBoolean stop, Round round) {
        return new Thread(() -> {
            try (LDAPConnection c = root(port)) {
                while (!stop.get()) {
                    round.run(c);
                }
            } catch (LDAPException killed) {
                // The kill: the connection drops mid-request; that write was never acknowledged.
            }
        }, "subtree-writer");
    }

    private static LDAPConnection root(int port) throws LDAPException {
        LDAPConnection c = new LDAPConnection("127.0.0.1", port);
        c.bind(TestServer.ROOT_DN, TestServer.ROOT_PASSWORD);
        return c;
    }
}
