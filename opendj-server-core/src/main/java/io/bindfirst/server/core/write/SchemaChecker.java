package io.bindfirst.server.core.write;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Collectors;

import org.forgerock.i18n.LocalizableMessageBuilder;
import org.forgerock.opendj.ldap.AVA;
import org.forgerock.opendj.ldap.Attribute;
import org.forgerock.opendj.ldap.AttributeDescription;
import org.forgerock.opendj.ldap.ByteString;
import org.forgerock.opendj.ldap.Entry;
import org.forgerock.opendj.ldap.LinkedAttribute;
import org.forgerock.opendj.ldap.LinkedHashMapEntry;
import org.forgerock.opendj.ldap.ResultCode;
import org.forgerock.opendj.ldap.schema.AttributeType;
import org.forgerock.opendj.ldap.schema.ObjectClass;
import org.forgerock.opendj.ldap.schema.ObjectClassType;
import org.forgerock.opendj.ldap.schema.Schema;

/**
 * Checks that an entry about to be stored (by an add, or as the result of a modify) conforms to the
 * schema (RFC 4512 2.4, 2.5, 4.3; RFC 4511 4.6 and 4.7).
 *
 * <p>The SDK's {@code Schema.validateEntry} is not used: it reports every problem as a message without
 * saying which rule was broken, and the rules map to different LDAP result codes. The checks, in the
 * order they are made (the first failure is reported):
 * <ol>
 * <li>every attribute type is defined ({@code undefinedAttributeType}) and has a value
 *     ({@code protocolError}: RFC 4511 4.7 requires at least one value per attribute of an add);</li>
 * <li>there is an objectClass attribute, every class it names is defined, and the classes (with the
 *     superclasses they imply, which need not be listed) hold exactly one structural chain
 *     ({@code objectClassViolation});</li>
 * <li>every value conforms to its attribute's syntax ({@code invalidAttributeSyntax});</li>
 * <li>a SINGLE-VALUE attribute has one value ({@code constraintViolation}, the code RFC 4511 appendix A
 *     names for exactly this case);</li>
 * <li>the values of the RDN are present ({@code namingViolation}, as OpenLDAP answers): RFC 4511 4.7 says
 *     clients MUST include them in an add. This check adds nothing; an add operation that supplies missing
 *     RDN values on the client's behalf (as OpenDJ does) must do so before calling it. A modify that
 *     removes them is refused earlier by {@link Modifications#apply}, with {@code notAllowedOnRDN};</li>
 * <li>every MUST attribute of every class is present ({@code objectClassViolation}); an attribute with
 *     options, or of a subtype, counts;</li>
 * <li>every user attribute is allowed by some class, unless the entry is an {@code extensibleObject};
 *     operational attributes are always allowed ({@code objectClassViolation}).</li>
 * </ol>
 * Not checked: NO-USER-MODIFICATION (the operations decide who may set such attributes), obsolete
 * elements, DIT content rules, name forms and DIT structure rules (the server's schema files define none).
 */
public final class SchemaChecker {

    private final Schema schema;
    private final Entry checked;
    /** The object-class work of earlier checks, or null. */
    private final ObjectClassSets remembered;
    /** Where a syntax validator says why it refuses a value: one for all the values of the entry. */
    private final LocalizableMessageBuilder reason = new LocalizableMessageBuilder();

    private SchemaChecker(Entry entry, Schema schema, ObjectClassSets remembered) {
        this.schema = schema;
        this.checked = entry;
        this.remembered = remembered;
    }

    /**
     * Checks {@code entry} against {@code schema}; returns normally if it conforms.
     *
     * @throws WriteException with the result code of the first rule the entry breaks and a message naming
     *         the attribute or object class
     */
    public static void check(Entry entry, Schema schema) throws WriteException {
        Objects.requireNonNull(entry, "entry");
        Objects.requireNonNull(schema, "schema");
        new SchemaChecker(entry, schema, null).run(entry);
    }

    /**
     * As {@link #check(Entry, Schema)}, against the schema of {@code remembered}, reusing (and adding to) what it
     * remembers of the object classes of entries checked before: for a caller that checks many entries.
     */
    public static void check(Entry entry, ObjectClassSets remembered) throws WriteException {
        Objects.requireNonNull(entry, "entry");
        new SchemaChecker(entry, remembered.schema(), remembered).run(entry);
    }

    private void run(Entry original) throws WriteException {
        Entry entry = resolved(original);
        ObjectClassSets.Resolved classes = objectClasses(entry);
        for (Attribute attribute : entry.getAllAttributes()) {
            checkSyntax(attribute);
        }
        for (Attribute attribute : entry.getAllAttributes()) {
            checkSingleValued(attribute);
        }
        checkNamingValues(entry);
        checkRequired(entry, classes.classes);
        checkAllowed(entry, classes);
    }

