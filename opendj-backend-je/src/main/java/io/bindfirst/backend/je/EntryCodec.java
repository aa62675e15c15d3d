package io.bindfirst.backend.je;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import org.forgerock.i18n.LocalizedIllegalArgumentException;
import org.forgerock.opendj.ldap.Attribute;
import org.forgerock.opendj.ldap.AttributeDescription;
import org.forgerock.opendj.ldap.ByteString;
import org.forgerock.opendj.ldap.DN;
import org.forgerock.opendj.ldap.Entry;
import org.forgerock.opendj.ldap.LinkedAttribute;
import org.forgerock.opendj.ldap.LinkedHashMapEntry;
import org.forgerock.opendj.ldap.ResultCode;
import org.forgerock.opendj.ldap.schema.Schema;

import io.bindfirst.server.backend.BackendException;

/**
 * id2entry value format. Version 1:
 * <pre>
 *   byte     version (1)
 *   string   DN as the user gave it
 *   varint   attribute count
 *     string   attribute description, options included (e.g. "cn;lang-fr")
 *     varint   value count
 *       bytes    value
 * </pre>
 * where varint is an unsigned LEB128 int and string/bytes are a varint length then the bytes (UTF-8).
 * Names are stored as text rather than schema OIDs so that data stays readable if the schema changes.
 */
final class EntryCodec {
    static final byte VERSION = 1;

    /** Beyond this many distinct stored descriptions (damaged or hostile data), new ones are not cached. */
    static final int MAX_CACHED_DESCRIPTIONS = 4096;

    /** A scratch buffer grown past this (by an entry of a large group, say) is dropped after use. */
    static final int MAX_KEPT_SCRATCH = 64 * 1024;

    private final Schema schema;
    /**
     * The attribute descriptions met in stored entries, by their stored bytes: every entry repeats the same
     * few dozen, and parsing one (a schema lookup and a lower-casing) was a tenth of a bind's CPU.
     */
    private final ConcurrentHashMap<ByteString, StoredDescription> descriptions = new ConcurrentHashMap<>();
    /** The stored bytes of the descriptions met in entries being encoded (the other way round). */
    private final ConcurrentHashMap<String, byte[]> encodedDescriptions = new ConcurrentHashMap<>();
    /** Each thread's buffer to encode into: entries are encoded on many threads, each one at a time. */
    private final ThreadLocal<Writer> scratch = ThreadLocal.withInitial(Writer::new);

    EntryCodec(Schema schema) {
        // Stored data must always decode, even if an attribute type was since removed from the schema.
        this.schema = schema.asNonStrictSchema();
    }

    /**
     * The entry's bytes in the format above. Written into the calling thread's scratch buffer, then copied once at
     * their size; attribute descriptions from their cached bytes. An import encodes a million entries of a dozen
     * attributes: a buffer grown by doubling for each and every description encoded again were most of what encoding
     * cost and 6% of what the import allocated.
     */
    byte[] encode(Entry entry) {
        Writer out = scratch.get();
        out.len = 0;
        out.raw(VERSION);
        out.string(entry.getName().toString());
        out.varint(entry.getAttributeCount());
        for (Attribute attribute : entry.getAllAttributes()) {
            out.bytes(descriptionBytes(attribute.getAttributeDescriptionAsString()));
            int size = attribute.size();
            out.varint(size);
            if (size == 1) {
                out.bytes(attribute.firstValue()); // most values are single: no iterator for them (0.3 GB an import)
            } else {
                for (ByteString value : attribute) {
                    out.bytes(value);
                }
            }
        }
        byte[] encoded = Arrays.copyOf(out.buf, out.len);
        if (out.buf.length > MAX_KEPT_SCRATCH) {
            scratch.remove(); // a huge entry's buffer is not kept for the thread's life
        }
        return encoded;
    }

    /** The UTF-8 bytes of a description, cached while there are not too many (damaged or hostile data). */
    private byte[] descriptionBytes(String description) {
        byte[] bytes = encodedDescriptions.get(description);
        if (bytes == null) {
            bytes = description.getBytes(StandardCharsets.UTF_8);
            if (encodedDescriptions.size() < MAX_CACHED_DESCRIPTIONS) {
                encodedDescriptions.putIfAbsent(description, bytes);
            }
        }
        return bytes;
    }

    Entry decode(byte[] data) throws BackendException {
        if (data.length == 0) {
            throw corrupt("it is empty", null);
        }
        if (data[0] != VERSION) {
            throw new BackendException(ResultCode.OTHER, "A stored entry has format version " + (data[0] & 0xff)
                    + ", but this server reads only version " + VERSION
                    + "; the data was written by a newer server or is damaged");
        }
        Reader in = new Reader(data);
        try {
            Entry entry = new LinkedHashMapEntry(DN.valueOf(in.string(), schema));
            int attributeCount = in.varint();
            for (int i = 0; i < attributeCount; i++) {
                Attribute attribute = new LinkedAttribute(in.description().parsed());
                int valueCount = in.varint();
                for (int v = 0; v < valueCount; v++) {
                    int length = in.varint();
                    attribute.add(ByteString.valueOfBytes(data, in.take(length), length));
                }
                entry.addAttribute(attribute);
            }
            if (in.pos != data.length) {
                throw corrupt("it has trailing bytes", null);
            }
            return entry;
        } catch (LocalizedIllegalArgumentException e) {
            throw corrupt("its DN or an attribute description does not parse", e);
        }
    }

