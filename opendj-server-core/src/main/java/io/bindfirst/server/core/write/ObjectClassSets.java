package io.bindfirst.server.core.write;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import org.forgerock.opendj.ldap.schema.AttributeType;
import org.forgerock.opendj.ldap.schema.ObjectClass;
import org.forgerock.opendj.ldap.schema.Schema;

/**
 * What {@link SchemaChecker} works out from an entry's objectClass values alone, remembered per list of values for
 * one schema, for a caller that checks many entries (an import): the classes with their superclasses, that they
 * hold one structural chain, and which attribute types they allow. A million imported users name the same four
 * classes; resolving them, walking their superclasses and asking each class about each attribute was about half of
 * the schema check's time (0.9 of 1.8 s of CPU in a profiled import). Only lists that passed are remembered (a
 * refusal is worked out again, with its message), and at most {@link #LIMIT} of them. Thread-safe: an import checks
 * on several threads.
 */
public final class ObjectClassSets {
    /** The most lists of objectClass values remembered. */
    static final int LIMIT = 256;

    private final Schema schema;
    private final Map<List<String>, Resolved> resolved = new ConcurrentHashMap<>();

    /** @param schema the schema every entry checked with this is checked against */
    public ObjectClassSets(Schema schema) {
        this.schema = Objects.requireNonNull(schema, "schema");
    }

    Schema schema() {
        return schema;
    }

    Resolved get(List<String> values) {
        return resolved.get(values);
    }

    void remember(List<String> values, Resolved classes) {
        if (resolved.size() < LIMIT) {
            resolved.putIfAbsent(List.copyOf(values), classes);
        }
    }

    /** How many lists are remembered (for tests). */
    int size() {
        return resolved.size();
    }

    /**
     * An entry's object classes (the listed ones first, then their superclasses), the names as listed, and, when
     * shared through {@link ObjectClassSets}, the answers of {@link #allows} so far.
     */
    static final class Resolved {
        final Set<ObjectClass> classes;
        final List<String> listedNames;
        final boolean extensible;
        private final Map<AttributeType, Boolean> allowed;

        Resolved(Set<ObjectClass> classes, List<String> listedNames, boolean shared) {
            this.classes = classes;
            this.listedNames = listedNames;
            this.extensible = classes.stream().anyMatch(ObjectClass::isExtensible);
            this.allowed = shared ? new ConcurrentHashMap<>() : null;
        }

        /** Whether some class requires or allows {@code type} (extensibleObject aside). */
        boolean allows(AttributeType type) {
            if (allowed == null) {
                return allowedByAny(type);
            }
            // Looked up first: the method reference computeIfAbsent would take is a new object at every call, for
            // answers known after the first few entries (0.3 GB of a million-user import's allocation).
            Boolean known = allowed.get(type);
            return known != null ? known : allowed.computeIfAbsent(type, this::allowedByAny);
        }

        private boolean allowedByAny(AttributeType type) {
            for (ObjectClass oc : classes) {
                if (oc.isRequiredOrOptional(type)) {
                    return true;
                }
            }
            return false;
        }
    }
}
