package io.bindfirst.server.pwd;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertFalse;
import static org.testng.Assert.assertNotEquals;
import static org.testng.Assert.assertThrows;
import static org.testng.Assert.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.concurrent.TimeUnit;

import org.bouncycastle.crypto.generators.Argon2BytesGenerator;
import org.bouncycastle.crypto.params.Argon2Parameters;
import org.forgerock.opendj.ldap.ByteString;
import org.testng.SkipException;
import org.testng.annotations.DataProvider;
import org.testng.annotations.Test;

public class Argon2SchemeTest {

    private static final Argon2Scheme SCHEME = new Argon2Scheme();

    /**
     * Made with the reference {@code argon2} tool (Debian's package argon2): the command is on each line. RFC
     * 9106's test vectors are not used: they include a secret key and associated data, which PHC strings (and so
     * this scheme) cannot carry.
     */
    private static final String ID =
            "$argon2id$v=19$m=4096,t=2,p=1$c29tZXNhbHQ$TLXwQYTTzWKDFfWHDyPKbh8ksZXGxatok7fsfJt7L+o";

    @DataProvider
    public Object[][] knownAnswers() {
        return new Object[][] {
            // echo -n secret | argon2 somesalt -id -t 2 -m 12 -p 1 -e
            {"secret", ID},
            // echo -n secret | argon2 saltsalt -i -t 3 -m 10 -p 2 -e
            {"secret", "$argon2i$v=19$m=1024,t=3,p=2$c2FsdHNhbHQ$lqZJSqeu70a+R/ZCaMB4kaC+dMcQUBHCXR08M5CloIY"},
            // published: a value in 389 Directory Server's pwdchan unit tests, password "password" (64 MiB)
            {"password",
                "$argon2id$v=19$m=65536,t=2,p=1$IyTQMsvzB2JHDiWx8fq7Ew$VhYOA7AL0kbRXI5g2kOyyp8St1epkNj7WZyUY4pAIQQ"},
            // echo -n secret | argon2 saltsalt -d -t 1 -m 8 -p 1 -e
            {"secret", "$argon2d$v=19$m=256,t=1,p=1$c2FsdHNhbHQ$GhydLGz6H7QkGxGzhtE1zhv9ThoE9FwX9HILkey6plQ"},
        };
    }

    private static ByteString utf8(String s) {
        return ByteString.valueOfUtf8(s);
    }

    @Test(dataProvider = "knownAnswers")
    public void knownAnswersMatchTheRightPasswordOnly(String password, String value) {
        assertTrue(SCHEME.matches(utf8(password), value));
        assertFalse(SCHEME.matches(utf8(password + "!"), value));
        assertFalse(SCHEME.matches(utf8("Secret"), value));
    }

    @Test
    public void theTypeAndParametersArePartOfTheCheck() {
        assertFalse(SCHEME.matches(utf8("secret"), ID.replace("argon2id", "argon2i")));
        assertFalse(SCHEME.matches(utf8("secret"), ID.replace("t=2", "t=3")));
        assertFalse(SCHEME.matches(utf8("secret"), ID.replace("m=4096", "m=4097")));
    }

    @Test
    public void encodingWithAGivenSaltReproducesTheToolsAnswer() {
        assertEquals(SCHEME.encodeValue(utf8("secret"), "somesalt".getBytes(StandardCharsets.US_ASCII),
                Argon2Parameters.ARGON2_id, 4096, 2, 1), ID);
    }

    @Test
    public void roundTripWithTheDefaults() {
        String first = SCHEME.encodeValue(utf8("correct horse"));
        String second = SCHEME.encodeValue(utf8("correct horse"));
        assertTrue(first.startsWith("$argon2id$v=19$m=19456,t=2,p=1$"), first);
        assertNotEquals(first, second, "each encoding has its own salt");
        assertTrue(SCHEME.matches(utf8("correct horse"), first));
        // One hash character changed, well before the end: the last one carries padding bits, and replacing the
        // last two with fixed ones left the hash's bytes unchanged about once in a thousand runs.
        int at = first.length() - 10;
        char other = first.charAt(at) == 'A' ? 'B' : 'A';
        assertFalse(SCHEME.matches(utf8("correct horse"), first.substring(0, at) + other + first.substring(at + 1)));
        assertEquals(SCHEME.workFactor(first), 4L * 19456 * 2);
    }

    @Test
    public void theWorkFactorGrowsWithMemoryAndPasses() {
        assertEquals(SCHEME.workFactor(ID), 4L * 4096 * 2);
        assertEquals(SCHEME.workFactor("$argon2id$v=19$m=262144,t=9,p=4$c29tZXNhbHQ$TLXwQYTTzWKDFfWHDyPKbh8"),
                4L * 262144 * 9);
        assertEquals(SCHEME.workFactor("$argon2id$v=19$m=262144,t=10,p=4$c29tZXNhbHQ$TLXwQYTTzWKDFfWHDyPKbh8"), 1,
                "beyond the work cap: refused, so no work");
        assertEquals(SCHEME.workFactor("garbage"), 1);
        assertEquals(SCHEME.workFactor(null), 1);
    }

    /**
     * A stored value asking for more memory than the bound must be refused before anything is allocated: 4 GiB
     * cannot be allocated by this test's heap, so a missing bound fails with an error rather than quietly.
     */
    @Test(timeOut = 5_000)
    public void hugeMemoryOrTimeIsRefusedWithoutDoingTheWork() {
        String[] huge = {
            ID.replace("m=4096", "m=4194304"),                 // 4 GiB
            ID.replace("m=4096", "m=262145"),                  // just above 256 MiB
            ID.replace("m=4096", "m=2147483648"),              // overflows an int
            ID.replace("t=2", "t=100000"),
            ID.replace("p=1", "p=65"),
        };
        for (String value : huge) {
            assertFalse(SCHEME.matches(utf8("secret"), value), value);
        }
    }

