package io.bindfirst.backend.je;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertNotNull;
import static org.testng.Assert.assertNull;
import static org.testng.Assert.assertSame;
import static org.testng.Assert.assertThrows;
import static org.testng.Assert.assertTrue;

import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import org.forgerock.opendj.ldap.ByteString;
import org.forgerock.opendj.ldap.Entry;
import org.testng.annotations.Test;

/** The cache's own rules: bound, generation check, invalidation, read-only entries. */
public class BindEntryCacheTest {
    private static final Set<String> NAMES = Set.of("userpassword");

    private static ByteString key(String dn) {
        return TestSupport.dn(dn).toNormalizedByteString();
    }

    private static Entry person(int i) {
        return TestSupport.person(i, TestSupport.PEOPLE);
    }

    @Test
    public void anAdmittedEntryIsFoundForTheSameNamesOnly() {
        BindEntryCache cache = new BindEntryCache(10);
        ByteString k = key("uid=user.1," + TestSupport.PEOPLE);
        Entry shared = cache.admit(k, NAMES, person(1), cache.generation());
        assertSame(cache.get(k, NAMES), shared);
        assertSame(cache.get(k, Set.of("userpassword")), shared, "an equal set of names is the same read");
        assertNull(cache.get(k, Set.of("userpassword", "sn")), "another set of names is another read");
        assertNull(cache.get(key("uid=user.2," + TestSupport.PEOPLE), NAMES));
    }

    @Test
    public void cachedEntriesAreReadOnly() {
        BindEntryCache cache = new BindEntryCache(10);
        ByteString k = key("uid=user.1," + TestSupport.PEOPLE);
        Entry shared = cache.admit(k, NAMES, person(1), cache.generation());
        assertThrows(UnsupportedOperationException.class, () -> shared.removeAttribute("sn"));
        assertThrows(UnsupportedOperationException.class,
                () -> shared.getAttribute("sn").add(ByteString.valueOfUtf8("x")));
        assertEquals(cache.get(k, NAMES).getAttribute("sn").firstValueAsString(), "Number1");
    }

    @Test
    public void anEntryReadBeforeAWriteEndedIsNotKept() {
        BindEntryCache cache = new BindEntryCache(10);
        ByteString k = key("uid=user.1," + TestSupport.PEOPLE);
        long seen = cache.generation();
        cache.invalidate(k); // a write ended between the reader's generation and its admission
        Entry returned = cache.admit(k, NAMES, person(1), seen);
        assertNotNull(returned, "the reader still gets what it read");
        assertNull(cache.get(k, NAMES));
        assertEquals(cache.size(), 0);
    }

    /**
     * A reader that read before a write ended and admits after it must not make its value visible even
     * for a moment: another bind, re-reading because the write's epoch moved, would trust it.
     */
    @Test(timeOut = 30_000)
    public void aLateAdmissionIsNeverVisibleEvenForAMoment() throws Exception {
        BindEntryCache cache = new BindEntryCache(16);
        ByteString k = key("uid=user.1," + TestSupport.PEOPLE);
        long stale = cache.generation();
        cache.invalidate(k); // the write has returned: nothing read before it may be seen from now on
        Entry old = person(1);
        AtomicBoolean stop = new AtomicBoolean();
        Thread admitter = new Thread(() -> {
            while (!stop.get()) {
                cache.admit(k, NAMES, old, stale);
            }
        });
        admitter.start();
        long seen = 0;
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(1);
        try {
            while (System.nanoTime() < end) {
                if (cache.get(k, NAMES) != null) {
                    seen++;
                }
            }
        } finally {
            stop.set(true);
            admitter.join();
        }
        assertEquals(seen, 0, "reads that saw the value admitted too late");
    }

    @Test
    public void invalidateDropsOnlyThatEntry() {
        BindEntryCache cache = new BindEntryCache(10);
        ByteString one = key("uid=user.1," + TestSupport.PEOPLE);
        ByteString two = key("uid=user.2," + TestSupport.PEOPLE);
        cache.admit(one, NAMES, person(1), cache.generation());
        cache.admit(two, NAMES, person(2), cache.generation());
        cache.invalidate(one);
        assertNull(cache.get(one, NAMES));
        assertNotNull(cache.get(two, NAMES));
    }

    @Test
    public void invalidateSubtreeDropsTheEntryAndEverythingBelowIt() {
        BindEntryCache cache = new BindEntryCache(10);
        ByteString people = key(TestSupport.PEOPLE);
        ByteString below = key("uid=user.1," + TestSupport.PEOPLE);
        ByteString deeper = key("cn=x,uid=user.1," + TestSupport.PEOPLE);
        ByteString sibling = key("ou=Groups," + TestSupport.SUFFIX);
        ByteString suffix = key(TestSupport.SUFFIX);
        for (ByteString k : new ByteString[] {people, below, deeper, sibling, suffix}) {
            cache.admit(k, NAMES, person(1), cache.generation());
        }
        cache.invalidateSubtree(people.toByteArray());
        assertNull(cache.get(people, NAMES));
        assertNull(cache.get(below, NAMES));
        assertNull(cache.get(deeper, NAMES));
        assertNotNull(cache.get(sibling, NAMES));
        assertNotNull(cache.get(suffix, NAMES));
    }

    @Test
    public void theOldestAdmittedIsEvictedFirstAndTheSizeNeverPassesTheCapacity() {
        BindEntryCache cache = new BindEntryCache(3);
        for (int i = 0; i < 10; i++) {
            cache.admit(key("uid=user." + i + "," + TestSupport.PEOPLE), NAMES, person(i), cache.generation());
            assertTrue(cache.size() <= 3, "size " + cache.size());
        }
        for (int i = 0; i < 7; i++) {
            assertNull(cache.get(key("uid=user." + i + "," + TestSupport.PEOPLE), NAMES), "user." + i);
        }
        for (int i = 7; i < 10; i++) {
            assertNotNull(cache.get(key("uid=user." + i + "," + TestSupport.PEOPLE), NAMES), "user." + i);
        }
    }

    @Test
    public void theSameKeyAdmittedTwiceStaysWithinTheBound() {
        BindEntryCache cache = new BindEntryCache(2);
        ByteString k = key("uid=user.1," + TestSupport.PEOPLE);
        for (int i = 0; i < 5; i++) {
            cache.admit(k, NAMES, person(1), cache.generation());
        }
        assertEquals(cache.size(), 1);
        cache.admit(key("uid=user.2," + TestSupport.PEOPLE), NAMES, person(2), cache.generation());
        cache.admit(key("uid=user.3," + TestSupport.PEOPLE), NAMES, person(3), cache.generation());
        assertTrue(cache.size() <= 2);
    }

    @Test
    public void capacityZeroCachesNothing() {
        BindEntryCache cache = new BindEntryCache(0);
        ByteString k = key("uid=user.1," + TestSupport.PEOPLE);
        assertNotNull(cache.admit(k, NAMES, person(1), cache.generation()));
        assertNull(cache.get(k, NAMES));
        assertThrows(IllegalArgumentException.class, () -> new BindEntryCache(-1));
    }
}
