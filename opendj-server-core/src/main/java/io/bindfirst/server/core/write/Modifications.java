package io.bindfirst.server.core.write;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.regex.Pattern;

import org.forgerock.opendj.ldap.AVA;
import org.forgerock.opendj.ldap.Attribute;
import org.forgerock.opendj.ldap.AttributeDescription;
import org.forgerock.opendj.ldap.ByteString;
import org.forgerock.opendj.ldap.Entry;
import org.forgerock.opendj.ldap.LinkedAttribute;
import org.forgerock.opendj.ldap.Modification;
import org.forgerock.opendj.ldap.ResultCode;
import org.forgerock.opendj.ldap.schema.AttributeType;
import org.forgerock.opendj.ldap.schema.Schema;

/**
 * The changes of a modify request (RFC 4511 4.6, plus increment from RFC 4525) applied to an entry.
 *
 * <p>The modifications are applied in order to a copy of the entry; the first one that fails stops the
 * request and nothing is returned, so a modify is all or nothing and the caller's entry is never touched.
 * Values are compared with the attribute's equality matching rule ({@code mail: USER@EXAMPLE.COM} deletes
 * {@code user@example.com}); an attribute description with options ({@code cn;lang-fr}) is an attribute of
 * its own. Only the changed values are checked here (type known, not NO-USER-MODIFICATION, syntax); the
 * entry as a whole (object classes, required and allowed attributes, SINGLE-VALUE) is checked by
 * {@link SchemaChecker#check} on the returned entry, since intermediate states may violate the schema.
 */
public final class Modifications {

    private static final String INTEGER_SYNTAX_OID = "1.3.6.1.4.1.1466.115.121.1.27";
    /** RFC 4517 3.3.16 Integer: no leading zeros, no plus sign, no "-0". */
    private static final Pattern INTEGER = Pattern.compile("0|-?[1-9][0-9]*");

    private final Entry entry;
    private final Schema schema;
    private final boolean permissive;
    private final String prefix;
    /** Whether attributes the server maintains may be written (the Relax Rules control). */
    private final boolean relaxed;

    private Modifications(Entry entry, Schema schema, boolean permissive, boolean relaxed) {
        this.entry = entry;
        this.schema = schema;
        this.permissive = permissive;
        this.relaxed = relaxed;
        this.prefix = "Entry " + entry.getName() + " cannot be modified: ";
    }

    /**
     * Applies {@code mods} in order to a copy of {@code current} and returns the copy.
     *
     * @param current the entry as stored; not modified
     * @param mods the request's modifications, in request order
     * @param schema the server schema
     * @return a new entry with all modifications applied
     * @throws WriteException with the result code of the first modification that cannot be applied
     */
    public static Entry apply(Entry current, List<Modification> mods, Schema schema) throws WriteException {
        return apply(current, mods, schema, false);
    }

    /**
     * As {@link #apply(Entry, List, Schema)}; with {@code permissive} (the Permissive Modify control,
     * 1.2.840.113556.1.4.1413, as Active Directory and OpenDJ implement it), adding a value the attribute already
     * has, or deleting a value or an attribute that is not there, changes nothing instead of failing.
     */
    public static Entry apply(Entry current, List<Modification> mods, Schema schema, boolean permissive)
            throws WriteException {
        return apply(current, mods, schema, permissive, false);
    }

    /**
     * As {@link #apply(Entry, List, Schema, boolean)}; with {@code relaxed} (the Relax Rules control,
     * draft-zeilenga-ldap-relax, as OpenLDAP implements it; the caller checks that a root user asked), attributes
     * the server maintains (NO-USER-MODIFICATION) may be written too: how an administrator carries account state
     * over from another server, and how a replica records a lockout or grace login on its master.
     */
    public static Entry apply(Entry current, List<Modification> mods, Schema schema, boolean permissive,
                              boolean relaxed) throws WriteException {
        Objects.requireNonNull(current, "current");
        Objects.requireNonNull(mods, "mods");
        Objects.requireNonNull(schema, "schema");
        Entry copy = EntrySchema.copy(current, schema);
        Modifications m = new Modifications(copy, schema, permissive, relaxed);
        List<AVA> rdnValuesBefore = m.rdnValuesPresent();
        for (Modification mod : mods) {
            m.apply(mod);
        }
        m.checkRdnValuesKept(rdnValuesBefore);
        return copy;
    }

