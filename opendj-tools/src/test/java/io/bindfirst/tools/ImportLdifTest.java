package io.bindfirst.tools;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertFalse;
import static org.testng.Assert.assertNotNull;
import static org.testng.Assert.assertNull;
import static org.testng.Assert.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.forgerock.opendj.ldap.ByteString;
import org.forgerock.opendj.ldap.DN;
import org.forgerock.opendj.ldap.Entry;
import org.forgerock.opendj.ldap.Filter;
import org.forgerock.opendj.ldap.SearchScope;
import org.testng.annotations.AfterMethod;
import org.testng.annotations.BeforeMethod;
import org.testng.annotations.Test;

import io.bindfirst.server.backend.Backend;
import io.bindfirst.server.pwd.PasswordAttribute;
import io.bindfirst.server.pwd.PasswordSchemes;
import io.bindfirst.server.pwd.Pacer;

/** import-ldif run as its main runs it, on a real JE backend in a temp instance. */
public class ImportLdifTest {
    /** {SSHA} of "password" with the salt "12345678": a value an import must keep byte for byte. */
    static final String PRE_HASHED = "{SSHA}Ixeqctr6CgfwWvR7qi44j5Xc9vMxMjM0NTY3OA==";

    private Instance instance;

    @BeforeMethod
    public void create() throws IOException {
        instance = Instance.create();
    }

    @AfterMethod(alwaysRun = true)
    public void delete() {
        instance.close();
    }

    /** The suffix, ou=People, then one inetOrgPerson per name. */
    static List<String> people(String... uids) {
        List<String> lines = new ArrayList<>(List.of(
                "dn: dc=example,dc=com", "objectClass: top", "objectClass: domain", "dc: example", "",
                "dn: ou=People,dc=example,dc=com", "objectClass: top", "objectClass: organizationalUnit",
                "ou: People", ""));
        for (String uid : uids) {
            lines.addAll(person(uid, "password"));
        }
        return lines;
    }

    static List<String> person(String uid, String password) {
        return List.of("dn: uid=" + uid + ",ou=People,dc=example,dc=com", "objectClass: top",
                "objectClass: person", "objectClass: organizationalPerson", "objectClass: inetOrgPerson",
                "uid: " + uid, "cn: " + uid, "sn: " + uid, "mail: " + uid + "@example.com",
                "userPassword: " + password, "");
    }

    private Path ldif(List<String> lines) throws IOException {
        return instance.write("in.ldif", lines.toArray(String[]::new));
    }

    @Test
    public void importsEveryEntryWithItsIndexes() throws Exception {
        Path in = ldif(people("alice", "bob", "carol"));
        ToolRun run = ToolRun.importLdif(instance.args("-l", in.toString()));
        assertEquals(run.exitCode(), 0, run.said());
        assertTrue(run.out().contains("Imported 5 entries into backend userRoot and rejected 0"), run.said());
        assertEquals(run.err(), "", run.said());

        try (OfflineBackend b = open()) {
            Backend backend = b.backend();
            assertEquals(backend.maintenance().entryCount(), 5);
            Filter byMail = Filter.valueOf("(mail=BOB@example.com)");
            assertFalse(backend.isUnindexed(byMail), "mail has an equality index in the shipped configuration");
            List<DN> found = new ArrayList<>();
            backend.search(DN.valueOf("dc=example,dc=com"), SearchScope.WHOLE_SUBTREE, byMail,
                    e -> found.add(e.getName()));
            assertEquals(found, List.of(DN.valueOf("uid=bob,ou=People,dc=example,dc=com")));
            Entry bob = backend.getEntry(DN.valueOf("uid=bob,ou=People,dc=example,dc=com"));
            assertEquals(bob.parseAttribute("entryUUID").asString(), bob.getName().toUUID().toString(),
                    "an entry without entryUUID gets the one its DN gives, as OpenDJ's import does");
        }
    }

