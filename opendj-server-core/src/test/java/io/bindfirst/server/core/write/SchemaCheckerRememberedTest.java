package io.bindfirst.server.core.write;

import static io.bindfirst.server.core.write.WriteTests.entry;
import static io.bindfirst.server.core.write.WriteTests.schema;
import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertNull;
import static org.testng.Assert.assertTrue;
import static org.testng.Assert.fail;

import org.forgerock.opendj.ldap.Entry;
import org.testng.annotations.Test;

/**
 * Every check of {@link SchemaCheckerTest} again, through one {@link ObjectClassSets} that all of them share, each
 * entry checked twice (the second time from what the first remembered): the answers and messages must not change.
 */
public class SchemaCheckerRememberedTest extends SchemaCheckerTest {
    private final ObjectClassSets remembered = new ObjectClassSets(schema());

    @Override
    void check(Entry entry) throws WriteException {
        WriteException first = outcome(entry);
        WriteException second = outcome(entry);
        if (first == null) {
            assertNull(second, "passed, then refused with what was remembered");
            return;
        }
        assertTrue(second != null, "refused, then passed with what was remembered: " + first.getMessage());
        assertEquals(second.resultCode(), first.resultCode());
        assertEquals(second.getMessage(), first.getMessage());
        throw first;
    }

    private WriteException outcome(Entry entry) {
        try {
            SchemaChecker.check(entry, remembered);
            return null;
        } catch (WriteException e) {
            return e;
        }
    }

    @Test
    public void aDisallowedAttributeIsRefusedWhenItsClassesAreRemembered() throws WriteException {
        ObjectClassSets sets = new ObjectClassSets(schema());
        SchemaChecker.check(entry("dn: cn=a,dc=example,dc=com", "objectClass: person", "cn: a", "sn: a"), sets);
        assertEquals(sets.size(), 1);
        try {
            SchemaChecker.check(entry("dn: cn=b,dc=example,dc=com", "objectClass: person", "cn: b", "sn: b",
                    "mail: b@example.com"), sets);
            fail("mail is not allowed by person");
        } catch (WriteException e) {
            assertEquals(e.getMessage(), "Entry cn=b,dc=example,dc=com violates the schema: attribute mail is not "
                    + "allowed by its object classes (person)");
        }
        assertEquals(sets.size(), 1, "the same list of classes, remembered once");
    }

    @Test
    public void pastTheLimitEntriesAreStillCheckedButNoMoreListsRemembered() throws WriteException {
        ObjectClassSets sets = new ObjectClassSets(schema());
        for (int order = 0; order <= ObjectClassSets.LIMIT; order++) {
            // the same classes spelled in other cases are other lists
            SchemaChecker.check(entry("dn: uid=u" + order + ",dc=example,dc=com", "objectClass: person",
                    "objectClass: " + caseOf("extensibleObject", order), "cn: u", "sn: u", "uid: u" + order,
                    "mail: u@example.com"), sets);
        }
        assertEquals(sets.size(), ObjectClassSets.LIMIT);
        try {
            SchemaChecker.check(entry("dn: uid=v,dc=example,dc=com", "objectClass: person",
                    "objectClass: " + caseOf("extensibleObject", ObjectClassSets.LIMIT + 1), "cn: v", "uid: v"), sets);
            fail("sn is required by person");
        } catch (WriteException e) {
            assertTrue(e.getMessage().endsWith("required attribute sn is missing (objectClass person)"),
                    e.getMessage());
        }
    }

    /** {@code name} with its letters' cases given by the bits of {@code order}. */
    private static String caseOf(String name, int order) {
        StringBuilder spelled = new StringBuilder();
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            spelled.append((order >> i & 1) == 1 ? Character.toUpperCase(c) : Character.toLowerCase(c));
        }
        return spelled.toString();
    }
}
