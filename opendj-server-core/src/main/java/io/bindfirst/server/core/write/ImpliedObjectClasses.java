package io.bindfirst.server.core.write;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

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
    private ImpliedObjectClasses() {
    }

    /** Adds to {@code entry}'s objectClass values the superclasses of those values it does not list. */
    public static void addTo(Entry entry, Schema schema) {
        AttributeDescription objectClass = AttributeDescription.objectClass();
        Attribute listed = entry.getAttribute(objectClass);
        if (listed == null) {
            return;
        }
        Set<String> present = new HashSet<>();
        List<ObjectClass> known = new ArrayList<>();
        for (ByteString value : listed) {
            ObjectClass c = schema.asNonStrictSchema().getObjectClass(value.toString());
            if (!c.isPlaceHolder()) {
                present.add(c.getOID());
                known.add(c);
            }
        }
        List<String> missing = new ArrayList<>();
        for (ObjectClass c : known) {
            addMissingSuperiors(c, present, missing);
        }
        if (!missing.isEmpty()) {
            Attribute with = new LinkedAttribute(listed);
            missing.forEach(with::add);
            entry.replaceAttribute(with);
        }
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
