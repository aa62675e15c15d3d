package io.bindfirst.server.core.write;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.List;

import org.forgerock.i18n.LocalizableMessage;
import org.forgerock.i18n.LocalizableMessageBuilder;
import org.forgerock.opendj.ldap.AVA;
import org.forgerock.opendj.ldap.Attribute;
import org.forgerock.opendj.ldap.AttributeDescription;
import org.forgerock.opendj.ldap.ByteString;
import org.forgerock.opendj.ldap.Entry;
import org.forgerock.opendj.ldap.LinkedAttribute;
import org.forgerock.opendj.ldap.LinkedHashMapEntry;
import org.forgerock.opendj.ldap.schema.AttributeType;
import org.forgerock.opendj.ldap.schema.ObjectClass;
import org.forgerock.opendj.ldap.schema.Schema;
import org.forgerock.opendj.ldap.schema.Syntax;
import org.forgerock.opendj.ldap.schema.UnknownSchemaElementException;

import io.bindfirst.server.pwd.PasswordAttribute;

/**
 * What {@link Modifications} and {@link SchemaChecker} share: looking attribute descriptions up in the
 * server schema, copying entries, checking values against their syntax and quoting values in messages
 * without ever showing a password.
 */
final class EntrySchema {

    /**
     * userPassword (RFC 4519) and authPassword (RFC 3112), whose values never appear in a message, with what
     * messages say instead. Matched by OID, and by name for a type the schema does not know (a placeholder
     * has a made-up OID). Wider than {@link PasswordAttribute#isPassword}, on purpose: these are static
     * helpers given any schema, and hiding a value from a message is safe to over-apply, so subtypes and
     * authPassword (which the server does not check binds against) are hidden too.
     */
    private static final List<Secret> SECRETS = List.of(
            new Secret(PasswordAttribute.OID, PasswordAttribute.NAME, "a " + PasswordAttribute.NAME + " value"),
            new Secret("1.3.6.1.4.1.4203.1.3.4", "authPassword", "an authPassword value"));

    private record Secret(String oid, String name, String phrase) {
    }

    /** Values longer than this are cut in messages, so a huge value cannot flood a response or the log. */
    private static final int MAX_SHOWN_CHARS = 64;

    private EntrySchema() {
    }

    /**
     * The description {@code description} stands for in {@code schema}, or {@code null} if its type is not
     * defined there. Descriptions are looked up again by name because the entry or request may have been
     * decoded against another schema (or none), where the type is a placeholder that matches values
     * byte for byte and compares unequal to the real type.
     */
    static AttributeDescription resolve(AttributeDescription description, Schema schema) {
        try {
            AttributeDescription resolved = AttributeDescription.valueOf(description.toString(), schema);
            return resolved.getAttributeType().isPlaceHolder() ? null : resolved;
        } catch (RuntimeException e) {
            // UnknownSchemaElementException from a strict schema, or a description that does not parse.
            return null;
        }
    }

    /** The type {@code type} stands for in {@code schema}, or {@code null} if it is not defined there. */
    static AttributeType resolve(AttributeType type, Schema schema) {
        for (String key : new String[] { type.getOID(), type.getNameOrOID() }) {
            try {
                AttributeType resolved = schema.getAttributeType(key);
                if (!resolved.isPlaceHolder()) {
                    return resolved;
                }
            } catch (RuntimeException e) {
                // not known under this key; a placeholder's OID is made up, so its name is tried too
            }
        }
        return null;
    }

    /** The object class called {@code name} (or with that OID) in {@code schema}, or {@code null}. */
    static ObjectClass objectClass(String name, Schema schema) {
        // One lookup, not hasObjectClass then getObjectClass: each lower-cases the name and searches the schema,
        // for every class of every entry an add or an import checks.
        try {
            ObjectClass oc = schema.getObjectClass(name);
            return oc.isPlaceHolder() ? null : oc; // a non-strict schema's answer to a name it does not know
        } catch (UnknownSchemaElementException e) {
            return null; // a strict schema's
        }
    }

    /**
     * A copy of {@code entry} whose attributes are new objects, with descriptions from {@code schema}
     * where the type is known there (unknown ones are kept as they are). {@code new LinkedHashMapEntry(entry)}
     * is not enough: it shares the attribute objects, so changing the copy would change the original.
     */
    static Entry copy(Entry entry, Schema schema) {
        Entry copy = new LinkedHashMapEntry(entry.getName());
        for (Attribute attribute : entry.getAllAttributes()) {
            AttributeDescription resolved = resolve(attribute.getAttributeDescription(), schema);
            copy.addAttribute(new LinkedAttribute(
                    resolved != null ? resolved : attribute.getAttributeDescription(), attribute));
        }
        return copy;
    }

