package io.bindfirst.tools;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.forgerock.opendj.ldap.Attribute;
import org.forgerock.opendj.ldap.AttributeDescription;
import org.forgerock.opendj.ldap.ByteString;
import org.forgerock.opendj.ldap.DN;
import org.forgerock.opendj.ldap.Entry;
import org.forgerock.opendj.ldap.LinkedAttribute;
import org.forgerock.opendj.ldap.LinkedHashMapEntry;
import org.forgerock.opendj.ldap.schema.Schema;
import org.forgerock.opendj.ldap.schema.SchemaValidationPolicy;

/**
 * Reads a plain LDIF record, the shape of nearly every record of an import (and of every record an export
 * writes for ASCII data), into the very entry the SDK's {@code LDIFEntryReader} gives for it under the import's
 * settings (no exclusions, no filters, the schema validation policy left at "ignore"), without three costs that
 * reader pays per record: a validation of the entry against the schema that, under that policy, can neither
 * refuse nor warn; the reading of the record's lines again; and the normalization of every object class value by
 * the schema (to find duplicates), which is done here once per list of object classes and then copied, the
 * lists repeating from entry to entry. In a million-user import's CPU profile the SDK's reader took 54% of the
 * checking thread, the normalization of object classes 12% and the validation 9%.
 * <p>
 * A record is plain when its first line is {@code dn: } with the DN in text, and no line is a comment, a
 * continuation, or a value read from a URL ({@code attr:< url}). For any other record, and for a plain one whose
 * DN, attribute description or base64 value would not decode, {@link #entry} answers {@code null}: the caller
 * reads it with the SDK's reader, which gives its own answer and message. Thread-safe.
 */
final class PlainLdifRecords {
    /** How many attribute descriptions and object class lists are remembered (a file has a few dozen). */
    private static final int REMEMBERED = 1024;

    private final Schema schema;
    /** The description each attribute name, as written, decodes to (with {@code ;binary} added where required). */
    private final Map<String, AttributeDescription> descriptions = new ConcurrentHashMap<>();
    /** The object class attribute each list of values, as written, makes; only ever copied. */
    private final Map<ObjectClassList, LinkedAttribute> objectClassLists = new ConcurrentHashMap<>();

    /** @param schema the server's: used as the SDK's reader uses it under the import's policy (non-strict) */
    PlainLdifRecords(Schema schema) {
        this.schema = SchemaValidationPolicy.ignoreAll().adaptSchemaForValidation(schema);
    }

    /** The list of object classes as written: the attribute's name and its values in order. */
    private record ObjectClassList(String name, List<ByteString> values) {
    }

    /** The entry the SDK's reader would give for {@code lines}, or {@code null} for the SDK to read them. */
    Entry entry(List<String> lines) {
        int n = lines.size();
        if (n == 0) {
            return null;
        }
        DN dn = dn(lines.get(0));
        if (dn == null) {
            return null;
        }
        // Everything is decoded before the entry is made: a record that falls back leaves nothing behind.
        String[] names = new String[n];
        AttributeDescription[] types = new AttributeDescription[n];
        ByteString[] values = new ByteString[n];
        for (int i = 1; i < n; i++) {
            String line = lines.get(i);
            if (line.isEmpty() || line.charAt(0) == '#' || line.charAt(0) == ' ' || line.charAt(0) == '\t') {
                return null;
            }
            int colon = line.indexOf(':');
            if (colon <= 0) {
                return null;
            }
            names[i] = line.substring(0, colon);
            types[i] = description(names[i]);
            values[i] = value(line, colon);
            if (types[i] == null || values[i] == null) {
                return null;
            }
        }
        Entry entry = new LinkedHashMapEntry(dn);
        for (int i = 1; i < n; i++) {
            Attribute attribute = entry.getAttribute(types[i]);
            if (attribute == null && types[i].getAttributeType().isObjectClass()) {
                int end = i + 1;
                while (end < n && names[end].equals(names[i])) {
                    end++;
                }
                entry.addAttribute(objectClasses(names[i], types[i], values, i, end));
                i = end - 1;
            } else if (attribute == null) {
                entry.addAttribute(new LinkedAttribute(types[i], values[i]));
            } else {
                attribute.add(values[i]);
            }
        }
        return entry;
    }

    /** The DN of a {@code dn: } line, or {@code null} when the line is another kind or the DN does not decode. */
    private DN dn(String line) {
        if (!line.startsWith("dn:") || line.length() == 3 || line.charAt(3) == ':') {
            return null; // the root DN, a base64 DN, or no dn line at all
        }
        int pos = 3;
        while (pos < line.length() && line.charAt(pos) == ' ') {
            pos++;
        }
        if (pos == line.length()) {
            return null;
        }
        try {
            return DN.valueOf(line.substring(pos), schema);
        } catch (RuntimeException e) {
            return null;
        }
    }

    private AttributeDescription description(String name) {
        AttributeDescription known = descriptions.get(name);
        if (known != null) {
            return known;
        }
        AttributeDescription d;
        try {
            d = AttributeDescription.valueOf(name, schema);
        } catch (RuntimeException e) {
            return null;
        }
        // As the SDK's reader does: a syntax whose values are BER-encoded is always read with the binary option.
        if (d.getAttributeType().getSyntax().isBEREncodingRequired()) {
            d = d.withOption("binary");
        }
        if (descriptions.size() < REMEMBERED) {
            descriptions.putIfAbsent(name, d);
        }
        return d;
    }

    /** The value after the colon at {@code colon}: text, or base64 after a second colon; {@code null} if neither. */
    private static ByteString value(String line, int colon) {
        int length = line.length();
        if (colon == length - 1) {
            return ByteString.empty();
        }
        char c = line.charAt(colon + 1);
        if (c == '<') {
            return null;
        }
        int pos = c == ':' ? colon + 2 : colon + 1;
        while (pos < length && line.charAt(pos) == ' ') {
            pos++;
        }
        if (c != ':') {
            return ByteString.valueOfUtf8(line.substring(pos));
        }
        try {
            return ByteString.valueOfBase64(line.substring(pos));
        } catch (RuntimeException e) {
            return null;
        }
    }

    /** A new object class attribute of {@code values[from..to)}, copied from the one this list made before. */
    private LinkedAttribute objectClasses(String name, AttributeDescription type, ByteString[] values, int from,
            int to) {
        ObjectClassList key = new ObjectClassList(name, Arrays.asList(values).subList(from, to));
        LinkedAttribute made = objectClassLists.get(key);
        if (made == null) {
            made = new LinkedAttribute(type);
            for (int i = from; i < to; i++) {
                made.add(values[i]);
            }
            if (objectClassLists.size() < REMEMBERED) {
                objectClassLists.putIfAbsent(new ObjectClassList(name, List.copyOf(key.values())), made);
            }
        }
        return new LinkedAttribute(made);
    }
}
