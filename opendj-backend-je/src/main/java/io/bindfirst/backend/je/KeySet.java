package io.bindfirst.backend.je;

import java.util.AbstractSet;
import java.util.Arrays;
import java.util.ConcurrentModificationException;
import java.util.HashSet;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.Set;

import org.forgerock.opendj.ldap.ByteString;

/**
 * The keys one index takes from one entry: none, one or a few for an equality, presence or ordering index (a
 * value each), dozens for a substring index (a trigram each). A {@link HashSet} costs a table of sixteen slots as
 * soon as it holds a key, and walks them all each time it is iterated: a bulk load iterates six of these per
 * entry, a million times. Up to {@link #LINEAR} keys live in an array, found by comparing each (a few short byte
 * strings); past that they move to a hash set.
 */
final class KeySet extends AbstractSet<ByteString> {
    /** Keys kept in the array before the set turns to hashing. */
    static final int LINEAR = 8;
    private static final ByteString[] NONE = {};

    private ByteString[] keys = NONE;
    private int size;
    /** The keys once there are more than {@link #LINEAR} of them; then {@link #keys} is not used. */
    private Set<ByteString> hashed;
    private int modifications;

    @Override
    public boolean add(ByteString key) {
        if (hashed != null) {
            return hashed.add(key);
        }
        if (indexOf(key) >= 0) {
            return false;
        }
        if (size == LINEAR) {
            hashed = new HashSet<>(Arrays.asList(keys).subList(0, size));
            keys = NONE;
            size = 0;
            modifications++;
            return hashed.add(key);
        }
        if (size == keys.length) {
            keys = Arrays.copyOf(keys, size == 0 ? 2 : Math.min(2 * size, LINEAR));
        }
        keys[size++] = key;
        modifications++;
        return true;
    }

    @Override
    public boolean contains(Object o) {
        return hashed != null ? hashed.contains(o) : indexOf(o) >= 0;
    }

    @Override
    public boolean remove(Object o) {
        if (hashed != null) {
            return hashed.remove(o);
        }
        int i = indexOf(o);
        if (i < 0) {
            return false;
        }
        removeAt(i);
        return true;
    }

    @Override
    public int size() {
        return hashed != null ? hashed.size() : size;
    }

    @Override
    public Iterator<ByteString> iterator() {
        return hashed != null ? hashed.iterator() : new Linear();
    }

    private int indexOf(Object o) {
        for (int i = 0; i < size; i++) {
            if (keys[i].equals(o)) {
                return i;
            }
        }
        return -1;
    }

    private void removeAt(int i) {
        System.arraycopy(keys, i + 1, keys, i, size - i - 1);
        keys[--size] = null;
        modifications++;
    }

    /** The array's keys in the order they were added. */
    private final class Linear implements Iterator<ByteString> {
        private int next;
        private int last = -1;
        private int expected = modifications;

        @Override
        public boolean hasNext() {
            return next < size;
        }

        @Override
        public ByteString next() {
            if (expected != modifications) {
                throw new ConcurrentModificationException();
            }
            if (next >= size) {
                throw new NoSuchElementException();
            }
            last = next;
            return keys[next++];
        }

        @Override
        public void remove() {
            if (last < 0) {
                throw new IllegalStateException();
            }
            if (expected != modifications) {
                throw new ConcurrentModificationException();
            }
            removeAt(last);
            next = last;
            last = -1;
            expected = modifications;
        }
    }
}
