package io.bindfirst.server.group;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentNavigableMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.locks.ReentrantLock;
import java.util.concurrent.locks.StampedLock;
import java.util.function.Supplier;

import org.forgerock.opendj.ldap.ByteString;
import org.forgerock.opendj.ldap.ByteStringBuilder;
import org.forgerock.opendj.ldap.DN;
import org.forgerock.opendj.ldap.Entry;
import org.forgerock.opendj.ldap.schema.Schema;

/**
 * Every static group of the user backends in memory: each group's direct members, and for each DN the groups
 * that name it directly. Keys are normalized DNs ({@link DN#toNormalizedByteString()}), in which a subtree is
 * the key range {@code [key, key + 0x01)}, so the groups (or the members) at or below a renamed or deleted
 * entry are one range of a sorted map.
 *
 * <p>Readers take no lock: a query runs under a {@link StampedLock} optimistic read and is run again under the
 * read lock only if a writer changed the index meanwhile, so each answer comes from one state of the index
 * (never half of one update and half of another). Writers ({@link #refresh}) are serialized by a lock of their
 * own, read each changed entry from the backend, then apply what they read under the write lock: two writes of
 * one group that commit in one order and reach the index in the other still leave the index with what the
 * backend holds last. The backend read is outside the lock readers take: it may wait for another write's
 * transaction, and that transaction may be asking the index (access control, inside the update) meanwhile.
 */
final class GroupIndex {
    /** Reads an entry as stored now, or {@code null}. */
    interface EntryReader {
        Entry read(DN dn) throws Exception;
    }

    /** A group: its DN and the keys of the DNs it names (each the same object as the key in {@link #members}). */
    private record Group(DN dn, ByteString[] memberKeys) {
    }

    /** A DN some group names: the DN as first seen, and the keys of the groups naming it directly. */
    private record Member(DN dn, ByteString[] groupKeys) {
    }

    private static final ByteString[] NONE = new ByteString[0];

    private final Schema schema;
    private final StampedLock lock = new StampedLock();
    /** Serializes refreshes: each reads the backend after the one before it applied. */
    private final ReentrantLock refreshing = new ReentrantLock();
    private final ConcurrentSkipListMap<ByteString, Group> groups = new ConcurrentSkipListMap<>();
    private final ConcurrentSkipListMap<ByteString, Member> members = new ConcurrentSkipListMap<>();

    GroupIndex(Schema schema) {
        this.schema = schema;
    }

    // --- queries ---

    /** Whether {@code user} is a member of {@code group}, directly or through nested groups. */
    boolean isMember(DN user, DN group) {
        ByteString target = key(group);
        ByteString start = key(user);
        return read(() -> {
            if (!groups.containsKey(target)) {
                return false;
            }
            Set<ByteString> seen = new HashSet<>();
            ArrayDeque<ByteString> todo = new ArrayDeque<>();
            todo.add(start);
            while (!todo.isEmpty()) {
                Member m = members.get(todo.poll());
                if (m == null) {
                    continue;
                }
                for (ByteString g : m.groupKeys()) {
                    if (g.equals(target)) {
                        return true;
                    }
                    if (seen.add(g)) {
                        todo.add(g);
                    }
                }
            }
            return false;
        });
    }

    /** The groups {@code user} is a member of, directly or through nested groups; cycles end where they close. */
    Set<DN> groupsOf(DN user) {
        ByteString start = key(user);
        return read(() -> {
            Member first = members.get(start);
            if (first == null) {
                return Set.of();
            }
            Map<ByteString, DN> found = new HashMap<>();
            ArrayDeque<ByteString> todo = new ArrayDeque<>();
            todo.add(start);
            while (!todo.isEmpty()) {
                Member m = members.get(todo.poll());
                if (m == null) {
                    continue;
                }
                for (ByteString g : m.groupKeys()) {
                    Group group = groups.get(g);
                    if (group != null && !found.containsKey(g)) {
                        found.put(g, group.dn());
                        todo.add(g);
                    }
                }
            }
            // In a cycle every group is a member of each, itself included, as nesting says.
            return Set.copyOf(found.values());
        });
    }

    /**
     * Every DN that is a member of {@code group}, directly or through nested groups (the nested groups
     * themselves included); empty if {@code group} is not a group.
     */
    List<DN> membersOf(DN group) {
        ByteString start = key(group);
        return read(() -> {
            List<DN> out = new ArrayList<>();
            Set<ByteString> seen = new HashSet<>();
            ArrayDeque<ByteString> todo = new ArrayDeque<>();
            todo.add(start); // not marked seen: in a cycle the group is a member of itself, as groupsOf says
            while (!todo.isEmpty()) {
                Group g = groups.get(todo.poll());
                if (g == null) {
                    continue;
                }
                for (ByteString k : g.memberKeys()) {
                    if (seen.add(k)) {
                        Member m = members.get(k);
                        if (m != null) {
                            out.add(m.dn());
                            todo.add(k);
                        }
                    }
                }
            }
            return out;
        });
    }

    /** Whether {@code dn} is a group entry. */
    boolean isGroup(DN dn) {
        ByteString k = key(dn);
        return read(() -> groups.containsKey(k));
    }

    /** The groups whose entries are at or below {@code dn}. */
    List<DN> groupsAtOrBelow(DN dn) {
        ByteString k = key(dn);
        return read(() -> {
            List<DN> out = new ArrayList<>();
            for (Group g : subtree(groups, k).values()) {
                out.add(g.dn());
            }
            return out;
        });
    }