    /**
     * Decodes only the attributes named in {@code names} (lower-case names and OIDs), skipping the others'
     * bytes without a schema lookup: the bind path reads a password and a few flags of a full entry.
     * The stored DN is parsed only when its text differs from {@code expected}'s.
     *
     * @return the partial entry, or {@code null} when the stored DN is not {@code expected} (a rename
     *         committed between the reads of dn2id and id2entry)
     */
    Entry decodeSome(byte[] data, Set<String> names, DN expected, byte[] expectedKey) throws BackendException {
        if (data.length == 0 || data[0] != VERSION) {
            return decode(data); // reports the problem
        }
        Reader in = new Reader(data);
        try {
            String storedDN = in.string();
            DN name = expected;
            if (!storedDN.equals(expected.toString())) {
                name = DN.valueOf(storedDN, schema);
                if (!Arrays.equals(DnKeys.keyOfCanonical(name), expectedKey)) {
                    return null;
                }
            }
            Entry entry = new LinkedHashMapEntry(name);
            int attributeCount = in.varint();
            for (int i = 0; i < attributeCount; i++) {
                StoredDescription description = in.description();
                int valueCount = in.varint();
                if (!names.contains(description.baseName)) {
                    for (int v = 0; v < valueCount; v++) {
                        in.take(in.varint());
                    }
                    continue;
                }
                Attribute attribute = new LinkedAttribute(description.parsed());
                for (int v = 0; v < valueCount; v++) {
                    int length = in.varint();
                    attribute.add(ByteString.valueOfBytes(data, in.take(length), length));
                }
                entry.addAttribute(attribute);
            }
            return entry;
        } catch (LocalizedIllegalArgumentException e) {
            throw corrupt("its DN or an attribute description does not parse", e);
        }
    }

    /** The attribute type part of a description ({@code cn;lang-fr} gives {@code cn}), lower case. */
    private static String baseName(String description) {
        int semicolon = description.indexOf(';');
        String base = semicolon < 0 ? description : description.substring(0, semicolon);
        return base.toLowerCase(java.util.Locale.ROOT);
    }

    /** Number of distinct stored descriptions cached (for tests). */
    int cachedDescriptions() {
        return descriptions.size();
    }

    /** Number of distinct descriptions whose bytes are cached for encoding (for tests). */
    int cachedEncodedDescriptions() {
        return encodedDescriptions.size();
    }

    /** The cached form of the description stored in {@code data[start, start + length)}. */
    private StoredDescription description(byte[] data, int start, int length) {
        StoredDescription d = descriptions.get(ByteString.wrap(data, start, length));
        if (d == null) {
            d = new StoredDescription(new String(data, start, length, StandardCharsets.UTF_8));
            if (descriptions.size() < MAX_CACHED_DESCRIPTIONS) {
                descriptions.putIfAbsent(ByteString.valueOfBytes(data, start, length), d);
            }
        }
        return d;
    }

    /**
     * One stored attribute description: its text, its lower-case type name, and its parse, made the first time
     * an entry's attribute is decoded rather than skipped (a description that does not parse fails only then,
     * as before the cache). Immutable once parsed; two threads parsing at once compute equal values.
     */
    private final class StoredDescription {
        final String text;
        final String baseName;
        private volatile AttributeDescription parsed;

        StoredDescription(String text) {
            this.text = text;
            this.baseName = baseName(text);
        }

        AttributeDescription parsed() {
            AttributeDescription p = parsed;
            if (p == null) {
                p = AttributeDescription.valueOf(text, schema);
                parsed = p;
            }
            return p;
        }
    }

    private static BackendException corrupt(String why, Throwable cause) {
        return new BackendException(ResultCode.OTHER, "A stored entry cannot be read: " + why, cause);
    }

    private static final class Writer {
        byte[] buf = new byte[1024];
        int len;

        void raw(byte b) {
            ensure(1);
            buf[len++] = b;
        }

        void varint(int value) {
            ensure(5);
            while ((value & ~0x7f) != 0) {
                buf[len++] = (byte) ((value & 0x7f) | 0x80);
                value >>>= 7;
            }
            buf[len++] = (byte) value;
        }

        void bytes(ByteString value) {
            varint(value.length());
            ensure(value.length());
            value.copyTo(buf, len);
            len += value.length();
        }

        void bytes(byte[] value) {
            varint(value.length);
            ensure(value.length);
            System.arraycopy(value, 0, buf, len, value.length);
            len += value.length;
        }

        void string(String value) {
            bytes(value.getBytes(StandardCharsets.UTF_8));
        }

        private void ensure(int extra) {
            if (len + extra > buf.length) {
                buf = Arrays.copyOf(buf, Math.max(buf.length * 2, len + extra));
            }
        }
    }

    /** Bounds-checked reads, so damaged data becomes a BackendException rather than an array error. */
    private final class Reader {
        final byte[] data;
        int pos = 1;

        Reader(byte[] data) {
            this.data = data;
        }

        int varint() throws BackendException {
            int value = 0;
            for (int shift = 0; shift < 32; shift += 7) {
                if (pos >= data.length) {
                    throw corrupt("it is truncated", null);
                }
                byte b = data[pos++];
                value |= (b & 0x7f) << shift;
                if (b >= 0) {
                    if (value < 0) {
                        break;
                    }
                    return value;
                }
            }
            throw corrupt("it holds an invalid length", null);
        }

        /** Skips {@code length} bytes and returns where they start. */
        int take(int length) throws BackendException {
            if (length > data.length - pos) {
                throw corrupt("it is truncated", null);
            }
            int start = pos;
            pos += length;
            return start;
        }

        String string() throws BackendException {
            int length = varint();
            return new String(data, take(length), length, StandardCharsets.UTF_8);
        }

        StoredDescription description() throws BackendException {
            int length = varint();
            return EntryCodec.this.description(data, take(length), length);
        }
    }
}