    private void apply(Modification mod) throws WriteException {
        Attribute modAttribute = mod.getAttribute();
        AttributeDescription description = EntrySchema.resolve(modAttribute.getAttributeDescription(), schema);
        if (description == null) {
            throw fail(ResultCode.UNDEFINED_ATTRIBUTE_TYPE, "attribute type '"
                    + modAttribute.getAttributeDescriptionAsString() + "' is not defined in the schema");
        }
        AttributeType type = description.getAttributeType();
        if (type.isNoUserModification() && !relaxed) {
            // RFC 4512 4.1.2: only the server changes these. OpenDJ and OpenLDAP both answer constraintViolation.
            throw fail(ResultCode.CONSTRAINT_VIOLATION, "attribute " + description
                    + " is maintained by the server and cannot be modified by clients (NO-USER-MODIFICATION)");
        }
        List<ByteString> values = new ArrayList<>();
        modAttribute.forEach(values::add);

        switch (mod.getModificationType().asEnum()) {
        case ADD:
            add(description, values);
            break;
        case DELETE:
            delete(description, values);
            break;
        case REPLACE:
            replace(description, values);
            break;
        case INCREMENT:
            increment(description, values);
            break;
        default:
            throw fail(ResultCode.PROTOCOL_ERROR, "modification type " + mod.getModificationType()
                    + " on attribute " + description + " is not supported");
        }
    }

    private void add(AttributeDescription description, List<ByteString> values) throws WriteException {
        if (values.isEmpty()) {
            // The RFC 4511 add semantics ("add values listed") need values; OpenDJ answers protocolError too.
            throw fail(ResultCode.PROTOCOL_ERROR, "the add of attribute " + description + " lists no values");
        }
        checkNewValues(description, values);
        Attribute existing = entry.getAttribute(description);
        Attribute updated = existing != null ? new LinkedAttribute(existing) : new LinkedAttribute(description);
        for (ByteString value : values) {
            // contains first: the SDK's add of an equal value replaces the stored form with the request's.
            if (updated.contains(value)) {
                if (permissive) {
                    continue;
                }
                throw fail(ResultCode.ATTRIBUTE_OR_VALUE_EXISTS, "attribute " + description + " already has "
                        + EntrySchema.show(description.getAttributeType(), value));
            }
            updated.add(value);
        }
        entry.replaceAttribute(updated);
    }

    private void delete(AttributeDescription description, List<ByteString> values) throws WriteException {
        Attribute existing = entry.getAttribute(description);
        if (existing == null) {
            if (permissive) {
                return;
            }
            throw fail(ResultCode.NO_SUCH_ATTRIBUTE, "attribute " + description + " is not present, so it cannot"
                    + (values.isEmpty() ? " be deleted" : " have values deleted"));
        }
        if (values.isEmpty()) {
            entry.removeAttribute(description);
            return;
        }
        // Values are not checked against the syntax: a value is either present (and may be removed, even one
        // stored before a syntax was tightened) or it is not (noSuchAttribute).
        Attribute updated = new LinkedAttribute(existing);
        for (ByteString value : values) {
            if (!updated.remove(value) && !permissive) {
                throw fail(ResultCode.NO_SUCH_ATTRIBUTE, "attribute " + description + " does not have "
                        + EntrySchema.show(description.getAttributeType(), value));
            }
        }
        entry.replaceAttribute(updated); // an attribute left without values is removed
    }

    private void replace(AttributeDescription description, List<ByteString> values) throws WriteException {
        if (values.isEmpty()) {
            entry.removeAttribute(description); // RFC 4511: ignored if the attribute does not exist
            return;
        }
        checkNewValues(description, values);
        Attribute updated = new LinkedAttribute(description);
        for (ByteString value : values) {
            if (!updated.add(value)) {
                // An attribute's values are a set (RFC 4512 2.3); OpenLDAP rejects such a replace the same way.
                throw fail(ResultCode.ATTRIBUTE_OR_VALUE_EXISTS, "the replacement values of attribute "
                        + description + " list " + EntrySchema.show(description.getAttributeType(), value)
                        + " more than once");
            }
        }
        entry.replaceAttribute(updated);
    }

