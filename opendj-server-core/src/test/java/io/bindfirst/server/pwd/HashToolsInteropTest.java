package io.bindfirst.server.pwd;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertFalse;
import static org.testng.Assert.assertTrue;

import java.util.UUID;

import org.forgerock.opendj.ldap.ByteString;
import org.testng.annotations.DataProvider;
import org.testng.annotations.Test;

import io.bindfirst.server.testsupport.HashTools;

/**
 * Values the real tools make now, with a fresh password each run: slappasswd (Debian's slapd), openssl and
 * htpasswd (apache2-utils). Skipped when a tool is missing, unless {@code ldap.tools.required} is true.
 */
public class HashToolsInteropTest {

    private static final PasswordSchemes SCHEMES = new PasswordSchemes("SSHA512", false);

    private static ByteString utf8(String s) {
        return ByteString.valueOfUtf8(s);
    }

    /** A password nobody wrote down, with a space and a non-ASCII letter. */
    private static String freshPassword() {
        return "p\u00e4ss " + UUID.randomUUID().toString().substring(0, 8);
    }

    @DataProvider
    public Object[][] slappasswdFormats() {
        return new Object[][] {
            {"{SHA}", null}, {"{MD5}", null}, {"{SMD5}", null}, {"{SSHA}", null},
            {"{CRYPT}", "$1$%.8s"}, {"{CRYPT}", "$5$%.16s"}, {"{CRYPT}", "$5$rounds=12000$%.16s"},
            {"{CRYPT}", "$6$%.16s"}, {"{CRYPT}", "$6$rounds=5000$%.16s"},
            {"{CRYPT}", "$2a$05$%.22s"}, {"{CRYPT}", "$2b$05$%.22s"}, {"{CRYPT}", "$2y$05$%.22s"},
        };
    }

    @Test(dataProvider = "slappasswdFormats")
    public void slappasswdValuesVerify(String scheme, String cryptFormat) throws Exception {
        String tool = HashTools.require("slappasswd", "slapd");
        String password = freshPassword();
        String stored = cryptFormat == null
                ? HashTools.run(tool, "-h", scheme, "-s", password)
                : HashTools.run(tool, "-h", scheme, "-c", cryptFormat, "-s", password);
        assertTrue(stored.startsWith(scheme), stored);
        assertVerifiesOnly(password, stored);
    }

    @Test
    public void slappasswdDesCryptVerifies() throws Exception {
        String tool = HashTools.require("slappasswd", "slapd");
        String stored = HashTools.run(tool, "-h", "{CRYPT}", "-c", "%.2s", "-s", "8chars!?");
        assertEquals(stored.length(), "{CRYPT}".length() + 13, stored);
        assertTrue(SCHEMES.verify(utf8("8chars!?"), utf8(stored)), stored);
        assertFalse(SCHEMES.verify(utf8("9chars!?"), utf8(stored)), stored);
        assertFalse(SCHEMES.verify(utf8("8chars!"), utf8(stored)), stored);
    }

    @DataProvider
    public Object[][] opensslFormats() {
        return new Object[][] {{"-1"}, {"-5"}, {"-6"}};
    }

    @Test(dataProvider = "opensslFormats")
    public void opensslValuesVerify(String format) throws Exception {
        String tool = HashTools.require("openssl", "openssl");
        String password = freshPassword();
        assertVerifiesOnly(password, "{CRYPT}" + HashTools.run(tool, "passwd", format, password));
    }

    /** The other way round: openssl, given the salt of a value this server wrote, writes the same value. */
    @Test(dataProvider = "opensslFormats")
    public void opensslRecomputesValuesThisServerWrites(String format) throws Exception {
        String tool = HashTools.require("openssl", "openssl");
        CryptFormat cryptFormat = format.equals("-1") ? CryptFormat.MD5
                : format.equals("-5") ? CryptFormat.SHA256 : CryptFormat.SHA512;
        String password = freshPassword();
        String ours = CryptScheme.crypt(cryptFormat).encodeValue(utf8(password));
        String salt = ours.substring(3, ours.lastIndexOf('$'));
        assertEquals(HashTools.run(tool, "passwd", format, "-salt", salt, password), ours);
    }

    @Test
    public void htpasswdBcryptVerifiesAsCryptAndAsBcrypt() throws Exception {
        String tool = HashTools.require("htpasswd", "apache2-utils");
        String password = freshPassword();
        String line = HashTools.run(tool, "-nbB", "-C", "5", "user", password);
        String hash = line.substring(line.indexOf(':') + 1);
        assertTrue(hash.startsWith("$2y$05$"), hash);
        assertVerifiesOnly(password, "{CRYPT}" + hash);
        assertVerifiesOnly(password, "{BCRYPT}" + hash);
    }

    private static void assertVerifiesOnly(String password, String stored) {
        assertTrue(SCHEMES.verify(utf8(password), utf8(stored)), stored);
        assertFalse(SCHEMES.verify(utf8(password + "x"), utf8(stored)), stored);
        assertFalse(SCHEMES.verify(utf8("x" + password), utf8(stored)), stored);
    }
}
