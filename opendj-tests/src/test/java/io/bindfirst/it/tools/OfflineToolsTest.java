package io.bindfirst.it.tools;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertFalse;
import static org.testng.Assert.assertTrue;

import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.testng.annotations.Test;

import com.sleepycat.je.Environment;
import com.sleepycat.je.EnvironmentConfig;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.SearchResult;
import com.unboundid.ldap.sdk.SearchScope;

import io.bindfirst.it.support.ChildProcess;
import io.bindfirst.it.support.TestServer;

/**
 * bin/import-ldif and bin/export-ldif beside a real server: each refuses to work on a backend the other
 * holds, and the server's own data goes out and comes back the same. The tools run as separate processes,
 * as a user runs them: a JE environment is shared by everything in one JVM, so only another process meets
 * its lock.
 */
public class OfflineToolsTest {
    private static final Duration LIMIT = Duration.ofMinutes(3);
    private static final String IMPORT = "io.bindfirst.tools.ImportLdif";
    private static final String EXPORT = "io.bindfirst.tools.ExportLdif";
    private static final String REBUILD = "io.bindfirst.tools.RebuildIndex";

    private static ChildProcess.Result tool(String main, Path instance, String... args) throws Exception {
        List<String> all = new ArrayList<>(List.of("--instanceRoot", instance.toString()));
        all.addAll(List.of(args));
        return ChildProcess.java(main, all.toArray(String[]::new)).await(LIMIT);
    }

    private static void assertRefusedBecauseInUse(ChildProcess.Result r, String tool) {
        assertEquals(r.exitCode(), 1, r.said());
        assertTrue(r.output().startsWith(tool + ": Backend userRoot: its database directory "), r.said());
        assertTrue(r.output().contains(" is in use by another process (a running server, or import-ldif or "
                + "export-ldif): stop that process first"), r.said());
        assertFalse(r.output().contains("\tat "), "no stack trace: " + r.said());
    }

    @Test
    public void theToolsRefuseABackendTheServerHolds() throws Exception {
        try (TestServer ts = TestServer.start(20)) {
            Path ldif = Files.writeString(ts.instance().resolve("in.ldif"),
                    "dn: ou=More,dc=example,dc=com\nobjectClass: organizationalUnit\nou: More\n");
            assertRefusedBecauseInUse(tool(IMPORT, ts.instance(), "-l", ldif.toString()), "import-ldif");
            // a clearing import takes the database's lock itself before it removes anything
            assertRefusedBecauseInUse(tool(IMPORT, ts.instance(), "-l", ldif.toString(), "--clearBackend"),
                    "import-ldif");
            assertRefusedBecauseInUse(tool(EXPORT, ts.instance(), "-l", ts.instance().resolve("out.ldif").toString()),
                    "export-ldif");
            assertFalse(Files.exists(ts.instance().resolve("out.ldif")), "a refused export writes nothing");
            try (LDAPConnection c = ts.bindAs(TestServer.user(3), TestServer.USER_PASSWORD)) {
                assertEquals(c.getEntry("ou=More,dc=example,dc=com"), null, "the refused import added nothing");
            }
            assertFalse(Files.exists(ts.instance().resolve("db/userRoot/bulk-load-unfinished")),
                    "the refused clearing import did not mark the backend unfinished");
        }
    }

    @Test
    public void rebuildIndexRefusesABackendTheServerHolds() throws Exception {
        try (TestServer ts = TestServer.start(5)) {
            ChildProcess.Result r = tool(REBUILD, ts.instance(), "-b", "dc=example,dc=com", "-i", "mail");
            assertEquals(r.exitCode(), 1, r.said());
            assertEquals(r.output().strip(), "rebuild-index: the database of backend userRoot ("
                    + ts.instance().resolve("db/userRoot") + ") is in use by another process, the running server or "
                    + "another tool: stop the server first (bin/stop-ds), then run rebuild-index again", r.said());
            try (LDAPConnection c = ts.bindAs(TestServer.user(3), TestServer.USER_PASSWORD)) {
                assertEquals(c.search(TestServer.PEOPLE, SearchScope.ONE, "(mail=user.3@example.com)", "1.1")
                        .getEntryCount(), 1, "the server's index untouched");
            }
        }
    }

    /** The entries whose mail is {@code user.N@example.com}, searched by the (indexed) mail attribute. */
    private static int byMail(TestServer ts, int n) throws Exception {
        try (LDAPConnection c = ts.bindAs(TestServer.user(n), TestServer.USER_PASSWORD)) {
            return c.search(TestServer.PEOPLE, SearchScope.ONE, "(mail=user." + n + "@example.com)", "1.1")
                    .getEntryCount();
        }
    }