    /** The groups that name {@code dn} or a DN below it directly. */
    Set<DN> groupsNamingAtOrBelow(DN dn) {
        ByteString k = key(dn);
        return read(() -> {
            Set<DN> out = new LinkedHashSet<>();
            for (Member m : subtree(members, k).values()) {
                for (ByteString g : m.groupKeys()) {
                    Group group = groups.get(g);
                    if (group != null) {
                        out.add(group.dn());
                    }
                }
            }
            return out;
        });
    }

    int size() {
        return groups.size();
    }

    // --- updates ---

    /**
     * Loads groups at start, before any query, in one pass (10,000 groups of 100 members are a million memberships:
     * adding them one group at a time would copy each member's list of groups once per group).
     */
    void load(Collection<Entry> groupEntries) {
        long stamp = lock.writeLock();
        try {
            Map<ByteString, ByteString> canonical = new HashMap<>();
            Map<ByteString, DN> memberDns = new HashMap<>();
            Map<ByteString, Set<ByteString>> byMember = new HashMap<>();
            for (Entry e : groupEntries) {
                ByteString gk = key(e.getName());
                Set<ByteString> keys = new LinkedHashSet<>();
                for (DN m : GroupEntry.members(e, schema)) {
                    ByteString mk = canonical.computeIfAbsent(key(m), k -> k);
                    memberDns.putIfAbsent(mk, m);
                    keys.add(mk);
                    byMember.computeIfAbsent(mk, x -> new LinkedHashSet<>()).add(gk);
                }
                groups.put(gk, new Group(e.getName(), keys.toArray(NONE)));
            }
            for (Map.Entry<ByteString, Set<ByteString>> m : byMember.entrySet()) {
                members.put(m.getKey(), new Member(memberDns.get(m.getKey()), m.getValue().toArray(NONE)));
            }
        } finally {
            lock.unlockWrite(stamp);
        }
    }

    /**
     * Makes the index say what the backend holds now for each of {@code dns} (a group, or not one), reading each
     * with {@code reader} after every earlier refresh applied. An entry that cannot be read is taken to be
     * {@code fallback}'s entry of that name, if it has one, else no group.
     */
    void refresh(Collection<DN> dns, EntryReader reader, Map<DN, Entry> fallback) {
        refreshing.lock();
        try {
            Map<DN, Entry> stored = new LinkedHashMap<>();
            for (DN dn : dns) {
                Entry now;
                try {
                    now = reader.read(dn);
                } catch (Exception e) {
                    now = fallback.get(dn);
                }
                stored.put(dn, now);
            }
            long stamp = lock.writeLock();
            try {
                for (Map.Entry<DN, Entry> e : stored.entrySet()) {
                    ByteString gk = key(e.getKey());
                    removeGroup(gk);
                    if (GroupEntry.isGroup(e.getValue())) {
                        addGroup(gk, e.getValue());
                    }
                }
            } finally {
                lock.unlockWrite(stamp);
            }
        } finally {
            refreshing.unlock();
        }
    }

    private void removeGroup(ByteString gk) {
        Group old = groups.remove(gk);
        if (old == null) {
            return;
        }
        for (ByteString mk : old.memberKeys()) {
            Member m = members.get(mk);
            if (m == null) {
                continue;
            }
            ByteString[] left = Arrays.stream(m.groupKeys()).filter(g -> !g.equals(gk)).toArray(ByteString[]::new);
            if (left.length == 0) {
                members.remove(mk);
            } else {
                members.put(mk, new Member(m.dn(), left));
            }
        }
    }

    private void addGroup(ByteString gk, Entry entry) {
        Set<ByteString> keys = new LinkedHashSet<>();
        for (DN m : GroupEntry.members(entry, schema)) {
            ByteString mk = key(m);
            Member old = members.get(mk);
            if (old == null) {
                members.put(mk, new Member(m, new ByteString[] {gk}));
            } else {
                mk = members.ceilingKey(mk); // the map's own key object, shared by every group naming it
                if (!Arrays.asList(old.groupKeys()).contains(gk)) {
                    ByteString[] more = Arrays.copyOf(old.groupKeys(), old.groupKeys().length + 1);
                    more[more.length - 1] = gk;
                    members.put(mk, new Member(old.dn(), more));
                }
            }
            keys.add(mk);
        }
        groups.put(gk, new Group(entry.getName(), keys.toArray(NONE)));
    }

    // --- helpers ---

    private <T> T read(Supplier<T> query) {
        long stamp = lock.tryOptimisticRead();
        if (stamp != 0) {
            T answer = query.get();
            if (lock.validate(stamp)) {
                return answer;
            }
        }
        stamp = lock.readLock();
        try {
            return query.get();
        } finally {
            lock.unlockRead(stamp);
        }
    }

    private static ByteString key(DN dn) {
        return dn.toNormalizedByteString();
    }

    /** The entries of {@code map} whose keys are {@code key} or below it. */
    private static <V> ConcurrentNavigableMap<ByteString, V> subtree(ConcurrentSkipListMap<ByteString, V> map,
                                                                     ByteString key) {
        ByteString end = new ByteStringBuilder(key.length() + 1).appendBytes(key).appendByte(1).toByteString();
        return map.subMap(key, true, end, false);
    }
}