    /**
     * RFC 4525: exactly one value (else protocolError), an attribute that can be incremented (else
     * constraintViolation), an integer value (invalidAttributeSyntax, as OpenDJ and OpenLDAP answer).
     * A missing attribute is noSuchAttribute, the RFC 4511 code for "the entry does not contain the
     * specified attribute" (OpenLDAP does the same; OpenDJ answers constraintViolation).
     */
    private void increment(AttributeDescription description, List<ByteString> values) throws WriteException {
        if (values.size() != 1) {
            throw fail(ResultCode.PROTOCOL_ERROR, "an increment of attribute " + description
                    + " must give exactly one value, not " + values.size());
        }
        AttributeType type = description.getAttributeType();
        if (!INTEGER_SYNTAX_OID.equals(type.getSyntax().getOID())) {
            throw fail(ResultCode.CONSTRAINT_VIOLATION, "attribute " + description
                    + " cannot be incremented: only attributes with the Integer syntax can");
        }
        BigInteger delta = integer(values.get(0));
        if (delta == null) {
            throw fail(ResultCode.INVALID_ATTRIBUTE_SYNTAX, "the increment of attribute " + description
                    + " is not an integer: " + EntrySchema.show(type, values.get(0)));
        }
        Attribute existing = entry.getAttribute(description);
        if (existing == null) {
            throw fail(ResultCode.NO_SUCH_ATTRIBUTE, "attribute " + description
                    + " is not present, so it cannot be incremented");
        }
        Attribute updated = new LinkedAttribute(existing.getAttributeDescription());
        for (ByteString value : existing) {
            BigInteger number = integer(value);
            if (number == null) {
                throw fail(ResultCode.INVALID_ATTRIBUTE_SYNTAX, "attribute " + description
                        + " cannot be incremented: it holds a value that is not an integer, "
                        + EntrySchema.show(type, value));
            }
            updated.add(ByteString.valueOfUtf8(number.add(delta).toString()));
        }
        entry.replaceAttribute(updated);
    }

    /** Checks values about to be stored: their syntax, and that object classes exist. */
    private void checkNewValues(AttributeDescription description, List<ByteString> values) throws WriteException {
        for (ByteString value : values) {
            String problem = EntrySchema.syntaxProblem(description, value);
            if (problem != null) {
                throw fail(ResultCode.INVALID_ATTRIBUTE_SYNTAX, problem);
            }
        }
        if (description.getAttributeType().isObjectClass()) {
            for (ByteString value : values) {
                if (EntrySchema.objectClass(value.toString(), schema) == null) {
                    throw fail(ResultCode.OBJECTCLASS_VIOLATION,
                            "object class '" + value + "' is not defined in the schema");
                }
            }
        }
    }

    /** The RDN components whose value the entry holds before the changes (a stored entry should hold all). */
    private List<AVA> rdnValuesPresent() {
        List<AVA> present = new ArrayList<>();
        if (!entry.getName().isRootDN()) {
            for (AVA ava : entry.getName().rdn()) {
                if (EntrySchema.hasRdnValue(entry, ava, schema)) {
                    present.add(ava);
                }
            }
        }
        return present;
    }

    /**
     * RFC 4511 4.6: a modify cannot remove the values that form the RDN. Checked on the final entry, so
     * that deleting and re-adding a naming value within one request is fine, as the RFC judges only the
     * result of the whole list of changes.
     */
    private void checkRdnValuesKept(List<AVA> before) throws WriteException {
        for (AVA ava : before) {
            if (!EntrySchema.hasRdnValue(entry, ava, schema)) {
                throw fail(ResultCode.NOT_ALLOWED_ON_RDN,
                        EntrySchema.show(ava.getAttributeType(), ava.getAttributeValue())
                        + " of attribute " + ava.getAttributeName() + " is part of the entry's RDN and cannot be"
                        + " removed (rename the entry with a modify DN request instead)");
            }
        }
    }

    private static BigInteger integer(ByteString value) {
        String text = value.toString();
        return INTEGER.matcher(text).matches() ? new BigInteger(text) : null;
    }

    private WriteException fail(ResultCode code, String reason) {
        return new WriteException(code, prefix + reason);
    }
}
