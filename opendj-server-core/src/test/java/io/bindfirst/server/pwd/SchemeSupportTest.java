package io.bindfirst.server.pwd;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertFalse;
import static org.testng.Assert.assertNull;
import static org.testng.Assert.assertThrows;

import java.util.Arrays;

import org.forgerock.opendj.ldap.ByteString;
import org.testng.annotations.Test;

public class SchemeSupportTest {

    @Test
    public void decodesStandardBase64() {
        assertEquals(SchemeSupport.decodeBase64("AQID/w=="), new byte[] {1, 2, 3, (byte) 0xff});
        assertEquals(SchemeSupport.decodeBase64("c2FsdA=="), "salt".getBytes());
        assertEquals(SchemeSupport.decodeBase64(""), new byte[0]);
    }

    @Test
    public void malformedBase64IsNull() {
        assertNull(SchemeSupport.decodeBase64("!!!!"));
        assertNull(SchemeSupport.decodeBase64("AQID/w="));      // wrong padding
        assertNull(SchemeSupport.decodeBase64("A"));            // a lone sextet is not a byte
        assertNull(SchemeSupport.decodeBase64("AQID\n/w=="));   // line breaks are not allowed
        assertNull(SchemeSupport.decodeBase64("AQID_w=="));     // URL-safe alphabet is not ours
        assertNull(SchemeSupport.decodeBase64("AQ\u00e9D"));    // non-ASCII
    }

    @Test
    public void encodeRoundTrips() {
        byte[] bytes = {0, 1, (byte) 0x80, (byte) 0xfe, (byte) 0xff};
        assertEquals(SchemeSupport.decodeBase64(SchemeSupport.encodeBase64(bytes)), bytes);
        assertEquals(SchemeSupport.encodeBase64("salt".getBytes()), "c2FsdA==");
    }

    @Test
    public void randomSaltHasTheLengthAskedForAndVaries() {
        byte[] a = SchemeSupport.randomSalt(16);
        byte[] b = SchemeSupport.randomSalt(16);
        assertEquals(a.length, 16);
        assertEquals(SchemeSupport.randomSalt(4).length, 4);
        assertFalse(Arrays.equals(a, b), "two 128-bit salts should not collide");
    }

    @Test
    public void emptyOrNullPasswordIsRefused() {
        assertThrows(NullPointerException.class, () -> SchemeSupport.requireNonEmptyPassword(null));
        assertThrows(IllegalArgumentException.class,
                () -> SchemeSupport.requireNonEmptyPassword(ByteString.empty()));
        SchemeSupport.requireNonEmptyPassword(ByteString.valueOfUtf8("x"));
    }
}
