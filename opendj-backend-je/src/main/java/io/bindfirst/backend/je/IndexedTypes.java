package io.bindfirst.backend.je;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.forgerock.opendj.ldap.schema.AttributeType;

/**
 * Which of a list of attribute indexes take the values of an attribute type (those on the type itself or on one of
 * its supertypes), worked out once per type. Asking every index about every attribute of every entry stored walked
 * the schema's chain of superior types and compared names each time: 16% of a million-user import's preparing
 * thread. Remembered by the type object itself (not by its OID, which two schemas may define with different
 * superiors), up to a bound, so that types made up for unknown attribute names cannot grow it without end.
 * Thread-safe.
 */
final class IndexedTypes {
    private static final int REMEMBERED = 4096;

    private final List<AttributeIndex> indexes;
    private final Map<String, Known> byOid = new ConcurrentHashMap<>();

    /** The answer for one type object. */
    private record Known(AttributeType type, int[] positions) {
    }

    IndexedTypes(List<AttributeIndex> indexes) {
        this.indexes = List.copyOf(indexes);
    }

    /** The positions in the list of the indexes that take {@code type}'s values, in list order (shared: read only). */
    int[] positions(AttributeType type) {
        Known known = byOid.get(type.getOID());
        if (known != null && known.type() == type) {
            return known.positions();
        }
        int count = 0;
        int[] found = new int[indexes.size()];
        for (int i = 0; i < indexes.size(); i++) {
            if (type.isSubTypeOf(indexes.get(i).type())) {
                found[count++] = i;
            }
        }
        int[] positions = Arrays.copyOf(found, count);
        if (byOid.size() < REMEMBERED) {
            byOid.put(type.getOID(), new Known(type, positions));
        }
        return positions;
    }
}
