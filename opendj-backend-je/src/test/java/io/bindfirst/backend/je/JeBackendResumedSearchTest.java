package io.bindfirst.backend.je;

import static io.bindfirst.backend.je.TestSupport.SUFFIX;
import static io.bindfirst.backend.je.TestSupport.dn;
import static io.bindfirst.backend.je.TestSupport.norm;
import static org.testng.Assert.assertEquals;
import static org.testng.Assert.expectThrows;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.forgerock.opendj.ldap.ByteString;
import org.forgerock.opendj.ldap.Entry;
import org.forgerock.opendj.ldap.Filter;
import org.forgerock.opendj.ldap.ResultCode;
import org.forgerock.opendj.ldap.SearchScope;
import org.testng.annotations.AfterClass;
import org.testng.annotations.BeforeClass;
import org.testng.annotations.DataProvider;
import org.testng.annotations.Test;

import io.bindfirst.server.backend.BackendException;

/**
 * A search resumed after a position (what paged results rely on): page after page, every candidate of the
 * unresumed search comes once, in the same order, for index candidates and scope walks, in every scope.
 */
public class JeBackendResumedSearchTest {
    private static final String BRANCH = "ou=Branch," + SUFFIX;
    private Path dir;
    private JeBackend backend;

    @BeforeClass
    public void open() throws BackendException {
        dir = TestSupport.tempDir().resolve("db");
        backend = TestSupport.open(dir);
        TestSupport.addTree(backend);
        for (Entry e : TestSupport.branch("Branch", SUFFIX, 4, 7)) {
            backend.addEntry(e);
        }
    }

    @AfterClass(alwaysRun = true)
    public void close() {
        backend.close();
        TestSupport.delete(dir.getParent());
    }

    @DataProvider
    public Object[][] searches() {
        List<Object[]> out = new ArrayList<>();
        for (String filter : List.of("(objectClass=*)", "(objectClass=person)", "(sn=Member)")) {
            for (SearchScope scope : List.of(SearchScope.WHOLE_SUBTREE, SearchScope.SINGLE_LEVEL,
                    SearchScope.SUBORDINATES)) {
                for (String base : List.of(BRANCH, "ou=Team2," + BRANCH)) {
                    for (int page : List.of(1, 3, 100)) {
                        out.add(new Object[] {base, scope, filter, page});
                    }
                }
            }
        }
        return out.toArray(Object[][]::new);
    }

    @Test(dataProvider = "searches")
    public void pagesResumedAfterTheLastPositionSeeEveryCandidateOnce(String base, SearchScope scope, String filter,
                                                                       int pageSize) throws BackendException {
        List<String> whole = new ArrayList<>();
        backend.search(dn(base), scope, Filter.valueOf(filter), e -> whole.add(norm(e.getName())));

        List<String> paged = new ArrayList<>();
        ByteString after = null;
        for (int pages = 0; pages <= whole.size(); pages++) {
            List<ByteString> positions = new ArrayList<>();
            backend.search(dn(base), scope, Filter.valueOf(filter), after, (e, position) -> {
                paged.add(norm(e.getName()));
                positions.add(position);
                return positions.size() < pageSize;
            });
            if (positions.size() < pageSize) {
                break;
            }
            after = positions.get(positions.size() - 1);
        }
        assertEquals(paged, whole);
    }

    @Test
    public void aPositionOfTheOtherKindIsRefused() throws BackendException {
        List<ByteString> byIndex = new ArrayList<>();
        backend.search(dn(BRANCH), SearchScope.WHOLE_SUBTREE, Filter.valueOf("(sn=Member)"), null, (e, p) -> {
            byIndex.add(p);
            return false;
        });
        BackendException e = expectThrows(BackendException.class, () -> backend.search(dn(BRANCH),
                SearchScope.WHOLE_SUBTREE, Filter.valueOf("(description=0)"), byIndex.get(0), (x, p) -> true));
        assertEquals(e.resultCode(), ResultCode.UNWILLING_TO_PERFORM);
    }

    @Test
    public void aBaseSearchResumedHasNothingLeft() throws BackendException {
        List<ByteString> positions = new ArrayList<>();
        backend.search(dn(BRANCH), SearchScope.BASE_OBJECT, Filter.objectClassPresent(), null,
                (e, p) -> positions.add(p));
        assertEquals(positions.size(), 1);
        backend.search(dn(BRANCH), SearchScope.BASE_OBJECT, Filter.objectClassPresent(), positions.get(0),
                (e, p) -> {
                    throw new AssertionError("passed again: " + e.getName());
                });
    }
}
