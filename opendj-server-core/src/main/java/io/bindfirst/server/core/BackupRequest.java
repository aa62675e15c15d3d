package io.bindfirst.server.core;

import java.io.IOException;

import org.forgerock.opendj.io.ASN1;
import org.forgerock.opendj.io.ASN1Reader;
import org.forgerock.opendj.io.ASN1Writer;
import org.forgerock.opendj.ldap.ByteString;
import org.forgerock.opendj.ldap.ByteStringBuilder;

import io.bindfirst.server.virtual.VirtualEntries;

/**
 * The value of this server's backup extended request: {@code SEQUENCE { backendId OCTET STRING, directory
 * OCTET STRING }}, the directory an absolute path on the server's host. Encoded by bin/backup, decoded by
 * {@link BackupOperation}.
 *
 * @param backendId the backend to back up ({@code ds-cfg-backend-id})
 * @param directory where the server writes the backup: a new or empty directory
 */
public record BackupRequest(String backendId, String directory) {
    public static final String OID = VirtualEntries.OID_BACKUP;

    public ByteString encode() {
        ByteStringBuilder b = new ByteStringBuilder();
        try (ASN1Writer w = ASN1.getWriter(b)) {
            w.writeStartSequence();
            w.writeOctetString(backendId);
            w.writeOctetString(directory);
            w.writeEndSequence();
        } catch (IOException e) {
            throw new IllegalStateException("writing to memory does not fail", e);
        }
        return b.toByteString();
    }

    /** The request in {@code value}, or {@code null} when it is not one. */
    public static BackupRequest decode(ByteString value) {
        if (value == null) {
            return null;
        }
        try {
            ASN1Reader r = ASN1.getReader(value);
            r.readStartSequence();
            String id = r.readOctetStringAsString();
            String dir = r.readOctetStringAsString();
            r.readEndSequence();
            return r.hasNextElement() ? null : new BackupRequest(id, dir);
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }
}
