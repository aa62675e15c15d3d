package io.bindfirst.server.testsupport;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertNull;
import static org.testng.Assert.assertTrue;
import static org.testng.Assert.expectThrows;

import java.util.ArrayList;
import java.util.List;

import org.forgerock.opendj.ldap.DN;
import org.forgerock.opendj.ldap.Entry;
import org.forgerock.opendj.ldap.Filter;
import org.forgerock.opendj.ldap.LinkedHashMapEntry;
import org.forgerock.opendj.ldap.ResultCode;
import org.forgerock.opendj.ldap.SearchScope;
import org.forgerock.opendj.ldap.schema.Schema;
import org.testng.annotations.BeforeMethod;
import org.testng.annotations.Test;

import io.bindfirst.server.backend.BackendException;

/**
 * The in-memory backend the operation tests run on answers as the JE backend does: the same result codes for the
 * same refusals, the scope walked in DN order, a subtree moved or deleted whole.
 */
public class MemoryBackendTest {
    private static final Schema SCHEMA = ServerSchema.load();
    private MemoryBackend backend;

    @BeforeMethod
    public void fill() throws BackendException {
        backend = new MemoryBackend("userRoot", List.of(dn("dc=example,dc=com")), SCHEMA);
        for (String dn : List.of("dc=example,dc=com", "ou=a,dc=example,dc=com", "cn=x,ou=a,dc=example,dc=com",
                "cn=y,ou=a,dc=example,dc=com", "cn=z,cn=y,ou=a,dc=example,dc=com", "ou=b,dc=example,dc=com")) {
            backend.addEntry(new LinkedHashMapEntry(dn(dn)));
        }
    }

    private static DN dn(String dn) {
        return DN.valueOf(dn, SCHEMA);
    }

    private static ResultCode refusal(Write write) {
        return expectThrows(BackendException.class, write::run).resultCode();
    }

    private interface Write {
        void run() throws BackendException;
    }

    private List<String> search(String base, SearchScope scope) throws BackendException {
        List<String> out = new ArrayList<>();
        backend.search(dn(base), scope, Filter.alwaysFalse(), e -> out.add(e.getName().toString()));
        return out;
    }

    @Test
    public void addRefusesATakenDnAMissingParentAndADnOutsideTheBaseDns() {
        assertEquals(refusal(() -> backend.addEntry(new LinkedHashMapEntry(dn("CN=X,ou=A,dc=example,dc=com")))),
                ResultCode.ENTRY_ALREADY_EXISTS, "the same DN by its matching rules");
        assertEquals(refusal(() -> backend.addEntry(new LinkedHashMapEntry(dn("cn=q,ou=none,dc=example,dc=com")))),
                ResultCode.NO_SUCH_OBJECT);
        assertEquals(refusal(() -> backend.addEntry(new LinkedHashMapEntry(dn("o=elsewhere")))),
                ResultCode.NO_SUCH_OBJECT);
    }

    /** Every entry in scope, parents first, whatever the filter: the caller evaluates it. */
    @Test
    public void searchPassesTheScopeInDnOrder() throws BackendException {
        assertEquals(search("ou=a,dc=example,dc=com", SearchScope.BASE_OBJECT), List.of("ou=a,dc=example,dc=com"));
        assertEquals(search("ou=a,dc=example,dc=com", SearchScope.SINGLE_LEVEL),
                List.of("cn=x,ou=a,dc=example,dc=com", "cn=y,ou=a,dc=example,dc=com"));
        assertEquals(search("ou=a,dc=example,dc=com", SearchScope.WHOLE_SUBTREE), List.of("ou=a,dc=example,dc=com",
                "cn=x,ou=a,dc=example,dc=com", "cn=y,ou=a,dc=example,dc=com", "cn=z,cn=y,ou=a,dc=example,dc=com"));
        assertEquals(search("ou=a,dc=example,dc=com", SearchScope.SUBORDINATES).size(), 3);
        assertEquals(refusal(() -> search("ou=none,dc=example,dc=com", SearchScope.BASE_OBJECT)),
                ResultCode.NO_SUCH_OBJECT);
    }

