package io.bindfirst.tools;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import org.forgerock.opendj.ldap.DN;
import org.forgerock.opendj.ldap.Entry;
import org.forgerock.opendj.ldif.LDIFEntryReader;
import org.testng.annotations.AfterMethod;
import org.testng.annotations.BeforeMethod;
import org.testng.annotations.Test;

/** export-ldif, and the round trip through import-ldif, on real JE backends in temp instances. */
public class ExportLdifTest {
    private Instance first;
    private Instance second;

    @BeforeMethod
    public void create() throws IOException {
        first = Instance.create();
        second = Instance.create();
    }

    @AfterMethod(alwaysRun = true)
    public void delete() {
        first.close();
        second.close();
    }

    /** Users under ou=People and under a nested ou, clear-text and hashed passwords, a multi-valued attribute. */
    private Path sample() throws IOException {
        List<String> lines = ImportLdifTest.people();
        lines.addAll(List.of("dn: ou=Staff,ou=People,dc=example,dc=com", "objectClass: top",
                "objectClass: organizationalUnit", "ou: Staff", "description: first", "description: second", ""));
        for (int i = 0; i < 300; i++) {
            lines.addAll(ImportLdifTest.person("user." + i, i % 2 == 0 ? "pw-" + i : ImportLdifTest.PRE_HASHED));
            lines.addAll(List.of("dn: uid=staff." + i + ",ou=Staff,ou=People,dc=example,dc=com",
                    "objectClass: top", "objectClass: person", "objectClass: organizationalPerson",
                    "objectClass: inetOrgPerson", "uid: staff." + i, "cn: Staff " + i, "sn: " + i, ""));
        }
        return first.write("sample.ldif", lines.toArray(String[]::new));
    }

    @Test
    public void anImportOfAnExportGivesTheSameData() throws Exception {
        ToolRun imported = ToolRun.importLdif(first.args("-l", sample().toString()));
        assertEquals(imported.exitCode(), 0, imported.said());
        Path a = first.file("a.ldif");
        ToolRun exported = ToolRun.exportLdif(first.args("-l", a.toString()));
        assertEquals(exported.exitCode(), 0, exported.said());
        assertTrue(exported.out().startsWith("Exported 603 entries of backend userRoot to " + a), exported.said());

        ToolRun again = ToolRun.importLdif(second.args("-l", a.toString()));
        assertEquals(again.exitCode(), 0, again.said());
        Path b = second.file("b.ldif");
        assertEquals(ToolRun.exportLdif(second.args("-l", b.toString())).exitCode(), 0);
        assertEquals(Files.readString(b), Files.readString(a), "export, import, export: the same file");

        List<Entry> entries = read(a);
        assertEquals(entries.size(), 603);
        Set<DN> seen = new HashSet<>();
        for (Entry e : entries) {
            assertTrue(seen.isEmpty() || seen.contains(e.getName().parent()), e.getName() + " before its parent");
            seen.add(e.getName());
            assertTrue(e.containsAttribute("entryUUID"), e.getName() + " keeps its entryUUID");
        }
        Entry user = entries.stream().filter(e -> e.getName().equals(DN.valueOf(
                "uid=user.2,ou=People,dc=example,dc=com"))).findFirst().orElseThrow();
        assertTrue(user.parseAttribute("userPassword").asString().startsWith("{SSHA512}"), user.toString());
    }

    @Test
    public void anEmptyBackendExportsAnEmptyFile() throws Exception {
        Path out = first.file("empty.ldif");
        ToolRun run = ToolRun.exportLdif(first.args("-l", out.toString()));
        assertEquals(run.exitCode(), 0, run.said());
        assertTrue(run.out().startsWith("Exported 0 entries"), run.said());
        assertEquals(Files.size(out), 0L);
    }

    @Test
    public void usageAndFailures() {
        ToolRun noFile = ToolRun.exportLdif(first.args());
        assertEquals(noFile.exitCode(), 2, noFile.said());
        ToolRun unwritable = ToolRun.exportLdif(first.args("-l", first.file("no/such/dir/out.ldif").toString()));
        assertEquals(unwritable.exitCode(), 1, unwritable.said());
        assertTrue(unwritable.err().startsWith("export-ldif: Cannot write " + first.file("no/such/dir/out.ldif")),
                unwritable.said());
    }

    private static List<Entry> read(Path file) throws IOException {
        List<Entry> out = new ArrayList<>();
        try (InputStream in = Files.newInputStream(file); LDIFEntryReader r = new LDIFEntryReader(in)) {
            while (r.hasNext()) {
                out.add(r.readEntry());
            }
        }
        return out;
    }
}