    /**
     * The entry with every description taken from the schema, so that types and matching rules are real: the
     * entry itself when it was decoded with this schema (every type is this schema's own object and every
     * attribute has a value), as an import's entries and most adds are, else a copy. Copying every entry (each
     * value normalized again) cost an import of a million users about a tenth of its time.
     */
    private Entry resolved(Entry original) throws WriteException {
        if (decodedWithThisSchema(original)) {
            return original;
        }
        Entry copy = new LinkedHashMapEntry(original.getName());
        for (Attribute attribute : original.getAllAttributes()) {
            AttributeDescription description = EntrySchema.resolve(attribute.getAttributeDescription(), schema);
            if (description == null) {
                throw fail(ResultCode.UNDEFINED_ATTRIBUTE_TYPE, "attribute type '"
                        + attribute.getAttributeDescriptionAsString() + "' is not defined in the schema");
            }
            if (attribute.isEmpty()) {
                throw fail(ResultCode.PROTOCOL_ERROR, "attribute " + description + " has no values");
            }
            copy.addAttribute(new LinkedAttribute(description, attribute));
        }
        return copy;
    }

    private boolean decodedWithThisSchema(Entry entry) {
        for (Attribute attribute : entry.getAllAttributes()) {
            AttributeType type = attribute.getAttributeDescription().getAttributeType();
            if (attribute.isEmpty() || type.isPlaceHolder() || !schema.hasAttributeType(type.getOID())
                    || schema.getAttributeType(type.getOID()) != type) {
                return false;
            }
        }
        return true;
    }

    /**
     * The entry's object classes and all their superclasses, the listed ones first, checked to hold one structural
     * chain ({@link #checkOneStructuralChain}); remembered by the list of names when the caller keeps them.
     */
    private ObjectClassSets.Resolved objectClasses(Entry entry) throws WriteException {
        Attribute objectClass = null;
        for (Attribute attribute : entry.getAllAttributes()) {
            AttributeDescription description = attribute.getAttributeDescription();
            if (description.getAttributeType().isObjectClass() && !description.hasOptions()) {
                objectClass = attribute;
            }
        }
        if (objectClass == null) {
            throw fail(ResultCode.OBJECTCLASS_VIOLATION, "it has no objectClass attribute");
        }
        List<String> values = new ArrayList<>(objectClass.size());
        for (ByteString value : objectClass) {
            values.add(value.toString());
        }
        ObjectClassSets.Resolved known = remembered == null ? null : remembered.get(values);
        if (known != null) {
            return known;
        }
        Set<ObjectClass> classes = classesNamed(values);
        checkOneStructuralChain(classes, values);
        ObjectClassSets.Resolved resolved = new ObjectClassSets.Resolved(classes, List.copyOf(values),
                remembered != null);
        if (remembered != null) {
            remembered.remember(values, resolved);
        }
        return resolved;
    }

    private Set<ObjectClass> classesNamed(List<String> names) throws WriteException {
        Set<ObjectClass> classes = new LinkedHashSet<>();
        for (String name : names) {
            ObjectClass oc = EntrySchema.objectClass(name, schema);
            if (oc == null) {
                throw fail(ResultCode.OBJECTCLASS_VIOLATION,
                        "object class '" + name + "' is not defined in the schema");
            }
            classes.add(oc);
        }
        List<ObjectClass> pending = new ArrayList<>(classes);
        while (!pending.isEmpty()) {
            for (ObjectClass superior : pending.remove(0).getSuperiorClasses()) {
                if (classes.add(superior)) {
                    pending.add(superior);
                }
            }
        }
        return classes;
    }

    /**
     * RFC 4512 2.4.2: an entry belongs to exactly one structural class, with its superclasses. So among the
     * structural classes, exactly one must not be a superclass of another.
     */
    private void checkOneStructuralChain(Set<ObjectClass> classes, List<String> listedNames) throws WriteException {
        List<ObjectClass> structural = new ArrayList<>(classes.size());
        for (ObjectClass oc : classes) {
            if (oc.getObjectClassType() == ObjectClassType.STRUCTURAL) {
                structural.add(oc);
            }
        }
        List<ObjectClass> mostSpecific = new ArrayList<>(1);
        for (ObjectClass candidate : structural) {
            if (!isSuperclassOfAnother(candidate, structural)) {
                mostSpecific.add(candidate);
            }
        }
        if (mostSpecific.isEmpty()) {
            throw fail(ResultCode.OBJECTCLASS_VIOLATION, "it has no structural object class (its object classes are "
                    + String.join(", ", listedNames) + ")");
        }
        if (mostSpecific.size() > 1) {
            throw fail(ResultCode.OBJECTCLASS_VIOLATION, "its structural object classes "
                    + mostSpecific.stream().map(ObjectClass::getNameOrOID).collect(Collectors.joining(" and "))
                    + " are unrelated; an entry has exactly one structural object class, with its superclasses");
        }
    }