    @Test
    public void deleteRefusesANonLeafUnlessItIsASubtreeDelete() throws BackendException {
        assertEquals(refusal(() -> backend.deleteEntry(dn("cn=y,ou=a,dc=example,dc=com"), false)),
                ResultCode.NOT_ALLOWED_ON_NONLEAF);
        assertTrue(backend.entryExists(dn("cn=z,cn=y,ou=a,dc=example,dc=com")));
        assertEquals(backend.deleteEntry(dn("ou=a,dc=example,dc=com"), true).getName().toString(),
                "ou=a,dc=example,dc=com");
        assertEquals(search("dc=example,dc=com", SearchScope.WHOLE_SUBTREE),
                List.of("dc=example,dc=com", "ou=b,dc=example,dc=com"));
        assertEquals(refusal(() -> backend.deleteEntry(dn("ou=a,dc=example,dc=com"), true)),
                ResultCode.NO_SUCH_OBJECT);
    }

    @Test
    public void renameMovesTheSubtreeAndRefusesWhatJeRefuses() throws BackendException {
        DN from = dn("cn=y,ou=a,dc=example,dc=com");
        DN to = dn("cn=w,ou=b,dc=example,dc=com");
        assertEquals(refusal(() -> backend.renameEntry(from, dn("cn=v,cn=z,cn=y,ou=a,dc=example,dc=com"),
                e -> e)), ResultCode.UNWILLING_TO_PERFORM, "below itself");
        assertEquals(refusal(() -> backend.renameEntry(dn("dc=example,dc=com"), dn("dc=other,dc=example,dc=com"),
                e -> e)), ResultCode.UNWILLING_TO_PERFORM, "a base DN");
        assertEquals(refusal(() -> backend.renameEntry(from, dn("cn=w,ou=none,dc=example,dc=com"), e -> e)),
                ResultCode.NO_SUCH_OBJECT, "no new parent");
        assertEquals(refusal(() -> backend.renameEntry(from, dn("cn=x,ou=a,dc=example,dc=com"), e -> e)),
                ResultCode.ENTRY_ALREADY_EXISTS);
        assertEquals(refusal(() -> backend.renameEntry(from, to, e -> e)), ResultCode.OTHER,
                "an update that keeps the old name is the caller's bug");

        backend.renameEntry(from, to, e -> new LinkedHashMapEntry(e).setName(to));
        assertEquals(search("ou=b,dc=example,dc=com", SearchScope.WHOLE_SUBTREE), List.of("ou=b,dc=example,dc=com",
                "cn=w,ou=b,dc=example,dc=com", "cn=z,cn=w,ou=b,dc=example,dc=com"));
        assertTrue(backend.hasSubordinates(dn("cn=w,ou=b,dc=example,dc=com")));
        assertNull(backend.getEntry(dn("cn=z,cn=y,ou=a,dc=example,dc=com")));
    }

    /** The update sees a copy, and what the caller is given is a copy: the stored entry changes only by a write. */
    @Test
    public void modifyAppliesTheUpdateToACopy() throws BackendException {
        DN x = dn("cn=x,ou=a,dc=example,dc=com");
        var change = backend.modifyEntry(x, e -> e.addAttribute("description", "new"));
        assertNull(change.before().getAttribute("description"));
        Entry read = backend.getEntry(x);
        assertEquals(read.getAttribute("description").firstValueAsString(), "new");
        read.removeAttribute("description");
        assertEquals(backend.getEntry(x).getAttribute("description").size(), 1);
        assertEquals(refusal(() -> backend.modifyEntry(dn("cn=none,ou=a,dc=example,dc=com"), e -> e)),
                ResultCode.NO_SUCH_OBJECT);
    }
}
