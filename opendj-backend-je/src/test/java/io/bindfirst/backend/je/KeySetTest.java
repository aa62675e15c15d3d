package io.bindfirst.backend.je;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertFalse;
import static org.testng.Assert.assertTrue;
import static org.testng.Assert.expectThrows;

import java.util.ArrayList;
import java.util.ConcurrentModificationException;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Random;
import java.util.Set;

import org.forgerock.opendj.ldap.ByteString;
import org.testng.annotations.Test;

/**
 * {@link KeySet} behaves as a set: random adds, removes and iterator removes, across the move from its array to
 * hashing, give what a {@link HashSet} gives; its array keeps the order keys came in.
 */
public class KeySetTest {

    @Test
    public void behavesAsAHashSetUnderRandomChanges() {
        Random random = new Random(20261128);
        for (int round = 0; round < 2_000; round++) {
            KeySet keys = new KeySet();
            Set<ByteString> model = new HashSet<>();
            // values from a small range, so adds repeat keys and removes find them; enough to pass LINEAR
            int range = 1 + random.nextInt(3 * KeySet.LINEAR);
            for (int step = 0; step < 40; step++) {
                ByteString key = ByteString.valueOfUtf8("k" + random.nextInt(range));
                switch (random.nextInt(4)) {
                    case 0, 1 -> assertEquals(keys.add(key), model.add(key), "add " + key);
                    case 2 -> assertEquals(keys.remove(key), model.remove(key), "remove " + key);
                    default -> removeThroughIterator(keys, model, key);
                }
                assertEquals(keys.size(), model.size());
                assertEquals(keys, model);
                assertEquals(model, keys);
                assertEquals(keys.hashCode(), model.hashCode());
                assertEquals(keys.contains(key), model.contains(key));
            }
        }
    }

    private static void removeThroughIterator(KeySet keys, Set<ByteString> model, ByteString key) {
        for (Iterator<ByteString> it = keys.iterator(); it.hasNext();) {
            if (it.next().equals(key)) {
                it.remove();
                assertTrue(model.remove(key));
                return;
            }
        }
        assertFalse(model.contains(key));
    }

    @Test
    public void keepsTheOrderOfAddsWhileSmall() {
        KeySet keys = new KeySet();
        List<ByteString> added = new ArrayList<>();
        for (String s : new String[] {"top", "person", "organizationalperson", "inetorgperson", "person"}) {
            ByteString key = ByteString.valueOfUtf8(s);
            if (!added.contains(key)) {
                added.add(key);
            }
            keys.add(key);
        }
        assertEquals(new ArrayList<>(keys), added);
    }

    @Test
    public void anIteratorFailsAfterTheSetChanges() {
        KeySet keys = new KeySet();
        keys.add(ByteString.valueOfUtf8("a"));
        keys.add(ByteString.valueOfUtf8("b"));
        Iterator<ByteString> it = keys.iterator();
        it.next();
        keys.add(ByteString.valueOfUtf8("c"));
        expectThrows(ConcurrentModificationException.class, it::next);
        Iterator<ByteString> fresh = keys.iterator();
        expectThrows(IllegalStateException.class, fresh::remove);
    }
}
