package io.bindfirst.tools;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.forgerock.i18n.LocalizableMessage;
import org.forgerock.opendj.ldap.Attribute;
import org.forgerock.opendj.ldap.AttributeDescription;
import org.forgerock.opendj.ldap.ByteString;
import org.forgerock.opendj.ldap.DN;
import org.forgerock.opendj.ldap.DecodeException;
import org.forgerock.opendj.ldap.Entry;
import org.forgerock.opendj.ldap.LinkedAttribute;
import org.forgerock.opendj.ldap.schema.Schema;
import org.forgerock.opendj.ldif.LDIFEntryReader;
import org.forgerock.opendj.ldif.RejectedLDIFListener;

import io.bindfirst.server.core.write.ImpliedObjectClasses;
import io.bindfirst.server.core.write.ObjectClassSets;
import io.bindfirst.server.core.write.SchemaChecker;
import io.bindfirst.server.core.write.WriteException;
import io.bindfirst.server.pwd.PasswordAttribute;
import io.bindfirst.server.pwd.PasswordSchemes;
import io.bindfirst.server.pwd.PasswordValues;

/**
 * Turns one LDIF record into the entry to store, or refuses it, with the server's own parts: the SDK's LDIF
 * parser with the server's schema (a plain record is read by {@link PlainLdifRecords} into the same entry, at
 * less cost), the password values an add stores ({@link PasswordValues}: clear text
 * hashed with the configured default scheme, {@code {SCHEME}} values kept as a root user's add keeps them),
 * and the add's schema check ({@link SchemaChecker}). Operational attributes in the file (an export's) are
 * kept; an entry without {@code entryUUID} gets the one derived from its DN, as the server's sample data and
 * OpenDJ's import give it, so importing the same file twice gives the same data.
 */
final class ImportChecks {
    /** The SDK names a record's first line, counted within the lines it was given. */
    private static final Pattern STARTING_AT = Pattern.compile("starting at line (\\d+)");

    private final Schema schema;
    /** What the schema check worked out from the object classes of the entries before (they repeat). */
    private final ObjectClassSets objectClassSets;
    /** The superclasses an entry's classes imply, added as an add over LDAP adds them (RFC 4512 3.3). */
    private final ImpliedObjectClasses implied;
    private final PasswordValues passwordValues;
    private final PasswordAttribute passwordAttribute;
    private final AttributeDescription entryUuid;
    private final PlainLdifRecords plainRecords;
    /**
     * Each checking thread's MD5, for the entries' UUIDs: the JDK's {@code UUID.nameUUIDFromBytes}, which the
     * SDK's {@code DN.toUUID} calls, looks MD5 up among the security providers every time (0.13 s of a
     * million-user import's CPU).
     */
    private final ThreadLocal<MessageDigest> md5 = ThreadLocal.withInitial(ImportChecks::newMd5);

    ImportChecks(Schema schema, PasswordSchemes schemes) {
        this.schema = schema;
        this.plainRecords = new PlainLdifRecords(schema);
        this.objectClassSets = new ObjectClassSets(schema);
        this.implied = new ImpliedObjectClasses(schema);
        this.passwordValues = new PasswordValues(schemes);
        this.passwordAttribute = new PasswordAttribute(schema, schemes);
        this.entryUuid = AttributeDescription.valueOf("entryUUID", schema);
    }

    /** The entry to store for {@code record}, or {@code null} for a record without an entry (a lone version line). */
    Entry entry(LdifRecord record) throws EntryRejected {
        Entry entry = parse(record);
        if (entry == null) {
            return null;
        }
        try {
            hashPasswords(entry);
        } catch (PasswordValues.Refused e) {
            throw new EntryRejected(record.dnLine(), "Entry " + entry.getName() + ": " + e.getMessage());
        }
        implied.addTo(entry); // as an add over LDAP does, and OpenDJ's import
        try {
            SchemaChecker.check(entry, objectClassSets);
        } catch (WriteException e) {
            throw new EntryRejected(record.dnLine(), e.getMessage());
        }
        // After the check: an operational attribute is allowed in any entry, and a UUID made here is valid for
        // its syntax (checking a million of them cost an import about 1% of its time).
        if (entry.getAttribute(entryUuid) == null) {
            entry.addAttribute(new LinkedAttribute(entryUuid, uuidOf(entry.getName()).toString()));
        }
        return entry;
    }

