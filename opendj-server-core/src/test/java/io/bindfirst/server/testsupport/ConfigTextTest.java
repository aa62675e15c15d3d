package io.bindfirst.server.testsupport;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertTrue;
import static org.testng.Assert.expectThrows;

import org.testng.annotations.Test;

public class ConfigTextTest {
    private static final ConfigText LDIF = ConfigText.of("""
            dn: cn=config
            ds-cfg-size-limit: 1000

            # a comment
            dn: cn=One,cn=config
            ds-cfg-enabled: true
            description: a long value
             folded on to a second line

            dn: cn=Two,cn=config
            ds-cfg-enabled: true
            """);

    @Test
    public void replaceChangesTextThatOccursOnce() {
        assertTrue(LDIF.replace("ds-cfg-size-limit: 1000", "ds-cfg-size-limit: 5").toString()
                .contains("dn: cn=config\nds-cfg-size-limit: 5\n"));
    }

    @Test
    public void replaceFailsNamingTheTextWhenItIsMissingOrAmbiguous() {
        AssertionError missing = expectThrows(AssertionError.class,
                () -> LDIF.replace("ds-cfg-size-limit: 2000", "ds-cfg-size-limit: 5"));
        assertEquals(missing.getMessage(), "config.ldif does not contain the text to replace: ds-cfg-size-limit: 2000");
        AssertionError twice = expectThrows(AssertionError.class,
                () -> LDIF.replace("ds-cfg-enabled: true", "ds-cfg-enabled: false"));
        assertTrue(twice.getMessage().contains("more than once: ds-cfg-enabled: true"), twice.getMessage());
    }

    @Test
    public void setChangesOneEntrysAttributeWhateverItsValue() {
        String two = LDIF.set("cn=Two,cn=config", "ds-cfg-enabled", "false").toString();
        assertTrue(two.contains("dn: cn=One,cn=config\nds-cfg-enabled: true\n"), two);
        assertTrue(two.endsWith("dn: cn=Two,cn=config\nds-cfg-enabled: false\n"), two);
        String folded = LDIF.set("cn=One,cn=config", "description", "short").toString();
        assertTrue(folded.contains("description: short\n\ndn: cn=Two"), folded);
    }

    @Test
    public void setFailsNamingTheEntryOrAttributeItCannotFind() {
        AssertionError noEntry = expectThrows(AssertionError.class,
                () -> LDIF.set("cn=Three,cn=config", "ds-cfg-enabled", "false"));
        assertEquals(noEntry.getMessage(), "config.ldif has no entry dn: cn=Three,cn=config");
        AssertionError noAttribute = expectThrows(AssertionError.class,
                () -> LDIF.set("cn=config", "ds-cfg-enabled", "false"));
        assertEquals(noAttribute.getMessage(),
                "entry cn=config of config.ldif has 0 'ds-cfg-enabled' lines; set needs exactly one");
    }
}