    /** RFC 4512 3.3, as an add over LDAP: an entry listing inetOrgPerson alone is a person too (slapcat's output). */
    @Test
    public void superclassesAreAddedToEntriesThatDoNotListThem() throws Exception {
        List<String> lines = people();
        lines.addAll(List.of("dn: uid=terse,ou=People,dc=example,dc=com", "objectClass: inetOrgPerson",
                "uid: terse", "cn: terse", "sn: terse", ""));
        ToolRun run = ToolRun.importLdif(instance.args("-l", ldif(lines).toString()));
        assertEquals(run.exitCode(), 0, run.said());
        try (OfflineBackend b = open()) {
            Entry terse = b.backend().getEntry(DN.valueOf("uid=terse,ou=People,dc=example,dc=com"));
            List<String> classes = new ArrayList<>();
            terse.parseAttribute("objectClass").asSetOfString().forEach(classes::add);
            assertEquals(classes, List.of("inetOrgPerson", "organizationalPerson", "person", "top"));
            List<DN> found = new ArrayList<>();
            b.backend().search(DN.valueOf("ou=People,dc=example,dc=com"), SearchScope.SINGLE_LEVEL,
                    Filter.valueOf("(&(objectClass=person)(uid=terse))"), e -> found.add(e.getName()));
            assertEquals(found.size(), 1);
        }
    }

    @Test
    public void clearTextPasswordsAreHashedWithTheDefaultSchemeAndHashesAreKept() throws Exception {
        List<String> lines = people();
        lines.addAll(person("clear", "s3cret-Pass"));
        lines.addAll(person("hashed", PRE_HASHED));
        ToolRun run = ToolRun.importLdif(instance.args("-l", ldif(lines).toString()));
        assertEquals(run.exitCode(), 0, run.said());

        try (OfflineBackend b = open()) {
            PasswordSchemes schemes = new PasswordSchemes(b.config().passwords().defaultScheme(), false);
            PasswordAttribute passwords = new PasswordAttribute(b.schema(), schemes);
            Entry clear = b.backend().getEntry(DN.valueOf("uid=clear,ou=People,dc=example,dc=com"));
            ByteString stored = passwords.storedValues(clear).iterator().next();
            assertEquals(b.config().passwords().defaultScheme(), "SSHA512", "the shipped default");
            assertTrue(stored.toString().startsWith("{SSHA512}"), stored.toString());
            assertTrue(passwords.anyMatches(clear, ByteString.valueOfUtf8("s3cret-Pass"), Pacer.NONE));
            assertFalse(passwords.anyMatches(clear, ByteString.valueOfUtf8("s3cret-pass"), Pacer.NONE));

            Entry hashed = b.backend().getEntry(DN.valueOf("uid=hashed,ou=People,dc=example,dc=com"));
            assertEquals(passwords.storedValues(hashed).iterator().next().toString(), PRE_HASHED);
            assertTrue(passwords.anyMatches(hashed, ByteString.valueOfUtf8("password"), Pacer.NONE));
        }
    }

    @Test
    public void badRecordsAreRejectedWithTheirLineAndReasonAndTheRestIsImported() throws Exception {
        List<String> lines = people();                                  // lines 1-10
        lines.addAll(List.of("dn: uid=bad,ou=People,dc=example,dc=com", // 11
                "objectClass: inetOrgPerson",                           // 12
                "this line has no colon",                               // 13
                "cn: Bad", ""));                                        // 14, 15
        lines.addAll(List.of("dn: uid=nosn,ou=People,dc=example,dc=com", // 16
                "objectClass: top", "objectClass: person", "uid: nosn", "cn: No Surname", "")); // 17-21
        lines.addAll(List.of("# an orphan",                              // 22
                "dn: uid=orphan,ou=Missing,dc=example,dc=com",           // 23
                "objectClass: top", "objectClass: person", "objectClass: inetOrgPerson", // 24-26
                "cn: Orphan", "sn: Orphan", "uid: orphan", ""));         // 27-30
        lines.addAll(person("alice", "password"));                      // 31-41
        Path rejects = instance.file("rejects.ldif");
        ToolRun run = ToolRun.importLdif(instance.args("-l", ldif(lines).toString(), "-R", rejects.toString()));

        assertEquals(run.exitCode(), 1, "some records were rejected: " + run.said());
        assertTrue(run.out().contains("Imported 3 entries into backend userRoot and rejected 3"), run.said());
        assertTrue(run.err().contains("Rejected the record at line 13: "), run.said());
        String rejected = Files.readString(rejects);
        assertTrue(rejected.contains("# Rejected: line 13: Unable to parse LDIF entry starting at line 11 because "
                + "the line \"this line has no colon\" does not include an attribute name\ndn: uid=bad,"), rejected);
        assertTrue(rejected.contains("# Rejected: line 16: Entry uid=nosn,ou=People,dc=example,dc=com violates the "
                + "schema"), rejected);
        assertTrue(rejected.contains("required attribute sn is missing (objectClass person)"), rejected);
        assertTrue(rejected.contains("# Rejected: line 23: The entry uid=orphan,ou=Missing,dc=example,dc=com cannot "
                + "be added because its parent entry ou=Missing,dc=example,dc=com does not exist\n# an orphan\n"
                + "dn: uid=orphan,ou=Missing,dc=example,dc=com\n"), rejected);

        try (OfflineBackend b = open()) {
            assertEquals(b.backend().maintenance().entryCount(), 3);
            assertNotNull(b.backend().getEntry(DN.valueOf("uid=alice,ou=People,dc=example,dc=com")));
            assertNull(b.backend().getEntry(DN.valueOf("uid=nosn,ou=People,dc=example,dc=com")));
        }
    }