    /**
     * An index emptied behind the backend's back (its database truncated through JE, its ready marker left) makes
     * searches by its attribute find nothing; bin/rebuild-index builds it again from the entries and they find
     * them again. The other indexes are left alone; a name not configured and a base DN no backend has are
     * refused with what there is; a command line without the indexes to rebuild is a usage error.
     */
    @Test
    public void rebuildIndexRepairsAnEmptiedIndex() throws Exception {
        try (TestServer ts = TestServer.start(200)) {
            assertEquals(byMail(ts, 42), 1);
            ts.server().close();
            Path db = ts.instance().resolve("db/userRoot");
            try (Environment env = new Environment(db.toFile(), new EnvironmentConfig().setTransactional(true))) {
                assertTrue(env.getDatabaseNames().contains("eq.mail"), env.getDatabaseNames().toString());
                env.truncateDatabase(null, "eq.mail", false);
            }
            ts.restart();
            assertEquals(byMail(ts, 42), 0, "the emptied index answers for the attribute: nothing found");
            ts.server().close();

            Path bin = TestServer.repoRoot().resolve("bin");
            ChildProcess.Result rebuilt = ChildProcess.run(LIMIT, List.of(bin.resolve("rebuild-index").toString(),
                    "--instanceRoot", ts.instance().toString(), "-b", "dc=example,dc=com", "-i", "mail"));
            assertEquals(rebuilt.exitCode(), 0, rebuilt.said());
            assertTrue(rebuilt.output().contains("Rebuilt index mail of backend userRoot over "
                    + (200 + TestServer.NON_USER_ENTRIES) + " entries in "),
                    rebuilt.said());

            ChildProcess.Result wrongName = tool(REBUILD, ts.instance(), "-b", "dc=example,dc=com", "-i", "mail",
                    "-i", "telephoneNumber");
            assertEquals(wrongName.exitCode(), 1, wrongName.said());
            assertTrue(wrongName.output().startsWith("rebuild-index: Backend userRoot has no index of "
                    + "'telephoneNumber' (ds-cfg-equality-index, -presence-index, -substring-index, -ordering-index in "
                    + ts.instance().resolve("config/config.ldif")
                    + "); the configured ones are: aci, cn, givenname, mail, objectclass, sn, uid"), wrongName.said());
            ChildProcess.Result wrongBase = tool(REBUILD, ts.instance(), "-b", "dc=example,dc=org", "--rebuildAll");
            assertEquals(wrongBase.exitCode(), 1, wrongBase.said());
            assertTrue(wrongBase.output().startsWith("rebuild-index: No enabled backend has the base DN "
                    + "dc=example,dc=org; the base DNs are: dc=example,dc=com (userRoot)"), wrongBase.said());
            assertEquals(tool(REBUILD, ts.instance(), "-b", "dc=example,dc=com").exitCode(), 2, "no index named");
            assertEquals(tool(REBUILD, ts.instance(), "-i", "mail", "--rebuildAll").exitCode(), 2, "both");

            ts.restart();
            assertEquals(byMail(ts, 42), 1, "rebuilt: found again");
            assertEquals(byMail(ts, 199), 1);
            ts.server().close();
            ChildProcess.Result all = tool(REBUILD, ts.instance(), "-n", "userRoot", "--rebuildAll");
            assertEquals(all.exitCode(), 0, all.said());
            assertTrue(all.output().contains("Rebuilt indexes aci, cn, givenname, mail, objectclass, sn, uid of "
                    + "backend userRoot over " + (200 + TestServer.NON_USER_ENTRIES) + " entries"), all.said());
            ts.restart();
            assertEquals(byMail(ts, 7), 1);
        }
    }

