package io.bindfirst.backend.je;

import static io.bindfirst.backend.je.TestSupport.PEOPLE;
import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertNotNull;
import static org.testng.Assert.assertNull;

import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;

import org.forgerock.opendj.ldap.Attribute;
import org.forgerock.opendj.ldap.Entry;
import org.testng.annotations.AfterMethod;
import org.testng.annotations.BeforeMethod;
import org.testng.annotations.Test;

/** The bind path's read: only the named attributes, found whatever form they were stored under. */
public class JeBackendPartialReadTest {
    /** sn's OID and names, lower case, as the caller expands them. */
    private static final Set<String> SN = Set.of("2.5.4.4", "sn", "surname");

    private Path dir;
    private JeBackend backend;

    @BeforeMethod
    public void open() throws Exception {
        dir = TestSupport.tempDir();
        backend = TestSupport.open(dir);
        TestSupport.addTree(backend);
    }

    @AfterMethod(alwaysRun = true)
    public void close() {
        backend.close();
        TestSupport.delete(dir);
    }

    private static Set<String> names(Entry e) {
        Set<String> out = new TreeSet<>();
        for (Attribute a : e.getAllAttributes()) {
            out.add(a.getAttributeDescriptionAsString());
        }
        return out;
    }

    @Test
    public void onlyTheNamedAttributesAreReturned() throws Exception {
        backend.addEntry(TestSupport.person(1, PEOPLE));
        Entry e = backend.getEntry(TestSupport.dn("uid=user.1," + PEOPLE), SN);
        assertNotNull(e);
        assertEquals(names(e), Set.of("sn"));
        assertEquals(e.getAttribute("sn").firstValueAsString(), "Number1");
        assertEquals(e.getName(), TestSupport.dn("uid=user.1," + PEOPLE));
    }

    @Test
    public void attributesStoredUnderAnOidAnAliasOrWithOptionsAreFound() throws Exception {
        backend.addEntry(TestSupport.entry("uid=odd," + PEOPLE, "objectClass", "top", "objectClass", "person",
                "uid", "odd", "cn", "Odd", "2.5.4.4", "ByOid", "SURNAME;lang-fr", "Nom"));
        Entry e = backend.getEntry(TestSupport.dn("uid=odd," + PEOPLE), SN);
        assertEquals(e.getAttributeCount(), 2, names(e).toString());
    }

    @Test
    public void aDnSpelledDifferentlyStillFindsTheEntry() throws Exception {
        backend.addEntry(TestSupport.person(2, PEOPLE));
        Entry e = backend.getEntry(TestSupport.dn("UID=User.2,OU=people,dc=EXAMPLE,dc=com"), SN);
        assertNotNull(e);
        assertEquals(TestSupport.norm(e.getName()), TestSupport.norm(TestSupport.dn("uid=user.2," + PEOPLE)));
    }

    @Test
    public void missingEntryIsNull() throws Exception {
        assertNull(backend.getEntry(TestSupport.dn("uid=ghost," + PEOPLE), SN));
    }
}