    /** A value that would match, but asks for one KiB more than the bound: computed here with Bouncy Castle. */
    @Test(timeOut = 10_000)
    public void aCorrectValueAboveTheMemoryBoundDoesNotMatch() {
        int memory = Argon2Scheme.MAX_MEMORY_KIB + 1;
        byte[] salt = "somesalt".getBytes(StandardCharsets.US_ASCII);
        Argon2BytesGenerator generator = new Argon2BytesGenerator();
        generator.init(new Argon2Parameters.Builder(Argon2Parameters.ARGON2_id).withVersion(0x13)
                .withMemoryAsKB(memory).withIterations(1).withParallelism(1).withSalt(salt).build());
        byte[] tag = new byte[32];
        generator.generateBytes("secret".getBytes(StandardCharsets.US_ASCII), tag);
        Base64.Encoder b64 = Base64.getEncoder().withoutPadding();
        String value = "$argon2id$v=19$m=" + memory + ",t=1,p=1$" + b64.encodeToString(salt) + "$"
                + b64.encodeToString(tag);
        assertFalse(SCHEME.matches(utf8("secret"), value));
        assertEquals(SCHEME.workFactor(value), 1);
    }

    @Test
    public void malformedValuesDoNotMatchNorThrow() {
        String[] malformed = {
            "", "$", "$$$$$", "argon2id$v=19$m=4096,t=2,p=1$c29tZXNhbHQ$TLXwQYTTzWKDFfWHDyPKbh8ksZXGxatok7fsfJt7L+o",
            ID.replace("argon2id", "argon2x"),
            ID.replace("argon2id", "ARGON2ID"),
            ID.replace("v=19", "v=16"),                         // version 1.0 is not read
            ID.replace("$v=19", ""),                            // no version
            ID.replace("m=4096,t=2,p=1", "t=2,m=4096,p=1"),      // out of order
            ID.replace("m=4096,t=2,p=1", "m=4096,t=2"),
            ID.replace("m=4096,t=2,p=1", "m=4096,t=2,p=1,x=1"),
            ID.replace("t=2", "t=0"),
            ID.replace("p=1", "p=0"),
            ID.replace("m=4096", "m=7"),                        // below 8 KiB per lane
            ID.replace("m=4096", "m=-1"),
            ID.replace("m=4096", "m="),
            ID.replace("c29tZXNhbHQ", "c29tZXNhbHQ="),          // padded
            ID.replace("c29tZXNhbHQ", "c29tZXNhbH"),            // broken base64
            ID.replace("c29tZXNhbHQ", "c29tZQ"),                // 4-byte salt, below 8
            ID.replace("c29tZXNhbHQ", "A".repeat(1500)),        // absurd salt
            ID.substring(0, ID.lastIndexOf('$') + 1),          // no tag
            ID.substring(0, ID.lastIndexOf('$') + 12),         // 8-byte tag, below 16
            ID + "$",
            ID + "A",                                          // a 33-byte tag: not the key
        };
        for (String value : malformed) {
            assertFalse(SCHEME.matches(utf8("secret"), value), value);
        }
        assertFalse(SCHEME.matches(null, ID));
        assertFalse(SCHEME.matches(ByteString.empty(), ID));
        assertFalse(SCHEME.matches(utf8("secret"), null));
    }

    @Test
    public void refusesToEncodeWithOutOfRangeParameters() {
        byte[] salt = new byte[16];
        assertThrows(IllegalArgumentException.class,
                () -> SCHEME.encodeValue(utf8("x"), new byte[4], Argon2Parameters.ARGON2_id, 4096, 2, 1));
        assertThrows(IllegalArgumentException.class,
                () -> SCHEME.encodeValue(utf8("x"), salt, Argon2Parameters.ARGON2_id, 1 << 20, 2, 1));
        assertThrows(IllegalArgumentException.class, () -> SCHEME.encodeValue(ByteString.empty()));
        assertEquals(SCHEME.name(), "ARGON2");
    }

    /**
     * Interoperability at test time: the reference tool hashes a fresh password, this scheme verifies it. Skipped
     * when the tool is not installed, unless {@code -Dldap.tools.required=true} (CI, which installs it).
     */
    @Test
    public void verifiesWhatTheInstalledArgon2ToolWrites() throws IOException, InterruptedException {
        Path tool = Path.of("/usr/bin/argon2");
        if (!Files.isExecutable(tool)) {
            if (Boolean.getBoolean("ldap.tools.required")) {
                throw new AssertionError("argon2 (Debian package argon2) is required but not installed");
            }
            throw new SkipException("the argon2 tool (Debian package argon2) is not installed");
        }
        String password = "p\u00e4ss-" + System.nanoTime();
        for (String type : new String[] {"-id", "-i", "-d"}) {
            String value = runTool(password, tool.toString(), "saltsaltsalt", type, "-t", "2", "-m", "10", "-p", "2",
                    "-e");
            assertTrue(value.startsWith("$argon2"), value);
            assertTrue(SCHEME.matches(utf8(password), value), value);
            assertFalse(SCHEME.matches(utf8(password + "x"), value), value);
        }
    }

    private static String runTool(String stdin, String... command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        try (OutputStream in = p.getOutputStream()) {
            in.write(stdin.getBytes(StandardCharsets.UTF_8));
        }
        if (!p.waitFor(30, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("timed out: " + String.join(" ", command));
        }
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        assertEquals(p.exitValue(), 0, out);
        return out;
    }
}
