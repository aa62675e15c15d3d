package io.bindfirst.server.access.aci;

import java.util.ArrayList;
import java.util.List;

import org.forgerock.opendj.ldap.AttributeDescription;
import org.forgerock.opendj.ldap.schema.AttributeType;
import org.forgerock.opendj.ldap.schema.Schema;

/**
 * {@code targetattr}: the attributes an ACI's attribute rights apply to. {@code *} is every user attribute,
 * {@code +} every operational one, names are joined by {@code ||}; with {@code !=} it is every user attribute
 * but the listed ones. Subtypes are covered by their supertype ({@code name} covers {@code cn}).
 */
record Targets(boolean negated, boolean allUser, boolean allOperational, List<AttributeType> types) {

    static Targets parse(String value, boolean negated, Schema schema) {
        boolean user = false;
        boolean operational = false;
        List<AttributeType> out = new ArrayList<>();
        for (String part : value.split("\\|\\|")) {
            String name = part.trim();
            if (name.equals("*")) {
                user = true;
            } else if (name.equals("+")) {
                operational = true;
            } else {
                out.add(attribute(name, schema).getAttributeType());
            }
        }
        if (negated && (user || operational)) {
            throw new IllegalArgumentException("targetattr != takes attribute names, not * or +");
        }
        return new Targets(negated, user, operational, List.copyOf(out));
    }

    /** An attribute description the schema knows; refused with its name otherwise. */
    static AttributeDescription attribute(String name, Schema schema) {
        AttributeDescription ad;
        try {
            ad = AttributeDescription.valueOf(name, schema.asNonStrictSchema());
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("the attribute " + name + " is not valid");
        }
        if (ad.getAttributeType().isPlaceHolder()) {
            throw new IllegalArgumentException("the attribute type " + name + " is not in the schema");
        }
        return AttributeDescription.valueOf(name, schema);
    }

    /** Whether the ACI's attribute rights cover {@code type}. */
    boolean covers(AttributeType type) {
        boolean listed = false;
        for (AttributeType t : types) {
            if (type.isSubTypeOf(t)) {
                listed = true;
                break;
            }
        }
        if (negated) {
            return !listed && !type.isOperational();
        }
        return listed || (type.isOperational() ? allOperational : allUser);
    }

    /** Whether it covers every user attribute ({@code *}): such an ACI's deny also hides the entry itself. */
    boolean coversAllUserAttributes() {
        return allUser;
    }
}