    /**
     * Whether the entry holds the value of this RDN component, per the attribute's equality rule. A single value
     * with the very bytes of the RDN's is equal under any rule, and is what entries usually hold: found so, nothing
     * is normalized (normalizing both sides was a fifth of an import's schema check).
     */
    static boolean hasRdnValue(Entry entry, AVA ava, Schema schema) {
        AttributeType type = resolve(ava.getAttributeType(), schema);
        AttributeDescription description = AttributeDescription.create(type != null ? type : ava.getAttributeType());
        Attribute attribute = entry.getAttribute(description);
        if (attribute == null) {
            return false;
        }
        ByteString value = ava.getAttributeValue();
        return attribute.size() == 1 && attribute.firstValue().equals(value) || attribute.contains(value);
    }

    /**
     * {@code null} if {@code value} is acceptable for the syntax of the attribute, else the reason, ready
     * for a client message (it names the attribute and, unless the attribute holds passwords, the value).
     */
    static String syntaxProblem(AttributeDescription description, ByteString value) {
        return syntaxProblem(description, value, new LocalizableMessageBuilder());
    }

    /**
     * As {@link #syntaxProblem(AttributeDescription, ByteString)}, with a builder for the validator's reason that
     * the caller keeps for many values (an import checks a million entries of a dozen values each, and a builder
     * per value was 2% of what it allocated). A validator writes to it only to refuse a value, and the
     * first refusal ends a check, so the builder is still empty when it is passed again; one that is not is left
     * alone.
     */
    static String syntaxProblem(AttributeDescription description, ByteString value,
            LocalizableMessageBuilder emptyReason) {
        AttributeType type = description.getAttributeType();
        Syntax syntax = type.getSyntax();
        // Empty means no message appended, asked without formatting: the builder's length() formats its text,
        // which for every value checked allocated more than a builder of its own would.
        LocalizableMessageBuilder reason =
                emptyReason.toMessage() == LocalizableMessage.EMPTY ? emptyReason : new LocalizableMessageBuilder();
        if (syntax.valueIsAcceptable(value, reason)) {
            return null;
        }
        String syntaxName =
                syntax.getName() != null && !syntax.getName().isEmpty() ? syntax.getName() : syntax.getOID();
        String text = show(type, value) + " of attribute " + description + " is not valid for its syntax ("
                + syntaxName + ")";
        // The validator's reason usually quotes the value, so it is left out for passwords.
        return isSecret(type) || reason.length() == 0 ? text : text + ": " + reason;
    }

    /**
     * The value as a message shows it: {@code the value "x"}, or {@code a userPassword value} for
     * password attributes, or {@code a binary value (n bytes)} when it is not readable text.
     */
    static String show(AttributeType type, ByteString value) {
        String secret = secretPhrase(type);
        if (secret != null) {
            return secret;
        }
        String text = readableText(value);
        if (text == null) {
            return "a binary value (" + value.length() + " bytes)";
        }
        if (text.length() > MAX_SHOWN_CHARS) {
            text = text.substring(0, MAX_SHOWN_CHARS) + "...";
        }
        return "the value \"" + text + "\"";
    }

    /** Whether the type is, or is a subtype of, a password attribute. */
    static boolean isSecret(AttributeType type) {
        return secretPhrase(type) != null;
    }

    /** "a userPassword value" for userPassword and its subtypes, likewise for authPassword; else null. */
    private static String secretPhrase(AttributeType type) {
        for (AttributeType t = type; t != null; t = t.getSuperiorType()) {
            for (Secret secret : SECRETS) {
                if (secret.oid().equals(t.getOID()) || t.hasName(secret.name())) {
                    return secret.phrase();
                }
            }
        }
        return null;
    }

    private static String readableText(ByteString value) {
        String text;
        try {
            text = StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(value.toByteArray()))
                    .toString();
        } catch (CharacterCodingException e) {
            return null;
        }
        for (int i = 0; i < text.length(); i++) {
            if (Character.isISOControl(text.charAt(i))) {
                return null;
            }
        }
        return text;
    }
}