    /**
     * The UUID {@link DN#toUUID()} gives: version 3 (RFC 4122, MD5) of the DN's normalized bytes without their
     * leading separator.
     */
    UUID uuidOf(DN dn) {
        ByteString normalized = dn.toNormalizedByteString();
        byte[] name = normalized.isEmpty() ? new byte[0]
                : normalized.subSequence(1, normalized.length()).toByteArray();
        byte[] hash = md5.get().digest(name);
        hash[6] = (byte) ((hash[6] & 0x0f) | 0x30); // version 3
        hash[8] = (byte) ((hash[8] & 0x3f) | 0x80); // the RFC's variant
        ByteBuffer bits = ByteBuffer.wrap(hash);
        return new UUID(bits.getLong(), bits.getLong());
    }

    private static MessageDigest newMd5() {
        try {
            return MessageDigest.getInstance("MD5");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime has MD5", e);
        }
    }

    private Entry parse(LdifRecord record) throws EntryRejected {
        Entry plain = plainRecords.entry(record.lines());
        if (plain != null) {
            return plain;
        }
        Malformed malformed = new Malformed();
        try (LDIFEntryReader reader = new LDIFEntryReader(record.lines())) {
            reader.setSchema(schema).setRejectedLDIFListener(malformed);
            Entry entry = reader.hasNext() ? reader.readEntry() : null;
            if (malformed.reason != null) {
                throw rejected(record, malformed.reason);
            }
            return entry;
        } catch (DecodeException e) {
            throw rejected(record, e.getMessage());
        } catch (IOException e) {
            throw new EntryRejected(record.firstLine(), e.getMessage()); // not thrown by a reader of a list
        }
    }

    /**
     * The parser's reason, with its line numbers (counted within the record) made the file's: the line it
     * quotes, where it quotes one (the bad line itself), else the record's first line.
     */
    private static EntryRejected rejected(LdifRecord record, String reason) {
        long line = record.dnLine();
        for (String text : record.lines()) {
            if (reason.contains("\"" + text + "\"")) {
                line = record.lineOf(text);
                break;
            }
        }
        Matcher m = STARTING_AT.matcher(reason);
        StringBuilder fixed = new StringBuilder();
        while (m.find()) {
            m.appendReplacement(fixed, "starting at line " + (record.firstLine() + Long.parseLong(m.group(1)) - 1));
        }
        m.appendTail(fixed);
        return new EntryRejected(line, fixed.toString());
    }

    private void hashPasswords(Entry entry) throws PasswordValues.Refused {
        List<Attribute> passwords = new ArrayList<>();
        for (Attribute a : entry.getAllAttributes()) {
            if (passwordAttribute.isPassword(a.getAttributeDescription())) {
                passwords.add(a);
            }
        }
        for (Attribute a : passwords) {
            LinkedAttribute stored = new LinkedAttribute(a.getAttributeDescription());
            stored.addAll(passwordValues.toStored(a, true));
            entry.replaceAttribute(stored);
        }
    }

    /** Keeps the parser's reason for a malformed record, rather than its default of throwing it. */
    private static final class Malformed implements RejectedLDIFListener {
        private String reason;

        @Override
        public void handleMalformedRecord(long lineNumber, List<String> lines, LocalizableMessage why) {
            reason = why.toString();
        }

        @Override
        public void handleSchemaValidationFailure(long lineNumber, List<String> lines,
                List<LocalizableMessage> why) {
            reason = why.toString();
        }

        @Override
        public void handleSchemaValidationWarning(long lineNumber, List<String> lines,
                List<LocalizableMessage> why) {
            // the schema is checked after parsing, by the server's own checker
        }

        @Override
        public void handleSkippedRecord(long lineNumber, List<String> lines, LocalizableMessage why) {
            reason = why.toString();
        }
    }
}
