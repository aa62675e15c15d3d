package io.bindfirst.tools;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.testng.annotations.AfterMethod;
import org.testng.annotations.BeforeMethod;
import org.testng.annotations.Test;

/**
 * verify-index on a real JE backend: nothing to report after an import; after the schema changed under an
 * index (surname's matching rule made case-exact, so the keys stored for mixed-case values are no longer the
 * ones the entries call for), each such value named both ways, exit 3; usage and refusals.
 */
public class VerifyIndexTest {
    private Instance instance;

    @BeforeMethod
    public void create() throws IOException {
        instance = Instance.create();
        Path ldif = instance.write("in.ldif", ImportLdifTest.people("Ann.Lee", "BOB", "carol").toArray(String[]::new));
        ToolRun imported = ToolRun.importLdif(instance.args("-l", ldif.toString()));
        assertEquals(imported.exitCode(), 0, imported.said());
    }

    @AfterMethod(alwaysRun = true)
    public void delete() {
        instance.close();
    }

    @Test
    public void anImportedBackendHasNoProblems() {
        ToolRun run = verifyIndex(instance.args());
        assertEquals(run.exitCode(), 0, run.said());
        assertTrue(run.out().startsWith("Backend userRoot: 5 entries, no problems found"), run.said());
    }

    @Test
    public void indexKeysTheEntriesNoLongerCallForAreListed() throws IOException {
        Path core = instance.root().resolve("config/schema/00-core.ldif");
        String schema = Files.readString(core);
        String sn = "attributeTypes: ( 2.5.4.4 NAME ( 'sn' 'surname' )\n  SUP name\n";
        assertTrue(schema.contains(sn), "the shipped definition of sn changed: update this test");
        Files.writeString(core, schema.replace(sn, sn + "  EQUALITY caseExactMatch\n"));

        ToolRun run = verifyIndex(instance.args());
        assertEquals(run.exitCode(), VerifyIndex.PROBLEMS, run.said());
        List<String> lines = run.out().lines().toList();
        for (String uid : List.of("Ann.Lee", "BOB")) {
            String dn = "uid=" + uid + ",ou=People,dc=example,dc=com";
            assertTrue(lines.contains("index eq.sn lacks the value '" + uid + "' of " + dn), run.said());
            assertTrue(lines.stream().anyMatch(l -> l.matches("index eq\\.sn names entry \\d+ under '"
                    + uid.toLowerCase(java.util.Locale.ROOT).replace(".", "\\.") + "', a value " + dn
                    + " does not hold")), run.said());
        }
        assertTrue(lines.stream().noneMatch(l -> l.contains("carol")), "a lower-case value is the same key: "
                + run.said());
        assertTrue(lines.get(lines.size() - 1).startsWith("Backend userRoot: 5 entries, problems found"),
                run.said());
    }

    @Test
    public void usageAndRefusals() {
        ToolRun help = verifyIndex("--help");
        assertEquals(help.exitCode(), 0, help.said());
        assertTrue(help.out().contains("Exit codes:") && help.out().contains("problems were found"), help.said());
        ToolRun wrong = verifyIndex("--no-such-option");
        assertEquals(wrong.exitCode(), Tools.USAGE, wrong.said());
        ToolRun missing = verifyIndex(instance.args("-n", "noSuchBackend"));
        assertEquals(missing.exitCode(), Tools.FAILED, missing.said());
        assertTrue(missing.err().startsWith("verify-index: There is no enabled backend 'noSuchBackend'"),
                missing.said());
    }

    private static ToolRun verifyIndex(String... args) {
        return ToolRun.run(new VerifyIndex(), args);
    }
}
