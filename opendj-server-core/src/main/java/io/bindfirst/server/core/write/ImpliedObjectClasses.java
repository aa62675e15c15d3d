package io.bindfirst.server.core.write;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import org.forgerock.opendj.ldap.Attribute;
import org.forgerock.opendj.ldap.AttributeDescription;
import org.forgerock.opendj.ldap.ByteString;
import org.forgerock.opendj.ldap.Entry;
import org.forgerock.opendj.ldap.LinkedAttribute;
import org.forgerock.opendj.ldap.schema.ObjectClass;
import org.forgerock.opendj.ldap.schema.Schema;

/**
 * RFC 4512 3.3: "When creating an entry or adding an objectClass value to an entry, all superclasses of the named
 * classes SHALL be implicitly added as well if not already present." An entry added with only
 * {@code objectClass: inetOrgPerson} is then stored as a {@code person}, {@code organizationalPerson} and
 * {@code top} too, as OpenDJ stores it, so that {@code (objectClass=person)} finds it and a compare of
 * {@code objectClass: person} is true, as with slapd and OpenDJ.
 *
 * <p>A value the schema does not know is left as it is: the schema check that follows refuses it with its message.
 */
public final class ImpliedObjectClasses {
    /** The most lists of objectClass values an instance remembers (a file names a few dozen). */
    static final int LIMIT = 256;

    private final Schema schema;
    private final Map<List<ByteString>, List<String>> missingByValues = new ConcurrentHashMap<>();

    /**
     * For a caller that adds many entries (an import): remembers, per list of objectClass values, which superclasses
     * it lacks (the schema walk cost about a microsecond an entry). Thread-safe.
     */
    public ImpliedObjectClasses(Schema schema) {
        this.schema = schema;
    }

    /** As {@link #addTo(Entry, Schema)}, with this instance's schema and what it remembers. */
    public void addTo(Entry entry) {
        Attribute listed = entry.getAttribute(AttributeDescription.objectClass());
        if (listed == null) {
            return;
        }
        List<ByteString> values = new ArrayList<>(listed);
        List<String> missing = missingByValues.get(values);
        if (missing == null) {
            missing = missing(listed, schema);
            if (missingByValues.size() < LIMIT) {
                missingByValues.putIfAbsent(values, missing);
            }
        }
        add(entry, listed, missing);
    }

    /** Adds to {@code entry}'s objectClass values the superclasses of those values it does not list. */
    public static void addTo(Entry entry, Schema schema) {
        Attribute listed = entry.getAttribute(AttributeDescription.objectClass());
        if (listed != null) {
            add(entry, listed, missing(listed, schema));
        }
    }

    private static void add(Entry entry, Attribute listed, List<String> missing) {
        if (!missing.isEmpty()) {
            Attribute with = new LinkedAttribute(listed);
            missing.forEach(with::add);
            entry.replaceAttribute(with);
        }
    }

    /** The names of the superclasses of {@code listed}'s classes that it does not list, nearest first. */
    private static List<String> missing(Attribute listed, Schema schema) {
        Schema lenient = schema.asNonStrictSchema(); // an unknown name gives a placeholder, for the check to refuse
        Set<String> present = new HashSet<>();
        List<ObjectClass> known = new ArrayList<>();
        for (ByteString value : listed) {
            ObjectClass c = lenient.getObjectClass(value.toString());
            if (!c.isPlaceHolder()) {
                present.add(c.getOID());
                known.add(c);
            }
        }
        List<String> missing = new ArrayList<>();
        for (ObjectClass c : known) {
            addMissingSuperiors(c, present, missing);
        }
        return List.copyOf(missing);
    }

    private static void addMissingSuperiors(ObjectClass c, Set<String> present, List<String> missing) {
        for (ObjectClass superior : c.getSuperiorClasses()) {
            if (present.add(superior.getOID())) {
                missing.add(superior.getNameOrOID());
                addMissingSuperiors(superior, present, missing);
            }
        }
    }
}
