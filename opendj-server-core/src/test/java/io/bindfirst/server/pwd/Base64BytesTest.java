package io.bindfirst.server.pwd;

import static org.testng.Assert.assertEquals;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Base64;
import java.util.Random;

import org.forgerock.opendj.ldap.ByteString;
import org.testng.annotations.Test;

/** {@link Base64Bytes} accepts and yields exactly what the JDK's basic decoder does. */
public class Base64BytesTest {

    /** The JDK's answer: the bytes, or null where it refuses the value. */
    private static byte[] jdk(String value) {
        try {
            return Base64.getDecoder().decode(value);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    /** This decoder's answer for {@code value} placed after {@code prefix} in a stored value. */
    private static byte[] ours(String prefix, String value) {
        ByteString stored = ByteString.valueOfUtf8(prefix + value);
        int from = prefix.getBytes(StandardCharsets.UTF_8).length;
        byte[] dst = new byte[Base64Bytes.maxDecodedLength(stored.length() - from)];
        int n = Base64Bytes.decode(stored, from, stored.length(), dst);
        return n < 0 ? null : Arrays.copyOf(dst, n);
    }

    private static void agree(String value) {
        byte[] expected = jdk(value);
        assertEquals(ours("", value), expected, "'" + value + "'");
        assertEquals(ours("{SSHA}", value), expected, "after a prefix: '" + value + "'");
    }

    @Test
    public void valuesOfTheRfcAndTheirPaddingsAgree() {
        for (String value : new String[] {"", "Zg==", "Zm8=", "Zm9v", "Zm9vYg==", "Zm9vYmE=", "Zm9vYmFy", "Zg", "Zm8",
            "Zm9vYg", "Zg=", "Zm8==", "Zg===", "=", "==", "Z", "Zm9vY", "Zm9v=", "Zg==Zg==", "Zm8=A", "Zg==\n",
            " Zm9v", "Zm9v ", "Zm-v", "Zm_v", "Zm9v\u00e9"}) {
            agree(value);
        }
    }

    @Test
    public void generatedValuesAgree() {
        Random random = new Random(7);
        String alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
        String odd = "==== \n-_!.\u00e9";
        for (int i = 0; i < 200_000; i++) {
            StringBuilder value = new StringBuilder();
            int length = random.nextInt(14);
            for (int j = 0; j < length; j++) {
                value.append(random.nextInt(6) == 0 ? odd.charAt(random.nextInt(odd.length()))
                        : alphabet.charAt(random.nextInt(alphabet.length())));
            }
            agree(value.toString());
        }
    }

    @Test
    public void encodedBytesComeBack() {
        Random random = new Random(11);
        for (int length = 0; length < 300; length++) {
            byte[] bytes = new byte[length];
            random.nextBytes(bytes);
            String encoded = Base64.getEncoder().encodeToString(bytes);
            assertEquals(ours("{SSHA}", encoded), bytes);
            assertEquals(ours("", encoded.replace("=", "")), bytes, "without padding");
        }
    }
}