    @Test
    public void theServerRefusesToStartWhileAnImportHoldsTheBackend() throws Exception {
        Path instance = Files.createTempDirectory("bindfirst-offline-");
        ChildProcess importing = null;
        try {
            TestServer.copyConfig(instance);
            Path fifo = instance.resolve("in.ldif");
            ChildProcess.Result mkfifo = ChildProcess.run(Duration.ofSeconds(30), List.of("mkfifo", fifo.toString()));
            assertEquals(mkfifo.exitCode(), 0, mkfifo.said());
            // The import opens the backend, then its input: it waits there, holding the backend, until written to.
            importing = ChildProcess.java(IMPORT, "--instanceRoot", instance.toString(), "-l", fifo.toString());
            CompletableFuture<OutputStream> writer = CompletableFuture.supplyAsync(() -> {
                try {
                    return Files.newOutputStream(fifo); // returns once the import has opened it for reading
                } catch (java.io.IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            });
            try (OutputStream toImport = writer.get(LIMIT.toSeconds(), TimeUnit.SECONDS)) {
                ChildProcess.Result server = ChildProcess.java("io.bindfirst.server.Launcher", "--instanceRoot",
                        instance.toString(), "--port", "0", "--ldaps-port", "0", "--metrics-port", "0")
                        .await(LIMIT);
                assertEquals(server.exitCode(), 1, server.said());
                assertTrue(server.output().contains("The server could not start: Backend userRoot: its database "
                        + "directory " + instance.resolve("db/userRoot") + " is in use by another process (a running "
                        + "server, or import-ldif or export-ldif): stop that process first"), server.said());
                assertFalse(server.output().contains("\tat "), "no stack trace: " + server.said());
                toImport.write(("dn: dc=example,dc=com\nobjectClass: domain\ndc: example\n\n"
                        + "dn: ou=People,dc=example,dc=com\nobjectClass: organizationalUnit\nou: People\n")
                        .getBytes(StandardCharsets.UTF_8));
            }
            ChildProcess.Result imported = importing.await(LIMIT);
            assertEquals(imported.exitCode(), 0, imported.said());
            assertTrue(imported.output().contains("Imported 2 entries into backend userRoot and rejected 0"),
                    imported.said());
        } finally {
            if (importing != null) {
                importing.kill();
            }
            TestServer.deleteTree(instance);
        }
    }

    /**
     * The server's first-start sample users, exported, imported into a cleared backend and exported again,
     * give the same file; the server then binds and finds users by an indexed attribute in the imported data.
     */
    @Test
    public void theServersOwnDataComesBackTheSame() throws Exception {
        try (TestServer ts = TestServer.start(500)) {
            ts.server().close();
            Path sample = ts.instance().resolve("sample.ldif");
            Path again = ts.instance().resolve("again.ldif");
            ChildProcess.Result exported = tool(EXPORT, ts.instance(), "-l", sample.toString());
            assertEquals(exported.exitCode(), 0, exported.said());
            int entries = 500 + TestServer.NON_USER_ENTRIES;
            assertTrue(exported.output().contains("Exported " + entries + " entries"), exported.said());
            ChildProcess.Result imported = tool(IMPORT, ts.instance(), "-l", sample.toString(), "--clearBackend");
            assertEquals(imported.exitCode(), 0, imported.said());
            assertTrue(imported.output().contains("Imported " + entries
                    + " entries into backend userRoot and rejected 0"), imported.said());
            assertEquals(tool(EXPORT, ts.instance(), "-l", again.toString()).exitCode(), 0);
            assertEquals(Files.readString(again), Files.readString(sample));

            ts.restart();
            try (LDAPConnection c = ts.bindAs(TestServer.user(321), TestServer.USER_PASSWORD)) {
                SearchResult r = c.search(TestServer.PEOPLE, SearchScope.ONE, "(mail=user.321@example.com)", "1.1");
                assertEquals(r.getEntryCount(), 1);
                assertEquals(r.getSearchEntries().get(0).getDN(), TestServer.user(321));
            }
        }
    }

    /** The bin scripts, as a user types them (they pass the instance root the server gets from bin/start-ds). */
    @Test
    public void theBinScriptsImportAndExport() throws Exception {
        Path instance = Files.createTempDirectory("bindfirst-bin-");
        try {
            TestServer.copyConfig(instance);
            Path ldif = Files.writeString(instance.resolve("in.ldif"),
                    "dn: dc=example,dc=com\nobjectClass: domain\ndc: example\n\n"
                    + "dn: uid=jo,dc=example,dc=com\nobjectClass: inetOrgPerson\nuid: jo\ncn: Jo\nsn: Jo\n"
                    + "userPassword: secret12\n");
            Path bin = TestServer.repoRoot().resolve("bin");
            ChildProcess.Result imported = ChildProcess.run(LIMIT, List.of(bin.resolve("import-ldif").toString(),
                    "--instanceRoot", instance.toString(), "-l", ldif.toString()));
            assertEquals(imported.exitCode(), 0, imported.said());
            assertTrue(imported.output().contains("Imported 2 entries into backend userRoot and rejected 0"),
                    imported.said());
            Path out = instance.resolve("out.ldif");
            ChildProcess.Result exported = ChildProcess.run(LIMIT, List.of(bin.resolve("export-ldif").toString(),
                    "--instanceRoot", instance.toString(), "-l", out.toString()));
            assertEquals(exported.exitCode(), 0, exported.said());
            String text = Files.readString(out);
            assertTrue(text.contains("dn: uid=jo,dc=example,dc=com\n"), text);
            assertTrue(text.contains("userPassword: {SSHA512}"), "hashed on import: " + text);
            assertFalse(text.contains("secret12"), text);

            ChildProcess.Result usage = ChildProcess.run(LIMIT, List.of(bin.resolve("import-ldif").toString(),
                    "--instanceRoot", instance.toString()));
            assertEquals(usage.exitCode(), 2, usage.said());
        } finally {
            TestServer.deleteTree(instance);
        }
    }
}
