package io.bindfirst.server.cache;

import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArraySet;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

import org.forgerock.opendj.ldap.Attribute;
import org.forgerock.opendj.ldap.ByteString;
import org.forgerock.opendj.ldap.DN;
import org.forgerock.opendj.ldap.DecodeException;
import org.forgerock.opendj.ldap.Entries;
import org.forgerock.opendj.ldap.Entry;
import org.forgerock.opendj.ldap.SearchScope;
import org.forgerock.opendj.ldap.schema.AttributeType;
import org.forgerock.opendj.ldap.schema.MatchingRule;

import io.bindfirst.server.commit.AfterAnswer;
import io.bindfirst.server.commit.Change;
import io.bindfirst.server.commit.ChangeListener;

/**
 * The entries an equality lookup found, by attribute and value: what the search of a login asks again and again
 * ({@code (uid=alice)} under {@code ou=People}), answered from memory instead of an index read and an entry
 * decode. Each value is every stored entry under one base and scope holding the value, before access control
 * and the rest of the filter, which the search applies to them as to entries read from the backend.
 *
 * <p>True once a write is acknowledged: a listener of the commit path, it drops, before the writer's answer, the
 * lookups of every value the changed entry held before and after (a delete or a rename, which may move a whole
 * subtree, drops them all). A search that misses takes {@link #generation()} before it reads the backend and
 * passes it to {@link #admit}, which stores nothing if a change came in between; both run under this object's
 * monitor, so a lookup read before a write committed is either dropped by that write's listener or not stored.
 * Hits are lock-free and write nothing ({@link FifoCache}). The entries are shared read-only views.
 */
public final class LookupCache implements ChangeListener {
    /** An attribute and one of its values, normalized by the attribute's equality rule. */
    public record Key(AttributeType type, ByteString value) {
        /** The key of {@code type=value}, or {@code null} when the value does not normalize (it matches nothing). */
        public static Key of(AttributeType type, ByteString value) {
            MatchingRule equality = type.getEqualityMatchingRule();
            if (equality == null) {
                return null;
            }
            try {
                return new Key(type, equality.normalizeAttributeValue(value));
            } catch (DecodeException e) {
                return null;
            }
        }
    }

    /** What one lookup found, and where it looked. */
    private record Found(DN base, SearchScope scope, List<Entry> entries) {
    }

    /** The most entries one lookup may hold: a value held by more is not a login's, and is not kept. */
    public static final int MOST_ENTRIES = 8;

    private final FifoCache<Key, Found> map;
    private final AtomicLong generation = new AtomicLong();
    /** The attribute types some key has named: a change is looked at for these alone. */
    private final Set<AttributeType> keyedTypes = new CopyOnWriteArraySet<>();
    private final LongAdder hits = new LongAdder();
    private final LongAdder misses = new LongAdder();
    /**
     * The hash codes of keys missed once, by slot: a key is admitted only when it is missed a second time while
     * its hash is still in its slot. Without it, logins spread evenly over more users than the cache holds
     * admitted a lookup at every miss and evicted another: whole entries churned through the heap for hits that
     * rarely came. Unsynchronized: a lost or torn update only delays or hastens one admission.
     */
    private final int[] seenOnce;

    /** @param capacity the most lookups held; 0 turns the cache off */
    public LookupCache(int capacity) {
        this.map = new FifoCache<>(capacity);
        this.seenOnce = new int[capacity == 0 ? 1 : Integer.highestOneBit(Math.max(1, capacity - 1)) << 2];
    }

    /** The entries {@code key} found under {@code base} in {@code scope}, or {@code null} if not held. */
    public List<Entry> get(Key key, DN base, SearchScope scope) {
        Found f = map.get(key);
        if (f != null && f.scope.equals(scope) && f.base.equals(base)) {
            hits.increment();
            return f.entries;
        }
        return null;
    }

    /** Whether {@code key} is held, for any base: what decides that a search may start on the transport thread. */
    public boolean holds(Key key) {
        return map.get(key) != null;
    }

    /** A search looked {@code key} up in the backend instead. */
    public void missed() {
        misses.increment();
    }

    /** Take this before reading the backend, and pass it to {@link #admit}. */
    public long generation() {
        return generation.get();
    }

    /**
     * Holds what the backend returned for {@code key} under {@code base} in {@code scope}, read after {@code seen}
     * was taken, unless a change came since; at most {@link #MOST_ENTRIES} entries.
     */
    public void admit(Key key, DN base, SearchScope scope, List<Entry> entries, long seen) {
        if (entries.size() > MOST_ENTRIES || !secondSight(key)) {
            return;
        }
        Entry[] shared = new Entry[entries.size()];
        for (int i = 0; i < shared.length; i++) {
            shared[i] = Entries.unmodifiableEntry(entries.get(i));
        }
        Found found = new Found(base, scope, List.of(shared));
        keyedTypes.add(key.type());
        synchronized (this) {
            if (generation.get() == seen) {
                map.put(key, found);
            }
        }
    }

    /** Whether {@code key} was missed before (its hash still in its slot); else notes it and says no. */
    private boolean secondSight(Key key) {
        int h = key.hashCode();
        int slot = (h ^ (h >>> 16)) & (seenOnce.length - 1);
        if (seenOnce[slot] == h) {
            return true;
        }
        seenOnce[slot] = h;
        return false;
    }

    @Override
    public synchronized void committed(Change change, AfterAnswer afterAnswer) {
        generation.incrementAndGet();
        if (change.leftItsDn()) {
            // A delete or a rename may take a subtree with it, whose entries the change does not list.
            map.removeKeysIf(k -> true);
            return;
        }
        forget(change.before());
        forget(change.after());
    }

    /** Drops the lookups of every value {@code entry} holds in a keyed type. */
    private void forget(Entry entry) {
        if (entry == null) {
            return;
        }
        for (AttributeType keyed : keyedTypes) {
            for (Attribute a : entry.getAllAttributes()) {
                if (a.getAttributeDescription().getAttributeType().isSubTypeOf(keyed)) {
                    for (ByteString v : a) {
                        Key k = Key.of(keyed, v);
                        if (k != null) {
                            map.remove(k);
                        }
                    }
                }
            }
        }
    }

    /** Searches answered from here, and searches that could have been but read the backend: for monitoring. */
    public long hits() {
        return hits.sum();
    }

    public long misses() {
        return misses.sum();
    }

    /** How many lookups are held. */
    public int size() {
        return map.size();
    }
}