    private static boolean isSuperclassOfAnother(ObjectClass candidate, List<ObjectClass> structural) {
        for (ObjectClass other : structural) {
            if (other != candidate && other.isDescendantOf(candidate)) {
                return true;
            }
        }
        return false;
    }

    private void checkSyntax(Attribute attribute) throws WriteException {
        AttributeDescription description = attribute.getAttributeDescription();
        if (description.hasOption("binary") && !description.getAttributeType().getSyntax().isBEREncodingRequired()) {
            // RFC 4522 2: the option is for the syntaxes whose values are BER (certificates and their kin); on any
            // other type the description is unrecognized. slapd and OpenDJ answer undefinedAttributeType too.
            throw fail(ResultCode.UNDEFINED_ATTRIBUTE_TYPE, "attribute description '" + description
                    + "': the binary option (RFC 4522) is only for attributes whose values are BER-encoded, such as "
                    + "userCertificate; " + description.getAttributeType().getNameOrOID()
                    + " is not: leave out ';binary'");
        }
        for (ByteString value : attribute) {
            String problem = EntrySchema.syntaxProblem(attribute.getAttributeDescription(), value, reason);
            if (problem != null) {
                throw fail(ResultCode.INVALID_ATTRIBUTE_SYNTAX, problem);
            }
        }
    }

    private void checkSingleValued(Attribute attribute) throws WriteException {
        AttributeDescription description = attribute.getAttributeDescription();
        if (description.getAttributeType().isSingleValue() && attribute.size() > 1) {
            throw fail(ResultCode.CONSTRAINT_VIOLATION, "attribute " + description
                    + " is single-valued (SINGLE-VALUE) but has " + attribute.size() + " values");
        }
    }

    private void checkNamingValues(Entry entry) throws WriteException {
        if (entry.getName().isRootDN()) {
            return;
        }
        for (AVA ava : entry.getName().rdn()) {
            if (!EntrySchema.hasRdnValue(entry, ava, schema)) {
                throw fail(ResultCode.NAMING_VIOLATION,
                        EntrySchema.show(ava.getAttributeType(), ava.getAttributeValue())
                        + " of naming attribute " + ava.getAttributeName()
                        + " is not present in the entry (the values of the RDN must be)");
            }
        }
    }

    private void checkRequired(Entry entry, Set<ObjectClass> classes) throws WriteException {
        for (ObjectClass oc : classes) {
            // Declared, not inherited, attributes: the message then names the class that requires it.
            for (AttributeType required : oc.getDeclaredRequiredAttributes()) {
                if (!hasAttributeOfType(entry, required)) {
                    throw fail(ResultCode.OBJECTCLASS_VIOLATION, "required attribute " + required.getNameOrOID()
                            + " is missing (objectClass " + oc.getNameOrOID() + ")");
                }
            }
        }
    }

    private void checkAllowed(Entry entry, ObjectClassSets.Resolved classes) throws WriteException {
        if (classes.extensible) {
            // RFC 4512 4.3: extensibleObject allows any user attribute. (The SDK's extensibleObject also
            // reports every type as optional; this does not rely on that.)
            return;
        }
        for (Attribute attribute : entry.getAllAttributes()) {
            AttributeType type = attribute.getAttributeDescription().getAttributeType();
            if (!type.isOperational() && !classes.allows(type)) {
                throw fail(ResultCode.OBJECTCLASS_VIOLATION, "attribute " + attribute.getAttributeDescription()
                        + " is not allowed by its object classes (" + String.join(", ", classes.listedNames) + ")");
            }
        }
    }

    private static boolean hasAttributeOfType(Entry entry, AttributeType required) {
        for (Attribute attribute : entry.getAllAttributes()) {
            if (attribute.getAttributeDescription().getAttributeType().isSubTypeOf(required)) {
                return true;
            }
        }
        return false;
    }

    /** The entry's name goes into the message only on failure: an import checks a million entries that pass. */
    private WriteException fail(ResultCode code, String reason) {
        return new WriteException(code, "Entry " + checked.getName() + " violates the schema: " + reason);
    }
}
