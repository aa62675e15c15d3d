package io.bindfirst.server.pwd;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertFalse;
import static org.testng.Assert.assertThrows;
import static org.testng.Assert.assertTrue;

import org.forgerock.opendj.ldap.ByteString;
import org.testng.annotations.DataProvider;
import org.testng.annotations.Test;

/** The contract of {@link PasswordStorageScheme}, checked on every scheme the server knows. */
public class PasswordStorageSchemeTest {

    @DataProvider
    public Object[][] allSchemes() {
        PasswordSchemes schemes = new PasswordSchemes("SSHA", false);
        return schemes.names().stream()
                .map(name -> new Object[] {schemes.scheme(name).orElseThrow()})
                .toArray(Object[][]::new);
    }

    @Test
    public void everySchemeIsCovered() {
        assertEquals(allSchemes().length, 17);
    }

    @Test(dataProvider = "allSchemes")
    public void nameIsCanonicalAndWithoutBraces(PasswordStorageScheme scheme) {
        String name = scheme.name();
        assertFalse(name.isEmpty());
        assertEquals(name, name.toUpperCase());
        assertFalse(name.contains("{") || name.contains("}"), name);
    }

    @Test(dataProvider = "allSchemes")
    public void encodedValuesMatchTheirPasswordOnly(PasswordStorageScheme scheme) {
        ByteString password = ByteString.valueOfUtf8("Tr0ub4dor&3");
        String encoded = scheme.encodeValue(password);
        assertTrue(scheme.matches(password, encoded));
        assertFalse(scheme.matches(ByteString.valueOfUtf8("Tr0ub4dor&4"), encoded));
        assertFalse(scheme.matches(ByteString.valueOfUtf8("Tr0ub4dor&"), encoded));
        assertFalse(encoded.contains("Tr0ub4dor"), "the encoded value must not reveal the password");
        assertFalse(encoded.startsWith("{"), "the prefix is not part of the encoded value");
    }

    @Test(dataProvider = "allSchemes")
    public void neverThrowsFromMatches(PasswordStorageScheme scheme) {
        ByteString password = ByteString.valueOfUtf8("secret");
        String[] junk = {"", "{", "}", ":", "=", "====", "\u0000", "\u00ff\u00fe", "\uD800", "a:b:c", "1:!", "1:"};
        for (String value : junk) {
            assertFalse(scheme.matches(password, value), "'" + value + "'");
        }
        assertFalse(scheme.matches(null, null));
        assertFalse(scheme.matches(ByteString.empty(), ""));
    }

    @Test(dataProvider = "allSchemes")
    public void refusesToEncodeEmptyPasswords(PasswordStorageScheme scheme) {
        assertThrows(IllegalArgumentException.class, () -> scheme.encodeValue(ByteString.empty()));
    }

    @Test(dataProvider = "allSchemes")
    public void toStringNamesTheScheme(PasswordStorageScheme scheme) {
        assertTrue(scheme.toString().contains(scheme.getClass().getSimpleName()), scheme.toString());
    }
}