    @Test
    public void entriesAlreadyThereAreRejectedUnlessTheBackendIsCleared() throws Exception {
        Path in = ldif(people("alice"));
        assertEquals(ToolRun.importLdif(instance.args("-l", in.toString())).exitCode(), 0);
        ToolRun again = ToolRun.importLdif(instance.args("-l", in.toString()));
        assertEquals(again.exitCode(), 1, again.said());
        assertTrue(again.out().contains("Imported 0 entries into backend userRoot and rejected 3"), again.said());
        assertTrue(again.err().contains("The entry dc=example,dc=com already exists"), again.said());

        Path other = instance.write("other.ldif", people("bob").toArray(String[]::new));
        ToolRun cleared = ToolRun.importLdif(instance.args("-l", other.toString(), "--clearBackend"));
        assertEquals(cleared.exitCode(), 0, cleared.said());
        try (OfflineBackend b = open()) {
            assertEquals(b.backend().maintenance().entryCount(), 3);
            assertNull(b.backend().getEntry(DN.valueOf("uid=alice,ou=People,dc=example,dc=com")));
            List<DN> found = new ArrayList<>();
            b.backend().search(DN.valueOf("dc=example,dc=com"), SearchScope.WHOLE_SUBTREE,
                    Filter.valueOf("(uid=alice)"), e -> found.add(e.getName()));
            assertEquals(found, List.of(), "the cleared entries left nothing in the indexes");
        }
    }

    @Test
    public void usageErrorsExitWith2AndFailuresWith1() throws Exception {
        ToolRun noFile = ToolRun.importLdif(instance.args());
        assertEquals(noFile.exitCode(), 2, noFile.said());
        assertTrue(noFile.err().contains("Missing required option: '--ldifFile=FILE'"), noFile.said());

        ToolRun unknown = ToolRun.importLdif(instance.args("-l", "x.ldif", "--append"));
        assertEquals(unknown.exitCode(), 2, unknown.said());
        assertTrue(unknown.err().contains("Unknown option: '--append'"), unknown.said());

        ToolRun missing = ToolRun.importLdif(instance.args("-l", instance.file("nowhere.ldif").toString()));
        assertEquals(missing.exitCode(), 1, missing.said());
        assertEquals(missing.err(), "import-ldif: The LDIF file " + instance.file("nowhere.ldif")
                + " does not exist or cannot be read\n");

        Path in = ldif(people());
        ToolRun noBackend = ToolRun.importLdif(instance.args("-l", in.toString(), "-n", "nope"));
        assertEquals(noBackend.exitCode(), 1, noBackend.said());
        assertTrue(noBackend.err().startsWith("import-ldif: There is no enabled backend 'nope' in "), noBackend.said());
        assertTrue(noBackend.err().contains("the backends are: userRoot"), noBackend.said());

        ToolRun noConfig = ToolRun.importLdif("-l", in.toString(), "--configFile",
                instance.file("missing.ldif").toString());
        assertEquals(noConfig.exitCode(), 1, noConfig.said());
        assertTrue(noConfig.err().contains("does not exist"), noConfig.said());
        assertFalse(noConfig.said().contains("\tat "), "no stack trace: " + noConfig.said());
    }

    @Test
    public void helpNamesTheOptionsAndExitCodes() {
        ToolRun help = ToolRun.importLdif("--help");
        assertEquals(help.exitCode(), 0, help.said());
        for (String s : List.of("-l, --ldifFile=FILE", "-n, --backendID=ID", "-R, --rejectFile=FILE",
                "--clearBackend", "--configFile=FILE", "Exit codes:", "  2   the command line is wrong")) {
            assertTrue(help.out().contains(s), s + " in " + help.said());
        }
    }

