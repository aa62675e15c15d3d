package io.bindfirst.server.commit;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertFalse;
import static org.testng.Assert.assertTrue;
import static org.testng.Assert.expectThrows;

import java.util.ArrayList;
import java.util.List;

import org.forgerock.opendj.ldap.DN;
import org.forgerock.opendj.ldap.Entry;
import org.forgerock.opendj.ldap.LinkedHashMapEntry;
import org.testng.annotations.Test;

import io.bindfirst.server.backend.EntryChange;

/**
 * The commit path's own rules, without a server: every listener sees every change in the order it was registered,
 * registration closes with the first change, a listener that fails does not keep the change from the others, and
 * what a listener leaves for after the answer waits for the origin connection's answer, or runs at once when no
 * connection waits. The server's listeners and each kind of change are the integration test's (CommitPathTest).
 */
public class CommitPathOrderTest {
    private static final Entry ALICE = new LinkedHashMapEntry("uid=alice,ou=People,dc=example,dc=com");
    private static final Entry RENAMED = new LinkedHashMapEntry("uid=alicia,ou=People,dc=example,dc=com");

    @Test
    public void everyListenerSeesEveryChangeInRegistrationOrder() {
        List<String> seen = new ArrayList<>();
        CommitPath path = new CommitPath()
                .register((c, a) -> seen.add("first " + c.kind()))
                .register((c, a) -> seen.add("second " + c.kind()));
        path.commit(Change.of(new EntryChange(null, ALICE), 7));
        path.commit(Change.of(new EntryChange(ALICE, RENAMED), 7));
        assertEquals(seen, List.of("first ADD", "second ADD", "first MODIFY_DN", "second MODIFY_DN"));
        assertEquals(path.committed(), 2);
    }

    @Test
    public void registrationClosesWithTheFirstChange() {
        CommitPath path = new CommitPath().register((c, a) -> { });
        path.commit(Change.of(new EntryChange(ALICE, null), Change.NO_CONNECTION));
        expectThrows(IllegalStateException.class, () -> path.register((c, a) -> { }));
    }

    @Test
    public void aFailingListenerDoesNotKeepTheChangeFromTheOthers() {
        List<Change> seen = new ArrayList<>();
        CommitPath path = new CommitPath()
                .register((c, a) -> {
                    throw new IllegalStateException("broken on purpose");
                })
                .register((c, a) -> seen.add(c));
        Change change = Change.of(new EntryChange(ALICE, ALICE), 3);
        path.commit(change);
        assertEquals(seen, List.of(change));
    }

    @Test
    public void whatWaitsForTheAnswerWaitsOnlyWhenAConnectionWaits() {
        List<String> ran = new ArrayList<>();
        CommitPath path = new CommitPath().register((c, a) -> a.add(() -> ran.add("after " + c.origin())));
        AfterAnswer later = path.commit(Change.of(new EntryChange(ALICE, null), 12));
        assertTrue(ran.isEmpty(), "the origin connection has not been answered yet");
        assertFalse(later.isEmpty());
        later.run();
        later.run();
        assertEquals(ran, List.of("after 12"), "once, after the answer");

        AfterAnswer none = path.commit(Change.of(new EntryChange(ALICE, null), Change.NO_CONNECTION));
        assertTrue(none.isEmpty());
        assertEquals(ran, List.of("after 12", "after -1"), "run at once: no client waits");
    }

    @Test
    public void aChangeSaysWhatItIs() {
        assertEquals(Change.of(new EntryChange(null, ALICE), 1).kind(), Change.Kind.ADD);
        assertEquals(Change.of(new EntryChange(ALICE, null), 1).kind(), Change.Kind.DELETE);
        assertEquals(Change.of(new EntryChange(ALICE, ALICE), 1).kind(), Change.Kind.MODIFY);
        Change renamed = Change.of(new EntryChange(ALICE, RENAMED), 1);
        assertEquals(renamed.kind(), Change.Kind.MODIFY_DN);
        assertTrue(renamed.leftItsDn());
        assertEquals(renamed.dnBefore(), DN.valueOf("uid=alice,ou=People,dc=example,dc=com"));
        assertEquals(renamed.dnAfter(), DN.valueOf("uid=alicia,ou=People,dc=example,dc=com"));
        Change bookkeeping = Change.bookkeeping(new EntryChange(ALICE, ALICE));
        assertTrue(bookkeeping.bookkeeping());
        assertEquals(bookkeeping.origin(), Change.NO_CONNECTION);
        expectThrows(IllegalArgumentException.class, () -> new Change(Change.Kind.MODIFY, ALICE, null, 1, false));
        expectThrows(IllegalArgumentException.class, () -> new Change(Change.Kind.DELETE, null, null, 1, false));
    }
}