    @Test
    public void aClearedImportIsSearchableByEachIndex() throws Exception {
        List<String> lines = people("alice", "bob", "carol");
        lines.addAll(List.of("dn: uid=orphan,ou=Missing,dc=example,dc=com", "objectClass: top",
                "objectClass: person", "cn: Orphan", "sn: Orphan", ""));
        Path rejects = instance.file("rejects.ldif");
        ToolRun run = ToolRun.importLdif(instance.args("-l", ldif(lines).toString(), "--clearBackend",
                "-R", rejects.toString()));
        assertEquals(run.exitCode(), 1, run.said());
        assertTrue(run.out().contains("Imported 5 entries into backend userRoot and rejected 1"), run.said());
        assertTrue(Files.readString(rejects).contains("dn: uid=orphan,ou=Missing,dc=example,dc=com"));

        try (OfflineBackend b = open()) {
            for (String filter : List.of("(uid=bob)", "(mail=BOB@example.com)", "(cn=Bob)", "(sn=bob)")) {
                assertFalse(b.backend().isUnindexed(Filter.valueOf(filter)), filter);
                assertEquals(found(b.backend(), filter), List.of(DN.valueOf("uid=bob,ou=People,dc=example,dc=com")),
                        filter);
            }
            assertEquals(found(b.backend(), "(objectClass=inetOrgPerson)").size(), 3);
        }
    }

    @Test
    public void anImportKilledBeforeItEndedIsRefusedUntilAClearedImportRunsAgain() throws Exception {
        List<String> lines = people();
        for (int i = 0; i < 2_000; i++) {
            lines.addAll(person("user." + i, PRE_HASHED));
        }
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> command = new ArrayList<>(List.of(java, "-Xmx256m", "-cp", System.getProperty("java.class.path"),
                ImportLdif.class.getName()));
        command.addAll(List.of(instance.args("-l", "/dev/stdin", "--clearBackend")));
        Process child = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(instance.file("child.out").toFile()).start();
        Path marker = instance.root().resolve("db/userRoot/bulk-load-unfinished");
        try {
            // The LDIF goes in, but its end never comes: the import stores what it got and waits for more.
            child.getOutputStream().write((String.join("\n", lines) + "\n").getBytes(StandardCharsets.UTF_8));
            child.getOutputStream().flush();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (!Files.exists(marker) && System.nanoTime() < deadline) {
                Thread.sleep(50);
            }
            assertTrue(Files.exists(marker), "the import did not start; see " + instance.file("child.out"));
            Thread.sleep(1_000);
            child.destroyForcibly(); // SIGKILL: the import never writes out what it loaded
            assertTrue(child.waitFor(30, TimeUnit.SECONDS));
        } finally {
            child.destroyForcibly();
        }

        ToolRun export = ToolRun.exportLdif(instance.args("-l", instance.file("out.ldif").toString()));
        assertEquals(export.exitCode(), 1, export.said());
        assertTrue(export.err().contains("stopped before it finished, so its data are incomplete; run that import "
                + "again"), export.said());
        ToolRun appended = ToolRun.importLdif(instance.args("-l", ldif(people("alice")).toString()));
        assertEquals(appended.exitCode(), 1, "only a cleared import may start again: " + appended.said());

        ToolRun again = ToolRun.importLdif(instance.args("-l", ldif(people("alice")).toString(), "--clearBackend"));
        assertEquals(again.exitCode(), 0, again.said());
        assertFalse(Files.exists(marker));
        try (OfflineBackend b = open()) {
            assertEquals(b.backend().maintenance().entryCount(), 3);
            assertEquals(found(b.backend(), "(uid=alice)"),
                    List.of(DN.valueOf("uid=alice,ou=People,dc=example,dc=com")));
        }
    }

    private static List<DN> found(Backend backend, String filter) throws Exception {
        List<DN> found = new ArrayList<>();
        backend.search(DN.valueOf("dc=example,dc=com"), SearchScope.WHOLE_SUBTREE, Filter.valueOf(filter),
                e -> found.add(e.getName()));
        return found;
    }

    private OfflineBackend open() throws ToolException {
        return OfflineBackend.open(instance.file("config/config.ldif"), instance.root(), "userRoot", false, 0);
    }
}
